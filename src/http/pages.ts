import { createHash } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { Urls } from '../config/index.js'
import { PAGE_STYLES, type SiteData } from '../pages/index.js'
import { representComputed, type Representation, type Snapshot } from '../snapshot/index.js'
import type { HttpContext } from './context.js'
import { pathRoute, representationRoute } from './send.js'

export const HTML = 'text/html; charset=utf-8'

export interface PolicyOptions {
  /** The inline style sheets the page may use (default: the site's own). */
  styles?: readonly string[]
  /** Who may show the page in a frame (default: nobody). */
  frameAncestors?: string
  /** What the page may show in a frame of its own (default: nothing). */
  frameSrc?: string
}

/**
 * Pages load nothing from elsewhere and run no script: the only style is the inline sheet (allowed by its hash),
 * images are inline SVG or this site's. A page that needs more (the API reference, the embeddable widget, the guide
 * with its live preview of the widget) passes its own policy.
 */
export function pagePolicy(o: PolicyOptions = {}): string {
  return [
    "default-src 'none'",
    `style-src ${(o.styles ?? [PAGE_STYLES]).map(styleHash).join(' ')}`,
    "img-src 'self' data:",
    ...(o.frameSrc ? [`frame-src ${o.frameSrc}`] : []),
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${o.frameAncestors ?? "'none'"}`
  ].join('; ')
}

export function styleHash(css: string): string {
  return `'sha256-${createHash('sha256').update(css).digest('base64')}'`
}

export const PAGE_CSP = pagePolicy()

const siteCache = new WeakMap<Snapshot, SiteData>()

/** The page-facing view of a snapshot, made once per snapshot. */
export function siteData(snap: Snapshot, urls: Urls): SiteData {
  let site = siteCache.get(snap)
  if (!site) {
    site = {
      version: snap.version,
      changedAt: snap.changedAt,
      business: snap.business,
      aggregate: snap.aggregate,
      insights: snap.insights,
      reviews: snap.index.reviews,
      positionOf: snap.index.byId,
      urls
    }
    siteCache.set(snap, site)
  }
  return site
}

export interface PageOptions {
  /** Extra response headers (Link, a page's own Content-Security-Policy). */
  headers?: Record<string, string>
  contentType?: string
  vary?: string
}

export function pageRepresentation(snap: Snapshot, body: string, o: PageOptions = {}): Representation {
  const contentType = o.contentType ?? HTML
  const security: Record<string, string> = contentType === HTML ? { 'content-security-policy': PAGE_CSP, 'referrer-policy': 'strict-origin-when-cross-origin' } : {}
  return representComputed(body, { contentType, lastModified: snap.changedAt, headers: { ...security, ...o.headers }, vary: o.vary })
}

export interface PageSpec {
  /** The cache key of the request's page; may throw a ServiceError (400) for a bad parameter. */
  key: (req: FastifyRequest) => string
  /** Renders the page; may throw a ServiceError (404 for a page past the end). */
  render: (site: SiteData, req: FastifyRequest) => string
}

/**
 * A page that depends on its path alone, rendered from the current snapshot on its first request and served from the
 * cache until the data changes.
 */
export function pageRoute(ctx: HttpContext, url: string, render: (site: SiteData) => string, o: PageOptions = {}): void {
  pathRoute(ctx, url, () => {
    const snap = ctx.holder.current
    return ctx.cache.getOrBuild(`page:${snap.version}:${url}`, () => pageRepresentation(snap, render(siteData(snap, ctx.urls)), o))
  })
}

/** A page that depends on the request's parameters too (a page number, a file number), cached per key likewise. */
export function keyedPageRoute(ctx: HttpContext, url: string, spec: PageSpec, o: PageOptions = {}): void {
  representationRoute(ctx, url, (req: FastifyRequest) => {
    const snap = ctx.holder.current
    return ctx.cache.getOrBuild(`page:${snap.version}:${spec.key(req)}`, () => pageRepresentation(snap, spec.render(siteData(snap, ctx.urls), req), o))
  })
}
