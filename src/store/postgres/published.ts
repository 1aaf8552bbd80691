import type pg from 'pg'
import type { Business, StoredReview } from '../../domain/index.js'
import { planImport, skippedImport, type ExistingReview } from '../changes.js'
import { NoBusinessError, type ImportBatch, type ImportOutcome, type PublishedData } from '../types.js'
import { DATA_CHANNEL } from './listener.js'
import { READ_SNAPSHOT, transaction, type Queryable } from './pool.js'

/** Rows per statement when writing reviews: large imports go in several statements of bounded size. */
const CHUNK = 2000

export async function readPublished(pool: pg.Pool, bulkTimeoutMs: number): Promise<PublishedData | null> {
  return transaction(
    pool,
    async (c) => {
      await c.query(`SET LOCAL statement_timeout = ${bulkTimeoutMs}`)
      const business = (await c.query<{ doc: string }>('SELECT doc FROM business WHERE id = 1')).rows[0]
      if (!business) return null
      const meta = (await c.query<{ version: number; changed_at: string }>('SELECT version, changed_at FROM data_version WHERE id = 1')).rows[0]!
      const { rows } = await c.query<{ doc: string; updated_at: string }>('SELECT doc, updated_at FROM reviews WHERE verified')
      return {
        version: meta.version,
        changedAt: meta.changed_at,
        business: JSON.parse(business.doc) as Business,
        reviews: rows.map((r) => ({ review: JSON.parse(r.doc) as StoredReview, updatedAt: r.updated_at }))
      }
    },
    READ_SNAPSHOT
  )
}

/**
 * The import, planned by the same planImport as SQLite's. Locking the data version row first serialises importers
 * (nodes seeding the demo at the same moment, an import process): each plans from what the previous one committed.
 */
export async function applyImport(pool: pg.Pool, batch: ImportBatch, bulkTimeoutMs: number): Promise<ImportOutcome> {
  return transaction(pool, async (c) => {
    await c.query(`SET LOCAL statement_timeout = ${bulkTimeoutMs}`)
    const version = (await c.query<{ version: number }>('SELECT version FROM data_version WHERE id = 1 FOR UPDATE')).rows[0]!.version
    const storedBusiness = (await c.query<{ doc: string }>('SELECT doc FROM business WHERE id = 1')).rows[0]?.doc ?? null
    if (batch.onlyIfEmpty && storedBusiness !== null) {
      return skippedImport(version)
    }
    if (storedBusiness === null && !batch.business) throw new NoBusinessError()
    const existing = new Map<string, ExistingReview>()
    for (const r of (await c.query<{ id: string; doc: string; verified: boolean }>('SELECT id, doc, verified FROM reviews')).rows) {
      existing.set(r.id, { doc: r.doc, verified: r.verified })
    }
    const plan = planImport(existing, storedBusiness, batch)
    if (plan.businessDoc !== null) await writeBusiness(c, plan.businessDoc, batch.now)
    await writeReviews(c, plan.writes.map((w) => ({ ...w, updatedAt: batch.now })))
    for (let i = 0; i < plan.deletes.length; i += CHUNK) {
      await c.query('DELETE FROM reviews WHERE id = ANY ($1::text[])', [plan.deletes.slice(i, i + CHUNK)])
    }
    const next = plan.publishedChanged ? await bumpVersion(c, batch.now) : version
    return { version: next, changed: plan.publishedChanged, skipped: false, businessChanged: plan.businessDoc !== null, ...plan.counts }
  })
}

export async function writeBusiness(c: Queryable, doc: string, updatedAt: string): Promise<void> {
  await c.query(
    'INSERT INTO business (id, doc, updated_at) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, updated_at = excluded.updated_at',
    [doc, updatedAt]
  )
}

export interface ReviewRow {
  id: string
  doc: string
  verified: boolean
  date: string
  updatedAt: string
}

export async function writeReviews(c: Queryable, rows: ReviewRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK)
    await c.query(
      `INSERT INTO reviews (id, doc, verified, date, updated_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[])
       ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, verified = excluded.verified, date = excluded.date, updated_at = excluded.updated_at`,
      [chunk.map((r) => r.id), chunk.map((r) => r.doc), chunk.map((r) => r.verified), chunk.map((r) => r.date), chunk.map((r) => r.updatedAt)]
    )
  }
}

/** Moves the data version; the NOTIFY is delivered to every node when (and only if) the transaction commits. */
async function bumpVersion(c: Queryable, changedAt: string): Promise<number> {
  const { rows } = await c.query<{ version: number }>('UPDATE data_version SET version = version + 1, changed_at = $1 WHERE id = 1 RETURNING version', [changedAt])
  await signalVersion(c, rows[0]!.version)
  return rows[0]!.version
}

export async function signalVersion(c: Queryable, version: number): Promise<void> {
  await c.query('SELECT pg_notify($1, $2)', [DATA_CHANNEL, String(version)])
}
