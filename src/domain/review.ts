import { z } from 'zod'
import { HttpUrl, integerIn, IsoDate, ReviewId, ShortText, Timestamp, optionalNullable } from './primitives.js'

const Language = z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/, 'must be a BCP 47 language tag such as "en"')
const LongText = z.string().trim().max(20000)

export const OwnerReply = z.object({ text: LongText.min(1), date: IsoDate })

/** The fields a review is imported and stored with; `updated_at` and `mentions` are computed here. */
export const ReviewInput = z.object({
  id: ReviewId,
  author: ShortText,
  author_avatar_url: optionalNullable(HttpUrl),
  rating: integerIn(1, 5),
  date: IsoDate,
  published_at: optionalNullable(Timestamp),
  text: optionalNullable(LongText).transform((t) => (t === '' ? null : t)),
  source: z.string().trim().min(1).max(60),
  source_url: optionalNullable(HttpUrl),
  owner_reply: optionalNullable(OwnerReply),
  verified: z.boolean(),
  language: optionalNullable(Language)
})
export type StoredReview = z.output<typeof ReviewInput>

export const Mentions = z.object({
  technicians: z.array(z.string()).describe('Canonical names of the staff members the text names.'),
  services: z.array(z.string()).describe('Ids of the services the text names.'),
  service_areas: z.array(z.string()).describe('Service areas the text names.')
})
export type Mentions = z.output<typeof Mentions>

/** A published review, as served. Every key is present; absent values are null. */
export const Review = z
  .object({
    ...ReviewInput.shape,
    text: LongText.nullable().describe('Review text; null for a rating-only review.'),
    updated_at: Timestamp.describe('When this record last changed in this service.'),
    mentions: Mentions
  })
  .meta({ id: 'Review' })
export type Review = z.output<typeof Review>

/** Import accepts a published review too: its computed fields are ignored. */
export const ImportedReview = ReviewInput.extend({
  updated_at: z.unknown().optional(),
  mentions: z.unknown().optional()
}).transform(({ updated_at: _u, mentions: _m, ...stored }) => stored)

export { ShortText }
