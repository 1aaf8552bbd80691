import { invalidRequest, SearchParams, ServiceError, toIssues } from '../../domain/index.js'
import { pageJson, reviewsSince, searchReviews, sinceJson } from '../../query/index.js'
import { CONTENT_TYPES, represent, type Snapshot } from '../../snapshot/index.js'
import { getRoute, type HttpContext } from '../context.js'
import { queryDecoder } from '../query-decoding.js'
import { sendRepresentation } from '../send.js'

const decodeSearch = queryDecoder(SearchParams)

/** Search, since and single reviews: computed once per snapshot and request, then served like the datasets. */
export function reviewRoutes(ctx: HttpContext): void {
  const json = (snap: Snapshot, body: string) => represent(body, { contentType: CONTENT_TYPES.json, lastModified: snap.changedAt, compression: 'fast' })

  getRoute(ctx, '/api/reviews/search', async (req, reply) => {
    const snap = ctx.holder.current
    const rep = await ctx.cache.compute(`search:${snap.version}:${queryString(req.url)}`, async () => {
      const input = searchInput(req.query as Record<string, unknown>)
      return json(snap, pageJson(snap.index, searchReviews(snap.index, input)))
    })
    return sendRepresentation(req, reply, rep)
  })

  getRoute(ctx, '/api/reviews/since/:date', async (req, reply) => {
    const snap = ctx.holder.current
    const { date } = req.params as { date: string }
    rejectQuery(req.query as Record<string, unknown>)
    const rep = await ctx.cache.compute(`since:${snap.version}:${date}`, async () => json(snap, sinceJson(snap.index, reviewsSince(snap.index, { date }))))
    return sendRepresentation(req, reply, rep)
  })

  getRoute(ctx, '/reviews/:id', async (req, reply) => {
    const snap = ctx.holder.current
    const { id } = req.params as { id: string }
    const position = snap.index.byId.get(id)
    if (position === undefined) throw new ServiceError('not_found', `No published review has the id "${id}".`)
    const rep = await ctx.cache.compute(`review:${snap.version}:${id}`, async () => json(snap, snap.index.json[position]!))
    return sendRepresentation(req, reply, rep)
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

