/** HTTP: the Fastify app. Every body comes from the current snapshot or from a cache keyed by it. */
import type { RequestListener, Server } from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { Urls } from '../config/index.js'
import type { McpEndpoint } from '../mcp/index.js'
import type { Hub, HubSettings } from '../websub/index.js'
import { COMMON_HEADERS, represent, type SnapshotHolder } from '../snapshot/index.js'
import type { RateStore } from '../store/index.js'
import { staticSince, type HttpContext } from './context.js'
import { observeRequests, type RequestObserver } from './request-log.js'
import { installErrorHandling } from './errors.js'
import type { PathRoute } from './fast-path.js'
import { buildOpenApi } from './openapi.js'
import { ResponseCache } from './response-cache.js'
import { RouteTable } from './route-table.js'
import { datasetRoutes, staticRoute } from './routes/datasets.js'
import { mcpRoutes } from './routes/mcp.js'
import { pageRoutes } from './routes/pages.js'
import { discoveryRoutes } from './routes/discovery.js'
import { reviewRoutes } from './routes/reviews.js'
import { developerDocsRoutes } from './routes/developer-docs.js'
import { websiteRoutes } from './routes/website.js'
import { websubRoutes, type HubLimits } from './routes/websub.js'

export interface HttpOptions {
  holder: SnapshotHolder
  urls: Urls
  logger: Logger
  mcp: McpEndpoint
  hub: Hub
  /** Sites that may frame the widget (/embed) besides this one; empty: any. */
  embedAllowedOrigins: readonly string[]
  /** The hub's settings: its HTTP limits, and the rest for the developer guide to state. */
  hubLimits: HubLimits & HubSettings
  /** Subscribe-rate windows, shared by every node. */
  rates: RateStore
  /** When the cluster first served a static representation (by the hash of its bytes): its Last-Modified on every node. */
  firstSeen(key: string): Promise<Date>
  /** The server the app answers on: already listening (see FrontDoor). */
  server: Server
  /** Proxies whose X-Forwarded-For gives the client address (addresses or CIDR ranges, or a hop count). */
  trustProxy: string[] | number
  /** At info, one request in this many gets an access line (server errors and slow requests always do). */
  logRequestSample: number
  /** At most this many sampled access lines a second (server errors and slow requests are not limited). */
  logRequestMaxPerSecond: number
  observe?: RequestObserver
}

export interface HttpApp {
  app: FastifyInstance
  /** Fastify's request handler, for the server once the app is ready. */
  handle: RequestListener
  /** The routes that depend on their path alone, for the front door's fast path. */
  byPath: ReadonlyMap<string, PathRoute>
}

export async function buildHttpApp(o: HttpOptions): Promise<HttpApp> {
  let handle: RequestListener | undefined
  // A per-request child logger costs about a third of the 304 throughput, so Fastify gets the logger (and logs
  // every request) only at LOG_LEVEL debug or trace; errors are logged either way.
  const requestLogs = o.logger.isLevelEnabled('debug')
  const app = Fastify({
    ...(requestLogs ? { loggerInstance: o.logger } : { logger: false }),
    routerOptions: { maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    trustProxy: proxyTrust(o.trustProxy),
    // The front door has already validated or made the id and set it on the response (see FrontDoor).
    requestIdHeader: 'x-request-id',
    serverFactory: (handler) => {
      handle = handler as RequestListener
      return o.server
    }
  }) as unknown as FastifyInstance
  // At debug Fastify logs every request itself; below it, a sample.
  const recording = observeRequests(app, { log: o.logger, sample: requestLogs ? 0 : o.logRequestSample, maxPerSecond: o.logRequestMaxPerSecond, observe: o.observe })
  const ctx: HttpContext = { app, holder: o.holder, urls: o.urls, cache: new ResponseCache(), routes: new RouteTable(), firstSeen: o.firstSeen, recorderFor: recording?.recorderFor, byPath: new Map() }
  o.holder.onSwap(() => ctx.cache.clear())
  // Every response carries the id the front door gave the request (Fastify took it from the header as req.id):
  // here those Fastify sends; prebuilt bodies (send.ts) and MCP (routes/mcp.ts), which write their own, add it
  // themselves, so the hot read path runs no hook for it.
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id)
    done(null, payload)
  })
  installErrorHandling(app, o.logger, (url) => ctx.routes.allowed(url), recording?.onUnmatched)
  datasetRoutes(ctx)
  reviewRoutes(ctx)
  developerDocsRoutes(ctx, o.hubLimits, o.embedAllowedOrigins)
  discoveryRoutes(ctx)
  pageRoutes(ctx)
  websiteRoutes(ctx, { embedAllowedOrigins: o.embedAllowedOrigins })
  mcpRoutes(ctx, o.mcp)
  await websubRoutes(ctx, o.hub, { ...o.hubLimits, rates: o.rates })
  const openapi = JSON.stringify(buildOpenApi(o.urls))
  staticRoute(ctx, '/openapi.json', await represent(openapi, { contentType: 'application/json; charset=utf-8', lastModified: await staticSince(ctx, openapi) }))
  preflight(ctx)
  await app.ready()
  // At debug Fastify logs every request, so every request goes through it: the fast path gets no routes.
  return { app, handle: handle!, byPath: requestLogs ? new Map() : ctx.byPath }
}

/** Fastify's trustProxy from ours: nobody (the socket's address is the client's), these addresses, or n hops. */
function proxyTrust(trust: string[] | number): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust
  return trust.length ? trust : false
}

/**
 * CORS preflight for every GET resource: the precondition fields are not CORS-safelisted, and neither are
 * Cache-Control and Pragma when a script sets them itself, so each needs allowing or a cross-origin revalidation fails.
 */
function preflight(ctx: HttpContext): void {
  ctx.app.options('*', (req, reply) => {
    const allowed = ctx.routes.allowed(req.url)
    if (!allowed) return reply.callNotFound()
    return reply
      .code(204)
      .headers({
        ...COMMON_HEADERS,
        allow: allowed.join(', '),
        'access-control-allow-methods': allowed.join(', '),
        'access-control-allow-headers': 'If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since, Cache-Control, Pragma, Accept, Accept-Encoding, Content-Type',
        'access-control-max-age': '86400'
      })
      .send()
  })
}


export { buildOpenApi } from './openapi.js'
export { FrontDoor } from './front-door.js'
