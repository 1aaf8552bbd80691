import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'

/** Told of every answered request: its route template (never a raw URL), method, status and time. */
export type RequestObserver = (route: string, method: string, status: number, seconds: number) => void

export interface RequestLogOptions {
  log: Logger
  /** One request in this many gets an access line at info (0: none); server errors and slow requests always do. */
  sample: number
  observe?: RequestObserver
}

/** A request slower than this is always logged. */
const SLOW_SECONDS = 1
/** Routes Fastify did not match share one label, so random paths cannot grow the label set. */
const UNMATCHED = 'unmatched'

/**
 * Metrics for every request and an access line for some, from one onResponse hook: Fastify has timed the response
 * already, so this adds a few counter increments to the hot path. The line carries what an access line needs and
 * no more: request id, route template, method, status, duration and bytes; no client address, no query string.
 */
export function observeRequests(app: FastifyInstance, o: RequestLogOptions): void {
  let seen = 0
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? UNMATCHED
    const status = reply.statusCode
    const seconds = reply.elapsedTime / 1000
    o.observe?.(route, req.method, status, seconds)
    if (o.sample > 0 && (status >= 500 || seconds >= SLOW_SECONDS || ++seen % o.sample === 0)) {
      const bytes = Number(reply.raw.getHeader('content-length') ?? 0)
      o.log.info({ reqId: req.id, route, method: req.method, status, ms: Math.round(seconds * 10_000) / 10, bytes }, 'request')
    }
    done()
  })
}
