import type { AspectDefinition, InsightsDocument } from '../../domain/index.js'
import type { ReviewWork } from '../analyze.js'
import { mean, round3 } from './numbers.js'

type Topic = InsightsDocument['topics'][number]

const MAX_TOPICS = 10
const MAX_KEYWORDS = 6

interface Cluster {
  head: string
  phrases: { key: string; label: string; ids: Set<number> }[]
  ids: Set<number>
}

/**
 * Recurring themes found in the text itself: noun phrases several reviews use, either as compounds ("death
 * certificate", "guest book", "honor guard") or as the things they judge ("the chapel was spotless"), grouped when
 * they share a head noun or mostly the same reviews. Aspect names are left out, so topics add to the aspects
 * instead of restating them.
 */
export function topics(works: readonly ReviewWork[], aspects: readonly AspectDefinition[]): Topic[] {
  const restated = new Set(aspects.flatMap((a) => [a.id, a.label.toLowerCase()]))
  const byKey = new Map<string, { ids: Set<number>; surfaces: Map<string, number> }>()
  works.forEach((w, i) => {
    for (const k of w.keyphrases) {
      if (restated.has(k.key) || !(k.judged || k.key.includes(' '))) continue
      const e = byKey.get(k.key) ?? { ids: new Set(), surfaces: new Map() }
      e.ids.add(i)
      e.surfaces.set(k.surface, (e.surfaces.get(k.surface) ?? 0) + 1)
      byKey.set(k.key, e)
    }
  })
  const minReviews = Math.max(3, Math.ceil(works.length * 0.01))
  const candidates = [...byKey]
    .filter(([, e]) => e.ids.size >= minReviews)
    .sort(([ka, a], [kb, b]) => b.ids.size - a.ids.size || (ka < kb ? -1 : 1))
    .map(([key, e]) => ({ key, label: [...e.surfaces].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]![0], ids: e.ids }))
  const clusters: Cluster[] = []
  for (const c of candidates) {
    const head = c.key.split(' ').at(-1)!
    const home = clusters.find((k) => k.head === head || jaccard(k.phrases[0]!.ids, c.ids) >= 0.35 || k.phrases[0]!.key.split(' ').includes(c.key))
    if (home) {
      home.phrases.push(c)
      for (const i of c.ids) home.ids.add(i)
    } else clusters.push({ head, phrases: [c], ids: new Set(c.ids) })
  }
  return clusters
    .sort((a, b) => b.ids.size - a.ids.size || (a.phrases[0]!.key < b.phrases[0]!.key ? -1 : 1))
    .slice(0, MAX_TOPICS)
    .map((k) => toTopic(k, works))
}

/** Phrases used by mostly the same reviews belong together ("flag", "honor guard"). */
function jaccard(a: Set<number>, b: Set<number>): number {
  let shared = 0
  for (const i of a) if (b.has(i)) shared++
  return shared / (a.size + b.size - shared || 1)
}

/** Positions index the reviews newest first, so the smallest positions are the newest examples. */
function toTopic(k: Cluster, works: readonly ReviewWork[]): Topic {
  const members = [...k.ids].sort((a, b) => a - b).map((i) => works[i]!)
  const label = k.phrases[0]!.label
  return {
    id: label.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'topic',
    label: label[0]!.toUpperCase() + label.slice(1),
    keywords: k.phrases.slice(0, MAX_KEYWORDS).map((p) => p.label),
    review_count: members.length,
    score: round3(mean(members.map((w) => w.analysis.sentiment.score))),
    example_review_ids: members.slice(0, 3).map((w) => w.id)
  }
}
