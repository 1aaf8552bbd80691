import type { Urls } from '../config/index.js'
import { Business, type AggregateRating, type InsightsDocument, type Review } from '../domain/index.js'
import { InsightsEngine } from '../insights/index.js'
import { buildMentionIndex, foldText, type MentionIndex } from '../mentions/index.js'
import type { PublishedData, PublishedRecord } from '../store/index.js'
import { buildAtomFeed } from './atom-feed.js'
import { dominantLanguage, feedEntry } from './feed-entry.js'
import { buildJsonFeed } from './json-feed.js'
import { represent, type Representation } from './representation.js'
import { buildSearchIndex, type SearchIndex } from './search-index.js'

export const FEED_SIZE = 50

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  jsonFeed: 'application/feed+json',
  atom: 'application/atom+xml'
} as const

/** One immutable state of the published data, with every body precomputed. Readers never touch the store. */
export interface Snapshot {
  version: number
  changedAt: Date
  business: Business
  aggregate: AggregateRating
  index: SearchIndex
  insights: InsightsDocument
  resources: {
    reviews: Representation
    feedJson: Representation
    feedAtom: Representation
    insights: Representation
  }
  /** Per-review work reused by the next build when neither the review nor the business changed. */
  derived: ReadonlyMap<string, Derived>
  businessKey: string
  /** Keeps each review's analysis, so the next version only analyses what changed. */
  insightsEngine: InsightsEngine
}

interface Derived {
  updatedAt: string
  review: Review
  json: string
  folded: string | null
}

export async function buildSnapshot(stored: PublishedData, urls: Urls, previous?: Snapshot): Promise<Snapshot> {
  // The store keeps canonical (key-sorted) JSON; parsing restores the documented key order.
  const data = { ...stored, business: Business.parse(stored.business) }
  const businessKey = JSON.stringify(data.business)
  const reuse = previous?.businessKey === businessKey ? previous.derived : undefined
  const mentions = buildMentionIndex(data.business)
  const derived = new Map<string, Derived>()
  for (const record of data.reviews) derived.set(record.review.id, reuse?.get(record.review.id)?.updatedAt === record.updatedAt ? reuse.get(record.review.id)! : derive(record, mentions))
  const ordered = [...derived.values()].sort(newestFirst)
  const reviews = ordered.map((d) => d.review)
  const index = buildSearchIndex(reviews, ordered.map((d) => d.json), ordered.map((d) => d.folded), mentions)
  const changedAt = new Date(data.changedAt)
  const aggregate = aggregateRating(reviews)
  const insightsEngine = previous?.businessKey === businessKey ? previous.insightsEngine : new InsightsEngine(data.business, mentions)
  await insightsEngine.prepare(reviews)
  const insights = insightsEngine.compute(reviews, aggregate, data.changedAt)
  return {
    version: data.version,
    changedAt,
    business: data.business,
    aggregate,
    index,
    insights,
    resources: await buildResources(data, index, aggregate, insights, urls, changedAt),
    derived,
    businessKey,
    insightsEngine
  }
}

async function buildResources(
  data: PublishedData,
  index: SearchIndex,
  aggregate: AggregateRating,
  insights: InsightsDocument,
  urls: Urls,
  changedAt: Date
): Promise<Snapshot['resources']> {
  const newest = index.reviews.slice(0, FEED_SIZE).map((r) => feedEntry(r, urls.reviewPermalink(r.id)))
  const language = dominantLanguage(index.reviews)
  const link = (topic: string) => ({ link: `<${urls.hub}>; rel="hub", <${topic}>; rel="self"` })
  const reviewsBody =
    `{"version":"1.0","generated_at":${JSON.stringify(data.changedAt)},"business":${JSON.stringify(data.business)},` +
    `"aggregate_rating":${JSON.stringify(aggregate)},"reviews":[${index.json.join(',')}]}`
  const [reviews, feedJson, feedAtom, insightsRep] = await Promise.all([
    represent(reviewsBody, { contentType: CONTENT_TYPES.json, lastModified: changedAt, headers: link(urls.reviews) }),
    represent(JSON.stringify(buildJsonFeed(data.business, newest, urls, language)), {
      contentType: CONTENT_TYPES.jsonFeed,
      lastModified: changedAt,
      headers: link(urls.feedJson)
    }),
    represent(buildAtomFeed(data.business, newest, urls, changedAt.toISOString(), language), {
      contentType: CONTENT_TYPES.atom,
      lastModified: changedAt,
      headers: link(urls.feedAtom)
    }),
    represent(JSON.stringify(insights), { contentType: CONTENT_TYPES.json, lastModified: changedAt })
  ])
  return { reviews, feedJson, feedAtom, insights: insightsRep }
}

function derive(record: PublishedRecord, mentions: MentionIndex): Derived {
  const r = record.review
  // Built key by key so every record serialises in the documented field order.
  const review: Review = {
    id: r.id,
    author: r.author,
    author_avatar_url: r.author_avatar_url,
    rating: r.rating,
    date: r.date,
    published_at: r.published_at,
    text: r.text,
    source: r.source,
    source_url: r.source_url,
    owner_reply: r.owner_reply ? { text: r.owner_reply.text, date: r.owner_reply.date } : null,
    verified: r.verified,
    language: r.language,
    updated_at: record.updatedAt,
    mentions: mentions.detect(r.text)
  }
  return { updatedAt: record.updatedAt, review, json: JSON.stringify(review), folded: r.text === null ? null : foldText(r.text) }
}

function newestFirst(a: Derived, b: Derived): number {
  const x = a.review
  const y = b.review
  return x.date !== y.date ? (x.date < y.date ? 1 : -1) : x.id < y.id ? 1 : x.id > y.id ? -1 : 0
}

export function aggregateRating(reviews: readonly Review[]): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 }
  let sum = 0
  for (const r of reviews) {
    distribution[String(r.rating) as keyof typeof distribution]++
    sum += r.rating
  }
  return {
    rating_value: reviews.length ? Math.round((sum / reviews.length) * 10) / 10 : null,
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    distribution
  }
}
