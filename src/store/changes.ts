import type { Business, StoredReview } from '../domain/index.js'
import type { ImportBatch, ImportOutcome } from './types.js'

/** JSON with sorted keys, so equal records always compare (and store) as equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  )
}

export interface ExistingReview {
  doc: string
  verified: boolean
}

export interface ReviewWrite {
  id: string
  doc: string
  verified: boolean
  date: string
  isNew: boolean
}

export interface ImportPlan {
  businessDoc: string | null
  writes: ReviewWrite[]
  deletes: string[]
  /** Some verified review or the business changed: the published data is different. */
  publishedChanged: boolean
  counts: { added: number; updated: number; removed: number; unchanged: number; spared: number }
}

/**
 * Decides what an import changes, purely from what is stored and what arrived; shared by every adapter so they
 * agree on what counts as a change (and so on when the data version moves).
 */
export function planImport(
  existing: ReadonlyMap<string, ExistingReview>,
  storedBusinessDoc: string | null,
  batch: Pick<ImportBatch, 'business' | 'reviews' | 'replace' | 'replaceSources'>
): ImportPlan {
  const businessDoc = businessDocIfChanged(batch.business, storedBusinessDoc)
  const writes: ReviewWrite[] = []
  const counts = { added: 0, updated: 0, removed: 0, unchanged: 0, spared: 0 }
  let publishedChanged = businessDoc !== null
  for (const review of batch.reviews) {
    const doc = canonicalJson(review)
    const before = existing.get(review.id)
    if (before?.doc === doc) {
      counts.unchanged++
      continue
    }
    writes.push({ id: review.id, doc, verified: review.verified, date: review.date, isNew: !before })
    if (before) counts.updated++
    else counts.added++
    if (review.verified || before?.verified) publishedChanged = true
  }
  const absent = batch.replace ? absentIds(existing, batch.reviews) : []
  const deletes = batch.replaceSources ? absent.filter((id) => batch.replaceSources!.includes(sourceOf(existing.get(id)!))) : absent
  counts.removed = deletes.length
  counts.spared = absent.length - deletes.length
  if (deletes.some((id) => existing.get(id)?.verified)) publishedChanged = true
  return { businessDoc, writes, deletes, publishedChanged, counts }
}

function businessDocIfChanged(business: Business | undefined, stored: string | null): string | null {
  if (!business) return null
  const doc = canonicalJson(business)
  return doc === stored ? null : doc
}

/** The source of a stored review, read from its document (only for the few reviews an import may remove). */
const sourceOf = (r: ExistingReview): string => (JSON.parse(r.doc) as { source: string }).source

function absentIds(existing: ReadonlyMap<string, ExistingReview>, incoming: readonly StoredReview[]): string[] {
  const keep = new Set(incoming.map((r) => r.id))
  return [...existing.keys()].filter((id) => !keep.has(id))
}

/** The outcome of an import skipped because the store already holds a business (`onlyIfEmpty`). */
export const skippedImport = (version: number): ImportOutcome => ({
  version,
  changed: false,
  skipped: true,
  businessChanged: false,
  added: 0,
  updated: 0,
  removed: 0,
  unchanged: 0,
  spared: 0
})
