import type { Review } from '../domain/index.js'
import type { MentionIndex } from '../mentions/index.js'

/**
 * What a search needs, precomputed per snapshot. Reviews are newest first (date, then id, descending); every array
 * is aligned with `reviews`, and posting lists hold ascending positions, i.e. newest first too.
 */
export interface SearchIndex {
  reviews: readonly Review[]
  /** Each review serialised once, so responses are assembled from strings instead of re-serialised. */
  json: readonly string[]
  dates: readonly string[]
  ratings: Uint8Array
  /** Folded text (lowercase, no accents) for substring search; null for rating-only reviews. */
  folded: readonly (string | null)[]
  byTechnician: ReadonlyMap<string, readonly number[]>
  byService: ReadonlyMap<string, readonly number[]>
  byId: ReadonlyMap<string, number>
  mentions: MentionIndex
}

export function buildSearchIndex(reviews: readonly Review[], json: readonly string[], folded: readonly (string | null)[], mentions: MentionIndex): SearchIndex {
  const byTechnician = new Map<string, number[]>()
  const byService = new Map<string, number[]>()
  const ratings = new Uint8Array(reviews.length)
  reviews.forEach((r, i) => {
    ratings[i] = r.rating
    for (const t of r.mentions.technicians) push(byTechnician, t, i)
    for (const s of r.mentions.services) push(byService, s, i)
  })
  const byId = new Map(reviews.map((r, i) => [r.id, i]))
  return { reviews, json, dates: reviews.map((r) => r.date), ratings, folded, byTechnician, byService, byId, mentions }
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key)
  if (list) list.push(i)
  else map.set(key, [i])
}
