import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type Resource
} from '@modelcontextprotocol/sdk/types.js'
import type { Urls } from '../config/index.js'
import type { Representation, Snapshot } from '../snapshot/index.js'
import { onRequest } from './handlers.js'

/** -32002, as resources.mdx asks for an unknown resource (the SDK has no constant for it). */
const RESOURCE_NOT_FOUND = -32002

interface Dataset {
  uri: string
  name: string
  title: string
  description: string
  pick(s: Snapshot): Representation
}

/** The published documents, each under its public URL, so a model can cite what it read. */
export function datasets(urls: Urls): Dataset[] {
  return [
    {
      uri: urls.reviews,
      name: 'reviews.json',
      title: 'All verified reviews',
      description: 'The business, its aggregate rating and every verified review, newest first.',
      pick: (s) => s.resources.reviews
    },
    {
      uri: urls.insights,
      name: 'insights.json',
      title: 'Insights from the reviews',
      description: 'Aspect sentiment, staff, services, topics, monthly trend, FAQ and summary, computed from the review text.',
      pick: (s) => s.resources.insights
    },
    {
      uri: urls.feedJson,
      name: 'feed.json',
      title: 'Newest reviews (JSON Feed)',
      description: 'JSON Feed 1.1 of the 50 newest reviews.',
      pick: (s) => s.resources.feedJson
    },
    {
      uri: urls.feedAtom,
      name: 'feed.xml',
      title: 'Newest reviews (Atom)',
      description: 'Atom feed of the 50 newest reviews.',
      pick: (s) => s.resources.feedAtom
    }
  ]
}

export interface ResourceScope {
  urls: Urls
  current(): Snapshot
  /** Records a subscription of this session (kept in the store, so any node can notify it). */
  subscribe(uri: string): Promise<void>
  unsubscribe(uri: string): Promise<void>
}

export function registerResources(server: Server, scope: ResourceScope): void {
  const sets = datasets(scope.urls)
  const byUri = new Map(sets.map((d) => [d.uri, d]))
  onRequest(server, ListResourcesRequestSchema, () => ({ resources: sets.map((d) => listed(d, scope.current())) }))
  onRequest(server, ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: `${scope.urls.base}/reviews/{id}`,
        name: 'review',
        title: 'One review',
        description: 'One verified review by id (the ids that insights, FAQ answers and search results cite).',
        mimeType: 'application/json'
      }
    ]
  }))
  onRequest(server, ReadResourceRequestSchema, ({ params: { uri } }) => {
    const s = scope.current()
    const set = byUri.get(uri)
    const text = set ? set.pick(s).variants.identity.body.toString('utf8') : reviewJson(s, scope.urls, uri)
    if (text === undefined) throw notFound(uri)
    return { contents: [{ uri, mimeType: set ? mimeType(set.pick(s)) : 'application/json', text }] }
  })
  onRequest(server, SubscribeRequestSchema, async ({ params: { uri } }) => {
    if (!byUri.has(uri) && reviewJson(scope.current(), scope.urls, uri) === undefined) throw notFound(uri)
    await scope.subscribe(uri)
    return {}
  })
  onRequest(server, UnsubscribeRequestSchema, async ({ params: { uri } }) => {
    await scope.unsubscribe(uri)
    return {}
  })
}

/** The subscribed URIs whose content differs between two snapshots. */
export function changedUris(subscribed: Iterable<string>, urls: Urls, next: Snapshot, previous: Snapshot): string[] {
  const sets = new Map(datasets(urls).map((d) => [d.uri, d]))
  return [...subscribed].filter((uri) => {
    const set = sets.get(uri)
    if (set) return set.pick(next).variants.identity.etag !== set.pick(previous).variants.identity.etag
    return reviewJson(next, urls, uri) !== reviewJson(previous, urls, uri)
  })
}

function listed(d: Dataset, s: Snapshot): Resource {
  const rep = d.pick(s)
  return {
    uri: d.uri,
    name: d.name,
    title: d.title,
    description: d.description,
    mimeType: mimeType(rep),
    size: rep.variants.identity.body.length,
    annotations: { audience: ['assistant', 'user'], lastModified: s.changedAt.toISOString() }
  }
}

function mimeType(rep: Representation): string {
  return rep.variants.identity.headers['content-type']!.split(';')[0]!
}

/** The JSON of the review a `<base>/reviews/<id>` URI names, or undefined. */
function reviewJson(s: Snapshot, urls: Urls, uri: string): string | undefined {
  const prefix = `${urls.base}/reviews/`
  if (!uri.startsWith(prefix)) return undefined
  let id: string
  try {
    id = decodeURIComponent(uri.slice(prefix.length))
  } catch {
    return undefined
  }
  const position = s.index.byId.get(id)
  return position === undefined ? undefined : s.index.json[position]
}

function notFound(uri: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND as ErrorCode, `No resource has the URI ${uri}.`, { uri })
}
