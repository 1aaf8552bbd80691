import { create } from 'xmlbuilder2'
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js'
import type { Urls } from '../config/index.js'
import type { Business } from '../domain/index.js'
import type { FeedEntry } from './feed-entry.js'

const ATOM = 'http://www.w3.org/2005/Atom'

/** RFC 4287 feed. Review text is user content: xmlbuilder2 escapes it and drops characters XML 1.0 forbids. */
export function buildAtomFeed(business: Business, entries: readonly FeedEntry[], urls: Urls, updated: string, language?: string): string {
  const doc = create({ version: '1.0', encoding: 'utf-8', invalidCharReplacement: '' })
  const feed = doc.ele(ATOM, 'feed', language ? { 'xml:lang': language } : {})
  feed.ele('id').txt(urls.feedAtom)
  feed.ele('title', { type: 'text' }).txt(`${business.name}: reviews`)
  feed.ele('subtitle', { type: 'text' }).txt(`The ${entries.length} newest verified customer reviews of ${business.name}.`)
  feed.ele('updated').txt(updated)
  person(feed, business.name, business.url)
  feed.ele('link', { rel: 'self', type: 'application/atom+xml', href: urls.feedAtom })
  feed.ele('link', { rel: 'hub', href: urls.hub })
  feed.ele('link', { rel: 'alternate', type: 'text/html', href: `${urls.base}/` })
  feed.ele('link', { rel: 'alternate', type: 'application/feed+json', href: urls.feedJson })
  feed.ele('generator', { version: '1.0.0' }).txt('Reviews Service')
  for (const e of entries) entry(feed, e)
  return doc.end({ prettyPrint: false })
}

function entry(feed: XMLBuilder, e: FeedEntry): void {
  const el = feed.ele('entry')
  el.ele('id').txt(e.permalink)
  el.ele('title', { type: 'text' }).txt(e.title)
  el.ele('published').txt(e.published)
  el.ele('updated').txt(e.updated)
  person(el, e.review.author, null)
  el.ele('link', { rel: 'alternate', type: 'text/html', href: e.permalink })
  for (const tag of e.tags) el.ele('category', { term: tag })
  el.ele('content', { type: 'text' }).txt(e.text)
}

function person(parent: XMLBuilder, name: string, uri: string | null): void {
  const el = parent.ele('author')
  el.ele('name').txt(name)
  if (uri) el.ele('uri').txt(uri)
}
