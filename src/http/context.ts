import { createHash } from 'node:crypto'
import type { FastifyInstance, RouteHandlerMethod, RouteShorthandOptions } from 'fastify'
import type { Urls } from '../config/index.js'
import type { SnapshotHolder } from '../snapshot/index.js'
import type { PathRoute } from './fast-path.js'
import type { RouteRecorder } from './request-log.js'
import type { ResponseCache } from './response-cache.js'
import type { RouteTable } from './route-table.js'

export interface HttpContext {
  app: FastifyInstance
  holder: SnapshotHolder
  urls: Urls
  cache: ResponseCache
  routes: RouteTable
  firstSeen(key: string): Promise<Date>
  /** For routes that record their own answers (see request-log.ts); absent when nothing is recorded. */
  recorderFor?: (route: string) => RouteRecorder
  /** The routes that answer by path alone, for the fast path (see pathRoute). */
  byPath: Map<string, PathRoute>
}

/**
 * The Last-Modified of bytes that change only with the code (the OpenAPI document, script and style files): when the
 * cluster first served these exact bytes, recorded in the store, so every node gives the same one and it moves only
 * when the bytes do.
 */
export function staticSince(ctx: HttpContext, content: string | Buffer): Promise<Date> {
  return ctx.firstSeen(`sha256:${createHash('sha256').update(content).digest('base64url')}`)
}

/** Registers a GET (and so HEAD) route and records it for 405 answers and CORS preflight. */
export function getRoute(ctx: HttpContext, url: string, handler: RouteHandlerMethod, options: RouteShorthandOptions = {}): void {
  ctx.routes.add(url, ['GET', 'OPTIONS'])
  ctx.app.get(url, options, handler)
}
