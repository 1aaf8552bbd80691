import {
  AspectLookup,
  parseOrThrow,
  ReviewLookup,
  ServiceError,
  ServiceLookup,
  SincePageParams,
  TechnicianLookup,
  type AspectResult,
  type BusinessResult,
  type FaqResult,
  type InsightsSummaryResult,
  type Review,
  type ServiceResult,
  type SincePageResult,
  type TechnicianResult
} from '../domain/index.js'
import type { Snapshot } from '../snapshot/index.js'
import { reviewsSince } from './since.js'

/**
 * Lookups over one snapshot, for the MCP tools (and any other edge). Each validates its input with the domain schema
 * and throws a ServiceError (invalid_request or not_found) that names what would have worked.
 */
const RECENT = 5

const freshness = (s: Snapshot) => ({ updated_at: s.changedAt.toISOString() })

export function businessInfo(s: Snapshot): BusinessResult {
  return { business: s.business, aggregate_rating: s.aggregate, ...freshness(s) }
}

export function reviewsSincePage(s: Snapshot, input: unknown): SincePageResult {
  const { date, limit, offset } = parseOrThrow(SincePageParams, input, 'The arguments are invalid.')
  const { since, positions } = reviewsSince(s.index, { date })
  const page = positions.slice(offset, offset + limit)
  const end = offset + page.length
  return {
    since,
    count: positions.length,
    returned: page.length,
    offset,
    next_offset: end < positions.length ? end : null,
    reviews: page.map((i) => s.index.reviews[i]!)
  }
}

export function reviewById(s: Snapshot, input: unknown): Review {
  const { id } = parseOrThrow(ReviewLookup, input, 'The arguments are invalid.')
  const position = s.index.byId.get(id)
  if (position === undefined) throw new ServiceError('not_found', `No published review has the id "${id}".`)
  return s.index.reviews[position]!
}

export function aspectSentiment(s: Snapshot, input: unknown): AspectResult {
  const { aspect } = parseOrThrow(AspectLookup, input, 'The arguments are invalid.')
  const wanted = aspect.toLowerCase()
  const found = s.insights.aspects.find((a) => a.id === wanted || a.label.toLowerCase() === wanted)
  if (!found) {
    const known = s.insights.aspects.map((a) => `${a.id} (${a.label})`).join(', ')
    throw new ServiceError('not_found', `No aspect is called "${aspect}". Aspects: ${known}.`)
  }
  const examples = found.example_review_ids.slice(0, RECENT).flatMap((id) => {
    const judged = s.insights.per_review[id]?.aspects.find((a) => a.id === found.id)
    const review = s.index.reviews[s.index.byId.get(id) ?? -1]
    return judged && review ? [{ review_id: id, date: review.date, rating: review.rating, sentiment: judged.sentiment, phrases: judged.phrases }] : []
  })
  return { aspect: found, examples, ...freshness(s) }
}

export function technicianInsight(s: Snapshot, input: unknown): TechnicianResult {
  const { name } = parseOrThrow(TechnicianLookup, input, 'The arguments are invalid.')
  const canonical = s.index.mentions.resolveTechnician(name)
  const technician = s.business.technicians.find((t) => t.name === canonical)
  const insight = s.insights.entities.technicians.find((t) => t.name === canonical)
  if (!technician || !insight) {
    const known = s.business.technicians.map((t) => t.name).join(', ') || 'none listed'
    throw new ServiceError('not_found', `"${name}" names no staff member (or more than one). Staff: ${known}.`)
  }
  return { technician, insight, recent_reviews: recent(s, s.index.byTechnician.get(technician.name)), ...freshness(s) }
}

export function serviceInsight(s: Snapshot, input: unknown): ServiceResult {
  const { service: value } = parseOrThrow(ServiceLookup, input, 'The arguments are invalid.')
  const id = s.index.mentions.resolveService(value)
  const service = s.business.services.find((x) => x.id === id)
  const insight = s.insights.entities.services.find((x) => x.id === id)
  if (!service || !insight) {
    const known = s.business.services.map((x) => `${x.id} (${x.name})`).join(', ') || 'none listed'
    throw new ServiceError('not_found', `"${value}" names no service. Services: ${known}.`)
  }
  return { service, insight, recent_reviews: recent(s, s.index.byService.get(service.id)), ...freshness(s) }
}

export function faqAnswers(s: Snapshot): FaqResult {
  return { faq: s.insights.faq, ...freshness(s) }
}

export function insightsSummary(s: Snapshot): InsightsSummaryResult {
  const i = s.insights
  return {
    summary: i.summary,
    pull_quote: i.pull_quote,
    review_count: i.review_count,
    date_range: i.date_range,
    overall_sentiment: i.overall_sentiment,
    trend: i.temporal.trend,
    aspects: [...i.aspects]
      .sort((a, b) => b.mention_count - a.mention_count)
      .map(({ id, label, mention_count, positive_pct, score }) => ({ id, label, mention_count, positive_pct, score })),
    model: i.model,
    ...freshness(s)
  }
}

/** Posting lists are newest first, so the first positions are the most recent reviews. */
function recent(s: Snapshot, positions: readonly number[] | undefined): Review[] {
  return (positions ?? []).slice(0, RECENT).map((i) => s.index.reviews[i]!)
}
