import { invalidRequest, SearchParams, ServiceError, toIssues } from '../../domain/index.js'
import { pageJson, reviewsSince, searchReviews, sinceJson } from '../../query/index.js'
import { CONTENT_TYPES, representComputed, type Snapshot } from '../../snapshot/index.js'
import { getRoute, type HttpContext } from '../context.js'
import { queryDecoder } from '../query-decoding.js'
import { sendRepresentation } from '../send.js'

const decodeSearch = queryDecoder(SearchParams)

/** Search, since and single reviews: computed once per snapshot and request, then served like the datasets. */
export function reviewRoutes(ctx: HttpContext): void {
  const json = (snap: Snapshot, body: string) => representComputed(body, { contentType: CONTENT_TYPES.json, lastModified: snap.changedAt })

  getRoute(ctx, '/api/reviews/search', (req, reply) => {
    const snap = ctx.holder.current
    const rep = ctx.cache.getOrBuild(`search:${snap.version}:${queryString(req.url)}`, () =>
      json(snap, pageJson(snap.index, searchReviews(snap.index, searchInput(req.query as Record<string, unknown>))))
    )
    return sendRepresentation(req, reply, rep)
  })

  getRoute(ctx, '/api/reviews/since/:date', (req, reply) => {
    const snap = ctx.holder.current
    const { date } = req.params as { date: string }
    rejectQuery(req.query as Record<string, unknown>)
    const rep = ctx.cache.getOrBuild(`since:${snap.version}:${date}`, () => json(snap, sinceJson(snap.index, reviewsSince(snap.index, { date }))))
    return sendRepresentation(req, reply, rep)
  })

  getRoute(ctx, '/reviews/:id', (req, reply) => {
    const snap = ctx.holder.current
    const { id } = req.params as { id: string }
    const position = snap.index.byId.get(id)
    if (position === undefined) throw new ServiceError('not_found', `No published review has the id "${id}".`)
    return sendRepresentation(req, reply, ctx.cache.getOrBuild(`review:${snap.version}:${id}`, () => json(snap, snap.index.json[position]!)))
  })
}

/** Validates a raw query string; a repeated parameter and every schema problem are reported together. */
function searchInput(query: Record<string, unknown>): Record<string, unknown> {
  const { input, issues } = decodeSearch(query)
  if (issues.length === 0) return input
  const rest = SearchParams.safeParse(input)
  throw invalidRequest([...issues, ...(rest.success ? [] : toIssues(rest.error))], 'The search parameters are invalid.')
}

function rejectQuery(query: Record<string, unknown>): void {
  const unknown = Object.keys(query)
  if (unknown.length) {
    throw invalidRequest(unknown.map((k) => ({ code: 'unrecognized_keys', path: [k], message: `unknown parameter "${k}"` })))
  }
}

function queryString(url: string): string {
  const q = url.indexOf('?')
  return q === -1 ? '' : url.slice(q + 1)
}

