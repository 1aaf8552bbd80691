import { z } from 'zod'
import { integerIn, IsoDate, numberIn } from './primitives.js'
import { Review } from './review.js'

const Filter = z.string().trim().min(1, 'must not be empty').max(200)

/**
 * Search parameters, shared by GET /api/reviews/search and the MCP search_reviews tool.
 * Query strings are decoded to these types first (see the HTTP layer), so "5" and 5 mean the same.
 */
export const SearchParams = z
  .strictObject({
    rating: integerIn(1, 5).optional().describe('Exact star rating, 1 to 5.'),
    min_rating: numberIn(1, 5).optional().describe('Minimum star rating, inclusive, 1 to 5.'),
    since: IsoDate.optional().describe('Only reviews dated on or after this day (YYYY-MM-DD).'),
    until: IsoDate.optional().describe('Only reviews dated on or before this day (YYYY-MM-DD).'),
    query: Filter.optional().describe('Case- and accent-insensitive substring of the review text.'),
    mentions_technician: Filter.optional().describe(
      'Only reviews naming this staff member: full name, alias or unambiguous first name, case-insensitive.'
    ),
    mentions_service: Filter.optional().describe('Only reviews naming this service: id, name or alias.'),
    limit: integerIn(1, 100).default(20).describe('Maximum number of reviews returned, 1 to 100.'),
    offset: integerIn(0, 1_000_000).default(0).describe('Number of matching reviews to skip, for paging.')
  })
  .refine((p) => !p.since || !p.until || p.since <= p.until, {
    path: ['until'],
    message: 'until must not be earlier than since'
  })
export type SearchParams = z.output<typeof SearchParams>

export const SearchResult = z
  .object({
    matched: z.int().describe('Number of reviews matching every filter.'),
    returned: z.int().describe('Number of reviews in this page.'),
    limit: z.int(),
    offset: z.int(),
    next_offset: z.int().nullable().describe('Offset of the next page; null on the last page.'),
    reviews: z.array(Review).describe('Matching reviews, newest first (date, then id, descending).')
  })
  .meta({ id: 'SearchResult' })
export type SearchResult = z.output<typeof SearchResult>

export const SinceParams = z.strictObject({
  date: IsoDate.describe('First day included (YYYY-MM-DD).')
})

export const SinceResult = z
  .object({
    since: IsoDate,
    count: z.int(),
    reviews: z.array(Review).describe('Reviews dated on or after `since`, newest first.')
  })
  .meta({ id: 'SinceResult' })
export type SinceResult = z.output<typeof SinceResult>

/** The all-reviews HTML list: which page (1-based); nothing else is accepted. */
export const ReviewsPageParams = z.strictObject({
  page: integerIn(1, 1_000_000).default(1).describe('Page of the newest-first list, 1-based.')
})
