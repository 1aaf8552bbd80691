import { z } from 'zod'
import { IsoDate, ReviewId, ShortText, Slug, Timestamp } from './primitives.js'

const Percent = z.number().min(0).max(100).describe('Percent, 0 to 100, one decimal.')
const Score = z.number().min(-1).max(1).describe('Sentiment score from -1 (negative) to 1 (positive).')
const Polarity = z.enum(['positive', 'negative', 'neutral', 'mixed'])
const Ids = z.array(ReviewId)

/** One aspect of the service and how reviewers speak of it. A business file may bring its own taxonomy. */
export const AspectDefinition = z.object({
  id: Slug,
  label: ShortText,
  terms: z.array(ShortText).min(1).max(200).describe('Words and phrases that name the aspect ("chapel", "death certificate").'),
  positive: z.array(ShortText).max(200).default([]).describe('Words that praise this aspect when present ("prompt", "itemized").'),
  negative: z.array(ShortText).max(200).default([]).describe('Words that criticise this aspect when present ("late", "overpriced").'),
  question: ShortText.nullable().default(null).describe('The FAQ question this aspect answers, if any.'),
  negated: z
    .enum(['criticism', 'praise'])
    .default('criticism')
    .describe('What "no <term>" means: a missing ramp or update is criticism; no fee or no charge is praise.')
})
export type AspectDefinition = z.output<typeof AspectDefinition>

export const Taxonomy = z
  .object({
    aspects: z.array(AspectDefinition).min(1).max(30),
    turnaround: z
      .object({
        question: ShortText,
        subject: z.array(ShortText).min(1).max(50).describe('Words naming what is waited for ("ashes", "urn").')
      })
      .nullable()
      .default(null)
      .describe('An FAQ about how long something takes, answered from durations reviewers state.'),
    staff_question: ShortText.nullable().default(null)
  })
  .superRefine((t, ctx) => {
    const ids = t.aspects.map((a) => a.id)
    ids.forEach((id, i) => ids.indexOf(id) !== i && ctx.addIssue({ code: 'custom', path: ['aspects', i, 'id'], message: `duplicate aspect id "${id}"` }))
  })
  .meta({ id: 'Taxonomy' })
export type Taxonomy = z.output<typeof Taxonomy>

export const AspectInsight = z.object({
  id: Slug,
  label: z.string(),
  mention_count: z.int().describe('Reviews that mention the aspect.'),
  positive_count: z.int(),
  neutral_count: z.int().describe('Reviews neutral about it, or mixed (both praise and criticism).'),
  negative_count: z.int(),
  positive_pct: Percent.describe('Share of mentioning reviews that are positive about it.'),
  score: Score,
  top_phrases: z.array(z.string()),
  example_review_ids: Ids
})

export const PersonInsight = z.object({
  name: z.string(),
  role: z.string().nullable(),
  mention_count: z.int(),
  avg_rating: z.number().nullable(),
  positive_pct: Percent.nullable(),
  review_ids: Ids
})

export const ServiceInsight = z.object({
  id: Slug,
  name: z.string(),
  mention_count: z.int(),
  avg_rating: z.number().nullable(),
  positive_pct: Percent.nullable(),
  review_ids: Ids
})

export const ReviewAnalysis = z.object({
  sentiment: z.object({ score: Score, label: Polarity }),
  aspects: z.array(z.object({ id: Slug, sentiment: Polarity, score: Score, phrases: z.array(z.string()) }))
})
export type ReviewAnalysis = z.output<typeof ReviewAnalysis>

const Grounded = { review_ids: Ids.describe('The reviews this rests on.') }

export const Trend = z
  .enum(['improving', 'stable', 'declining'])
  .describe(
    'Least-squares slope of monthly mean sentiment over the last 24 months, weighted by review count: above +0.1 a year improving, below -0.1 declining.'
  )

export const FaqEntry = z.object({ question: z.string(), answer: z.string(), ...Grounded })
export const PullQuote = z.object({ text: z.string(), review_id: ReviewId, author: z.string() })
export const OverallSentiment = z.object({
  score: Score,
  positive_pct: Percent,
  neutral_pct: Percent.describe('Neutral and mixed reviews.'),
  negative_pct: Percent
})

export const InsightsDocument = z
  .object({
    version: z.int().describe('Schema version of this document.'),
    generated_at: Timestamp.describe('When the reviews these insights were computed from last changed.'),
    model: z.string().describe('Analysis engine and version; computed locally, deterministic.'),
    review_count: z.int(),
    date_range: z.object({ earliest: IsoDate.nullable(), latest: IsoDate.nullable() }),
    overall_sentiment: OverallSentiment,
    aspects: z.array(AspectInsight),
    entities: z.object({
      technicians: z.array(PersonInsight),
      services: z.array(ServiceInsight),
      service_areas: z.array(z.object({ name: z.string(), mention_count: z.int(), review_ids: Ids }))
    }),
    topics: z.array(
      z.object({
        id: Slug,
        label: z.string(),
        keywords: z.array(z.string()),
        review_count: z.int(),
        score: Score,
        example_review_ids: Ids
      })
    ),
    temporal: z.object({
      monthly: z.array(z.object({ month: z.string().regex(/^\d{4}-\d\d$/), review_count: z.int(), avg_rating: z.number(), score: Score })),
      trend: Trend
    }),
    per_review: z.record(ReviewId, ReviewAnalysis),
    faq: z.array(FaqEntry),
    summary: z.string().describe('Editorial summary; every claim cites review ids in brackets.'),
    pull_quote: PullQuote.nullable()
  })
  .meta({ id: 'InsightsDocument' })
export type InsightsDocument = z.output<typeof InsightsDocument>
