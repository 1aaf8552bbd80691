import type { AggregateRating, Business, InsightsDocument, Review } from '../domain/index.js'
import type { MentionIndex } from '../mentions/index.js'
import { aspectStats } from './aggregate/aspects.js'
import { entities } from './aggregate/entities.js'
import { faq } from './aggregate/faq.js'
import { mean, pct, round3 } from './aggregate/numbers.js'
import { pullQuote, summary } from './aggregate/summary.js'
import { temporal } from './aggregate/temporal.js'
import { topics } from './aggregate/topics.js'
import { analyzeOnAllCores } from './analysis-pool.js'
import { analyzeReview, type AnalysisContext, type ReviewWork } from './analyze.js'
import { analysisContext } from './context.js'

export const INSIGHTS_VERSION = 1
export const MODEL = 'reviews-service-absa/1'

/**
 * Computes insights.json for one business. Each review is analysed once per version of it (id + updated_at) and the
 * result kept, so a new review costs one analysis plus the aggregation. Deterministic: same reviews, same output.
 */
export class InsightsEngine {
  private readonly ctx: AnalysisContext
  private cache = new Map<string, { updatedAt: string; work: ReviewWork }>()

  constructor(
    readonly business: Business,
    mentions: MentionIndex
  ) {
    this.ctx = analysisContext(business, mentions)
  }

  /**
   * Analyses, on every core, the reviews not analysed yet, so that compute() finds them all done: what a first build
   * of many reviews costs is then shared among the cores. compute() alone gives the same document, on one core.
   */
  async prepare(reviews: readonly Review[]): Promise<void> {
    const missing = reviews.filter((r) => this.cache.get(r.id)?.updatedAt !== r.updated_at)
    const works = await analyzeOnAllCores(this.business, missing, (r) => analyzeReview(r, this.ctx))
    missing.forEach((r, i) => this.cache.set(r.id, { updatedAt: r.updated_at, work: works[i]! }))
  }

  /** `reviews` newest first, as published; `generatedAt` is when they last changed. */
  compute(reviews: readonly Review[], rating: AggregateRating, generatedAt: string): InsightsDocument {
    const works = reviews.map((r) => this.work(r))
    // Kept in place; rebuilt only when reviews went away, so one new review does not copy 100,000 entries.
    if (this.cache.size > reviews.length) this.cache = new Map(reviews.map((r, i) => [r.id, { updatedAt: r.updated_at, work: works[i]! }]))
    const taxonomy = this.ctx.taxonomy.source
    const stats = aspectStats(taxonomy.aspects, works)
    const people = entities(this.business, works)
    const time = temporal(works)
    const label = (l: string) => works.filter((w) => w.analysis.sentiment.label === l).length
    const { earliest, latest } = dateRange(works)
    return {
      version: INSIGHTS_VERSION,
      generated_at: generatedAt,
      model: MODEL,
      review_count: works.length,
      date_range: { earliest, latest },
      overall_sentiment: {
        score: round3(mean(works.map((w) => w.analysis.sentiment.score))),
        positive_pct: pct(label('positive'), works.length),
        neutral_pct: pct(label('neutral') + label('mixed'), works.length),
        negative_pct: pct(label('negative'), works.length)
      },
      aspects: stats.map((s) => s.insight),
      entities: people,
      topics: topics(works, taxonomy.aspects),
      temporal: time,
      per_review: Object.fromEntries(works.map((w) => [w.id, w.analysis])),
      faq: faq(taxonomy, stats, this.business, people, works),
      summary: summary(this.business, rating, works, stats, people, time.trend),
      pull_quote: pullQuote(works)
    }
  }

  private work(review: Review): ReviewWork {
    const hit = this.cache.get(review.id)
    if (hit && hit.updatedAt === review.updated_at) return hit.work
    const work = analyzeReview(review, this.ctx)
    this.cache.set(review.id, { updatedAt: review.updated_at, work })
    return work
  }
}

function dateRange(works: readonly ReviewWork[]): { earliest: string | null; latest: string | null } {
  let earliest: string | null = null
  let latest: string | null = null
  for (const { date } of works) {
    if (earliest === null || date < earliest) earliest = date
    if (latest === null || date > latest) latest = date
  }
  return { earliest, latest }
}
