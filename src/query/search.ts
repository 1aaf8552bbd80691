import { foldText } from '../mentions/index.js'
import { parseOrThrow, SearchParams, type SearchResult } from '../domain/index.js'
import type { SearchIndex } from '../snapshot/index.js'

/** A page of hits as positions into the index, so each edge serialises them its own way. */
export interface SearchPage {
  matched: number
  returned: number
  limit: number
  offset: number
  next_offset: number | null
  positions: number[]
}

/**
 * The one search behind GET /api/reviews/search and the MCP search_reviews tool.
 * Throws a ServiceError (invalid_request, with issues) when the parameters are invalid.
 */
export function searchReviews(index: SearchIndex, input: unknown): SearchPage {
  const p = parseOrThrow(SearchParams, input, 'The search parameters are invalid.')
  const hits = matchingPositions(index, p)
  const positions = hits.slice(p.offset, p.offset + p.limit)
  const end = p.offset + positions.length
  return {
    matched: hits.length,
    returned: positions.length,
    limit: p.limit,
    offset: p.offset,
    next_offset: end < hits.length ? end : null,
    positions
  }
}

export function toSearchResult(index: SearchIndex, page: SearchPage): SearchResult {
  const { positions, ...envelope } = page
  return { ...envelope, reviews: positions.map((i) => index.reviews[i]!) }
}

export function pageJson(index: SearchIndex, page: SearchPage): string {
  const { positions, ...envelope } = page
  return `${JSON.stringify(envelope).slice(0, -1)},"reviews":[${positions.map((i) => index.json[i]).join(',')}]}`
}

function matchingPositions(index: SearchIndex, p: SearchParams): number[] {
  const candidates = candidatePositions(index, p)
  if (!candidates) return []
  const query = p.query === undefined ? undefined : foldText(p.query)
  const [from, to] = dateRange(index.dates, p.since, p.until)
  const hits: number[] = []
  for (const i of candidates) {
    if (i < from || i >= to) continue
    const rating = index.ratings[i]!
    if (p.rating !== undefined && rating !== p.rating) continue
    if (p.min_rating !== undefined && rating < p.min_rating) continue
    if (query !== undefined && !index.folded[i]?.includes(query)) continue
    hits.push(i)
  }
  return hits
}

/** The narrowest starting set: a posting list when a mention filter is given, else every position. Null: nothing can match. */
function candidatePositions(index: SearchIndex, p: SearchParams): Iterable<number> | null {
  const lists: (readonly number[])[] = []
  if (p.mentions_technician !== undefined) {
    const name = index.mentions.resolveTechnician(p.mentions_technician)
    if (!name) return null
    lists.push(index.byTechnician.get(name) ?? [])
  }
  if (p.mentions_service !== undefined) {
    const id = index.mentions.resolveService(p.mentions_service)
    if (!id) return null
    lists.push(index.byService.get(id) ?? [])
  }
  if (lists.length === 0) return index.reviews.keys()
  const [shortest, ...others] = lists.sort((a, b) => a.length - b.length)
  const sets = others.map((l) => new Set(l))
  return shortest!.filter((i) => sets.every((s) => s.has(i)))
}

/** Positions [from, to) of reviews dated within [since, until]; dates are sorted newest first. */
export function dateRange(dates: readonly string[], since?: string, until?: string): [number, number] {
  const from = until === undefined ? 0 : firstIndex(dates, (d) => d <= until)
  const to = since === undefined ? dates.length : firstIndex(dates, (d) => d < since)
  return [from, to]
}

/** Binary search for the first position where a monotone predicate turns true. */
function firstIndex(dates: readonly string[], pred: (d: string) => boolean): number {
  let lo = 0
  let hi = dates.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (pred(dates[mid]!)) hi = mid
    else lo = mid + 1
  }
  return lo
}

