import { SearchParams, SinceParams, type Issue } from '../../domain/index.js'
import { pageJson, reviewsSince, searchReviews, sinceJson } from '../../query/index.js'
import { CONTENT_TYPES, representComputed, type Snapshot } from '../../snapshot/index.js'
import type { HttpContext } from '../context.js'
import { queryDecoder, throwAll } from '../query-decoding.js'
import { representationRoute } from '../send.js'

const decodeSearch = queryDecoder(SearchParams)

/** Search and since: computed once per snapshot and request, then served like the datasets. */
export function reviewRoutes(ctx: HttpContext): void {
  const json = (snap: Snapshot, body: string) => representComputed(body, { contentType: CONTENT_TYPES.json, lastModified: snap.changedAt })

  representationRoute(ctx, '/api/reviews/search', (req) => {
    const snap = ctx.holder.current
    return ctx.cache.getOrBuild(`search:${snap.version}:${queryString(req.url)}`, () =>
      json(snap, pageJson(snap.index, searchReviews(snap.index, searchInput(req.query as Record<string, unknown>))))
    )
  })

  representationRoute(ctx, '/api/reviews/since/:date', (req) => {
    const snap = ctx.holder.current
    const { date } = req.params as { date: string }
    const extra = Object.keys(req.query as object).map((k): Issue => ({ code: 'unrecognized_keys', path: [k], message: `unknown parameter "${k}"` }))
    if (extra.length) throwAll(extra, SinceParams, { date }, 'The date is invalid.')
    return ctx.cache.getOrBuild(`since:${snap.version}:${date}`, () => json(snap, sinceJson(snap.index, reviewsSince(snap.index, { date }))))
  })
}

/** Decodes a raw query string; problems only HTTP has (a repeated parameter) are reported with the schema's own. */
function searchInput(query: Record<string, unknown>): Record<string, unknown> {
  const { input, issues } = decodeSearch(query)
  if (issues.length) throwAll(issues, SearchParams, input, 'The search parameters are invalid.')
  return input
}

function queryString(url: string): string {
  const q = url.indexOf('?')
  return q === -1 ? '' : url.slice(q + 1)
}

