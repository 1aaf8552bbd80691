import type { Urls } from '../config/index.js'
import type { Business, JsonFeed, JsonFeedItem } from '../domain/index.js'
import type { FeedEntry } from './feed-entry.js'

export function buildJsonFeed(business: Business, entries: readonly FeedEntry[], urls: Urls, language?: string): JsonFeed {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: `${business.name}: reviews`,
    home_page_url: `${urls.base}/`,
    feed_url: urls.feedJson,
    description: `The ${entries.length} newest verified customer reviews of ${business.name}.`,
    ...(language ? { language } : {}),
    authors: [{ name: business.name, ...(business.url ? { url: business.url } : {}) }],
    hubs: [{ type: 'WebSub', url: urls.hub }],
    items: entries.map(item)
  }
}

function item(e: FeedEntry): JsonFeedItem {
  const r = e.review
  return {
    id: e.permalink,
    url: e.permalink,
    title: e.title,
    content_text: e.text,
    content_html: e.html,
    date_published: e.published,
    date_modified: e.updated,
    authors: [{ name: r.author, ...(r.author_avatar_url ? { avatar: r.author_avatar_url } : {}) }],
    ...(e.tags.length ? { tags: e.tags } : {}),
    ...(r.language ? { language: r.language } : {}),
    _review: {
      rating: r.rating,
      source: r.source,
      source_url: r.source_url,
      verified: r.verified,
      owner_reply: r.owner_reply,
      mentions: r.mentions
    }
  }
}
