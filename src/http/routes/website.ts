import { BadgeParams, EmbedParams, ServiceError } from '../../domain/index.js'
import { BADGE_AUTO_STYLE, EMBED_STYLES, PAGE_STYLES, PATHS, renderBadge, renderEmbed } from '../../pages/index.js'
import { representComputed, type Snapshot } from '../../snapshot/index.js'
import { getRoute, type HttpContext } from '../context.js'
import { sendError } from '../errors.js'
import { pagePolicy, pageRepresentation, siteData, styleHash } from '../pages.js'
import { queryReader } from '../query-decoding.js'
import { representationRoute, sendRepresentation } from '../send.js'

export const SVG = 'image/svg+xml'

/** Opened on its own, the badge may use its one style sheet and nothing else (it has no script to run anyway). */
const BADGE_CSP = `default-src 'none'; style-src ${styleHash(BADGE_AUTO_STYLE)}`

/**
 * What the business puts on its own site: the rating badge and the embeddable widget. Both are made once per data
 * version and set of parameters and served like every page (ETag, Last-Modified, 304, compression); bad parameters
 * are a 400 that lists every problem, as the search API's are.
 */
export function websiteRoutes(ctx: HttpContext, o: { embedAllowedOrigins: readonly string[] }): void {
  const embedCsp = embedPolicy(o.embedAllowedOrigins)
  const badgeParams = queryReader(BadgeParams, 'The badge parameters are invalid.')
  const embedParams = queryReader(EmbedParams, 'The widget parameters are invalid.')

  representationRoute(ctx, PATHS.badge, (req) => {
    const snap = ctx.holder.current
    const { theme } = badgeParams(req)
    return ctx.cache.getOrBuild(`badge:${snap.version}:${theme}`, () =>
      representComputed(renderBadge(siteData(snap, ctx.urls), theme), { contentType: SVG, lastModified: snap.changedAt, headers: { 'content-security-policy': BADGE_CSP } })
    )
  })

  getRoute(ctx, PATHS.embed, (req, reply) => {
    const snap = ctx.holder.current
    let params: EmbedParams
    try {
      params = embedParams(req)
    } catch (err) {
      // Shown in the frame the snippet made, so whoever pasted it sees what to fix rather than a refused frame.
      if (err instanceof ServiceError) return sendError(reply, err, { 'content-security-policy': embedCsp })
      throw err
    }
    const rep = ctx.cache.getOrBuild(`embed:${snap.version}:${params.limit}:${params.min_rating}:${params.theme}`, () => embedRepresentation(ctx, snap, params, embedCsp))
    return sendRepresentation(req, reply, rep)
  })
}

function embedRepresentation(ctx: HttpContext, snap: Snapshot, params: EmbedParams, csp: string) {
  return pageRepresentation(snap, renderEmbed(siteData(snap, ctx.urls), params), { headers: { 'content-security-policy': csp } })
}

/**
 * The widget's policy: its own style sheet (and the error page's), no script, and frames on the sites allowed
 * (EMBED_ALLOWED_ORIGINS and this one), or on any site when none is set: the data is public and the page has no
 * actions, so there is nothing to trick anyone into clicking.
 */
export function embedPolicy(allowed: readonly string[]): string {
  return pagePolicy({ styles: [EMBED_STYLES, PAGE_STYLES], frameAncestors: allowed.length ? `'self' ${allowed.join(' ')}` : '*' })
}
