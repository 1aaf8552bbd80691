import type { FastifyInstance, RouteHandlerMethod } from 'fastify'
import type { Urls } from '../config/index.js'
import type { SnapshotHolder } from '../snapshot/index.js'
import type { ResponseCache } from './response-cache.js'
import type { RouteTable } from './route-table.js'

export interface HttpContext {
  app: FastifyInstance
  holder: SnapshotHolder
  urls: Urls
  cache: ResponseCache
  routes: RouteTable
}

/** Registers a GET (and so HEAD) route and records it for 405 answers and CORS preflight. */
export function getRoute(ctx: HttpContext, url: string, handler: RouteHandlerMethod): void {
  ctx.routes.add(url, ['GET', 'OPTIONS'])
  ctx.app.get(url, handler)
}
