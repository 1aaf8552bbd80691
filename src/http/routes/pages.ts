import type { FastifyRequest } from 'fastify'
import { ReviewsPageParams, ServiceError } from '../../domain/index.js'
import { renderHome, renderReviewPage, renderReviewsPage } from '../../pages/index.js'
import { CONTENT_TYPES, representComputed, type Snapshot } from '../../snapshot/index.js'
import type { HttpContext } from '../context.js'
import { prefersHtml } from '../negotiation.js'
import { keyedPageRoute, pageRepresentation, pageRoute, siteData } from '../pages.js'
import { queryReader } from '../query-decoding.js'
import { representationRoute } from '../send.js'

const listParams = queryReader(ReviewsPageParams, 'The page parameter is invalid.')

/** The human pages: the front page, the paged list of every review, and each review's permalink. */
export function pageRoutes(ctx: HttpContext): void {
  const { urls } = ctx
  pageRoute(
    ctx,
    '/',
    renderHome,
    {
      headers: {
        // RFC 8288 links so an agent finds the API description, the feeds and the hub without parsing HTML.
        link: [
          `<${urls.openapi}>; rel="service-desc"; type="application/json"`,
          `<${urls.feedJson}>; rel="alternate"; type="application/feed+json"`,
          `<${urls.feedAtom}>; rel="alternate"; type="application/atom+xml"`,
          `<${urls.hub}>; rel="hub"`
        ].join(', ')
      }
    }
  )
  keyedPageRoute(ctx, '/reviews', { key: (req) => `reviews:${listPage(req)}`, render: (site, req) => renderReviewsPage(site, listPage(req)) })
  representationRoute(ctx, '/reviews/:id', (req) => {
    const snap = ctx.holder.current
    const { id } = req.params as { id: string }
    const position = snap.index.byId.get(id)
    if (position === undefined) throw new ServiceError('not_found', `No published review has the id "${id}".`)
    const kind = prefersHtml(req) ? 'html' : 'json'
    return ctx.cache.getOrBuild(`review:${snap.version}:${kind}:${id}`, () =>
      kind === 'html' ? pageRepresentation(snap, renderReviewPage(siteData(snap, urls), position), NEGOTIATED) : reviewJson(snap, position)
    )
  })
}

/** A review's permalink answers browsers with its page and everyone else (curl, fetch, agents) with its JSON record. */
const NEGOTIATED = { vary: 'Accept, Accept-Encoding' }

function reviewJson(snap: Snapshot, position: number) {
  return representComputed(snap.index.json[position]!, { contentType: CONTENT_TYPES.json, lastModified: snap.changedAt, ...NEGOTIATED })
}

function listPage(req: FastifyRequest): number {
  return listParams(req).page
}
