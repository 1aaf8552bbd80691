import { parseOrThrow, SinceParams, type SinceResult } from '../domain/index.js'
import type { SearchIndex } from '../snapshot/index.js'
import { dateRange } from './search.js'

export interface SincePage {
  since: string
  positions: number[]
}

/** Reviews dated on or after a day, newest first. A future day gives an empty list; a bad one an invalid_request. */
export function reviewsSince(index: SearchIndex, input: unknown): SincePage {
  const { date } = parseOrThrow(SinceParams, input, 'The date is invalid.')
  const [from, to] = dateRange(index.dates, date)
  return { since: date, positions: Array.from({ length: to - from }, (_, k) => from + k) }
}

export function toSinceResult(index: SearchIndex, page: SincePage): SinceResult {
  return { since: page.since, count: page.positions.length, reviews: page.positions.map((i) => index.reviews[i]!) }
}

export function sinceJson(index: SearchIndex, page: SincePage): string {
  return `{"since":${JSON.stringify(page.since)},"count":${page.positions.length},"reviews":[${page.positions.map((i) => index.json[i]).join(',')}]}`
}
