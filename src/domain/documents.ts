import { z } from 'zod'
import { Business } from './business.js'
import { ImportedReview, Review } from './review.js'
import { Timestamp } from './primitives.js'

const StarCounts = z.object({ '1': z.int(), '2': z.int(), '3': z.int(), '4': z.int(), '5': z.int() })

export const AggregateRating = z
  .object({
    rating_value: z.number().nullable().describe('Mean rating to one decimal; null when there are no reviews.'),
    review_count: z.int().min(0),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: StarCounts.describe('Number of reviews per star rating.')
  })
  .meta({ id: 'AggregateRating' })
export type AggregateRating = z.output<typeof AggregateRating>

export const ReviewsDocument = z
  .object({
    version: z.literal('1.0'),
    generated_at: Timestamp.describe('When the published data last changed.'),
    business: Business,
    aggregate_rating: AggregateRating,
    reviews: z.array(Review).describe('All verified reviews, newest first.')
  })
  .meta({ id: 'ReviewsDocument' })
export type ReviewsDocument = z.output<typeof ReviewsDocument>

/** The native import format: the reviews.json shape, where computed parts may be absent. */
export const ImportDocument = z.object({
  version: z.unknown().optional(),
  generated_at: z.unknown().optional(),
  aggregate_rating: z.unknown().optional(),
  business: Business.optional(),
  reviews: z.array(ImportedReview)
})
export type ImportDocument = z.output<typeof ImportDocument>
