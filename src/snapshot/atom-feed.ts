import type { Urls } from '../config/index.js'
import type { Business } from '../domain/index.js'
import type { FeedEntry } from './feed-entry.js'
import { container, element } from '../xml/index.js'

const ATOM = 'http://www.w3.org/2005/Atom'

/** RFC 4287 feed of the newest reviews; review text goes out as type="text", escaped. */
export function buildAtomFeed(business: Business, entries: readonly FeedEntry[], urls: Urls, updated: string, language?: string): string {
  const head = [
    element('id', {}, urls.feedAtom),
    element('title', { type: 'text' }, `${business.name}: reviews`),
    element('subtitle', { type: 'text' }, `The ${entries.length} newest verified customer reviews of ${business.name}.`),
    element('updated', {}, updated),
    person(business.name, business.url),
    element('link', { rel: 'self', type: 'application/atom+xml', href: urls.feedAtom }),
    element('link', { rel: 'hub', href: urls.hub }),
    element('link', { rel: 'alternate', type: 'text/html', href: `${urls.base}/` }),
    element('link', { rel: 'alternate', type: 'application/feed+json', href: urls.feedJson }),
    element('generator', { version: '1.0.0' }, 'Reviews Service')
  ]
  const attrs: Record<string, string> = language ? { xmlns: ATOM, 'xml:lang': language } : { xmlns: ATOM }
  return `<?xml version="1.0" encoding="utf-8"?>\n${container('feed', attrs, [...head, ...entries.map(entry)])}\n`
}

function entry(e: FeedEntry): string {
  return container('entry', {}, [
    element('id', {}, e.permalink),
    element('title', { type: 'text' }, e.title),
    element('published', {}, e.published),
    element('updated', {}, e.updated),
    person(e.review.author, null),
    element('link', { rel: 'alternate', type: 'text/html', href: e.permalink }),
    ...e.tags.map((term) => element('category', { term })),
    element('content', { type: 'text' }, e.text)
  ])
}

function person(name: string, uri: string | null): string {
  return container('author', {}, [element('name', {}, name), ...(uri ? [element('uri', {}, uri)] : [])])
}
