import type { Review } from '../domain/index.js'
import { paragraphs, escapeHtml } from './escape.js'

/** What both feeds say about one review, derived once so JSON Feed and Atom never disagree. */
export interface FeedEntry {
  review: Review
  permalink: string
  title: string
  text: string
  html: string
  published: string
  updated: string
  tags: string[]
}

export function feedEntry(review: Review, permalink: string): FeedEntry {
  const reply = review.owner_reply
  const body = review.text ?? `Rated ${review.rating} out of 5 stars, without a written review.`
  return {
    review,
    permalink,
    title: `${review.rating}-star review by ${review.author}`,
    text: reply ? `${body}\n\nReply from the owner (${reply.date}):\n${reply.text}` : body,
    html:
      paragraphs(body) +
      (reply ? `<blockquote><p><strong>Reply from the owner</strong> (${escapeHtml(reply.date)})</p>${paragraphs(reply.text)}</blockquote>` : ''),
    // A review without a time of day is dated at midnight UTC of its day.
    published: review.published_at ?? `${review.date}T00:00:00Z`,
    updated: review.updated_at,
    tags: [...review.mentions.technicians, ...review.mentions.services]
  }
}

/** The feed's language: the most common review language, if any review states one. */
export function dominantLanguage(reviews: readonly Review[]): string | undefined {
  const counts = new Map<string, number>()
  for (const r of reviews) if (r.language) counts.set(r.language, (counts.get(r.language) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0]
}
