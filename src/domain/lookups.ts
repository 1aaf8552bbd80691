import { z } from 'zod'
import { Business, Service, Technician } from './business.js'
import { AggregateRating } from './documents.js'
import { AspectInsight, FaqEntry, OverallSentiment, PersonInsight, PullQuote, ServiceInsight, Trend } from './insights.js'
import { integerIn, IsoDate, ReviewId, ShortText, Timestamp } from './primitives.js'
import { Review } from './review.js'
import { SinceParams, SinceResult } from './search.js'

/**
 * Inputs and results of the lookups behind the MCP tools (search and since are in search.ts). Inputs are strict, so
 * a misspelt argument is an error rather than silently ignored.
 */
export const NoParams = z.strictObject({})

const Paging = {
  limit: integerIn(1, 100).default(50).describe('Maximum number of reviews returned, 1 to 100.'),
  offset: integerIn(0, 1_000_000).default(0).describe('Number of reviews to skip, for paging.')
}

export const SincePageParams = SinceParams.extend(Paging)
export type SincePageParams = z.output<typeof SincePageParams>

export const SincePageResult = SinceResult.extend({
  count: z.int().describe('Number of reviews dated on or after `since`.'),
  returned: z.int().describe('Number of reviews in this page.'),
  offset: z.int(),
  next_offset: z.int().nullable().describe('Offset of the next page; null on the last page.')
})
export type SincePageResult = z.output<typeof SincePageResult>

export const ReviewLookup = z.strictObject({ id: ReviewId.describe('The review id, as in reviews.json or a search result.') })

export const AspectLookup = z.strictObject({
  aspect: ShortText.describe('Aspect id or label, case-insensitive, e.g. "pricing" or "Timeliness".')
})

export const TechnicianLookup = z.strictObject({
  name: ShortText.describe('Staff member: full name, alias, unambiguous first name or a misspelling, as people write it in reviews.')
})

export const ServiceLookup = z.strictObject({
  service: ShortText.describe('Service id, name or alias, as get_business lists them.')
})

const Freshness = { updated_at: Timestamp.describe('When the published reviews last changed.') }

export const BusinessResult = z.object({ business: Business, aggregate_rating: AggregateRating, ...Freshness })
export type BusinessResult = z.output<typeof BusinessResult>

const Example = z.object({
  review_id: ReviewId,
  date: IsoDate,
  rating: z.int(),
  sentiment: z.enum(['positive', 'negative', 'neutral', 'mixed']).describe('How this review speaks of the aspect.'),
  phrases: z.array(z.string()).describe('The words that carry that judgement.')
})

export const AspectResult = z.object({
  aspect: AspectInsight,
  examples: z.array(Example).describe('Up to 5 of the example reviews, with their judgement of this aspect.'),
  ...Freshness
})
export type AspectResult = z.output<typeof AspectResult>

const RecentReviews = z.array(Review).describe('Up to 5 newest reviews that name them.')

export const TechnicianResult = z.object({ technician: Technician, insight: PersonInsight, recent_reviews: RecentReviews, ...Freshness })
export type TechnicianResult = z.output<typeof TechnicianResult>

export const ServiceResult = z.object({ service: Service, insight: ServiceInsight, recent_reviews: RecentReviews, ...Freshness })
export type ServiceResult = z.output<typeof ServiceResult>

export const FaqResult = z.object({ faq: z.array(FaqEntry), ...Freshness })
export type FaqResult = z.output<typeof FaqResult>

export const InsightsSummaryResult = z.object({
  summary: z.string().describe('Editorial summary; every claim cites review ids in brackets.'),
  pull_quote: PullQuote.nullable(),
  review_count: z.int(),
  date_range: z.object({ earliest: IsoDate.nullable(), latest: IsoDate.nullable() }),
  overall_sentiment: OverallSentiment,
  trend: Trend,
  aspects: z
    .array(AspectInsight.pick({ id: true, label: true, mention_count: true, positive_pct: true, score: true }))
    .describe('Every aspect, most mentioned first.'),
  model: z.string(),
  ...Freshness
})
export type InsightsSummaryResult = z.output<typeof InsightsSummaryResult>
