/** HTTP: the Fastify app. Every body comes from the current snapshot or from a cache keyed by it. */
import Fastify, { type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { Urls } from '../config/index.js'
import type { McpEndpoint } from '../mcp/index.js'
import type { Hub, HubSettings } from '../websub/index.js'
import { COMMON_HEADERS, represent, type SnapshotHolder } from '../snapshot/index.js'
import type { HttpContext } from './context.js'
import { installErrorHandling } from './errors.js'
import { buildOpenApi } from './openapi.js'
import { ResponseCache } from './response-cache.js'
import { RouteTable } from './route-table.js'
import { datasetRoutes, staticRoute } from './routes/datasets.js'
import { mcpRoutes } from './routes/mcp.js'
import { pageRoutes } from './routes/pages.js'
import { discoveryRoutes } from './routes/discovery.js'
import { reviewRoutes } from './routes/reviews.js'
import { developerDocsRoutes } from './routes/developer-docs.js'
import { websubRoutes, type HubLimits } from './routes/websub.js'

export interface HttpOptions {
  holder: SnapshotHolder
  urls: Urls
  logger: Logger
  mcp: McpEndpoint
  hub: Hub
  /** The hub's settings: its HTTP limits, and the rest for the developer guide to state. */
  hubLimits: HubLimits & HubSettings
}

export async function buildHttpApp(o: HttpOptions): Promise<FastifyInstance> {
  // A per-request child logger costs about a third of the 304 throughput, so Fastify gets the logger (and logs
  // every request) only at LOG_LEVEL debug or trace; errors are logged either way.
  const requestLogs = o.logger.isLevelEnabled('debug')
  const app = Fastify({
    ...(requestLogs ? { loggerInstance: o.logger } : { logger: false }),
    routerOptions: { maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    return503OnClosing: true
  }) as unknown as FastifyInstance
  const ctx: HttpContext = { app, holder: o.holder, urls: o.urls, cache: new ResponseCache(), routes: new RouteTable() }
  o.holder.onSwap(() => ctx.cache.clear())
  installErrorHandling(app, o.logger, (url) => ctx.routes.allowed(url))
  datasetRoutes(ctx)
  reviewRoutes(ctx)
  developerDocsRoutes(ctx, o.hubLimits)
  discoveryRoutes(ctx)
  pageRoutes(ctx)
  mcpRoutes(ctx, o.mcp)
  await websubRoutes(ctx, o.hub, o.hubLimits)
  staticRoute(ctx, '/openapi.json', await represent(JSON.stringify(buildOpenApi(o.urls)), { contentType: 'application/json; charset=utf-8', lastModified: startedAt() }))
  preflight(ctx)
  return app
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

/** The OpenAPI document changes only with the code, so the process start is its modification time (to the second). */
function startedAt(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000)
}

export { buildOpenApi } from './openapi.js'
