import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
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

declare module 'fastify' {
  interface FastifyReply {
    /** Body bytes of a response written past Fastify's reply (send.ts), for the access line; 0 otherwise. */
    bodyBytes: number
  }
}

type OnResponse = (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void

/**
 * Metrics for every request and an access line for some, from an onResponse hook: Fastify has timed the response
 * already, so this adds a few additions to the hot path. Each route gets a hook of its own that knows the route's
 * template (reading request.routeOptions builds an object per request); requests no route matched get the hook
 * returned here, for the not-found handler. The line carries what an access line needs and no more: request id,
 * route template, method, status, duration and bytes; no client address, no query string.
 */
export function observeRequests(app: FastifyInstance, o: RequestLogOptions): OnResponse | undefined {
  app.decorateReply('bodyBytes', 0)
  if (!o.observe && o.sample === 0) return undefined
  let seen = 0
  const hookFor = (route: string): OnResponse => (req, reply, done) => {
    const status = reply.statusCode
    const seconds = reply.elapsedTime / 1000
    o.observe?.(route, req.method, status, seconds)
    if (o.sample > 0 && (status >= 500 || seconds >= SLOW_SECONDS || ++seen % o.sample === 0)) {
      const bytes = Number(reply.getHeader('content-length') ?? reply.bodyBytes)
      o.log.info({ reqId: req.id, route, method: req.method, status, ms: Math.round(seconds * 10_000) / 10, bytes }, 'request')
    }
    done()
  }
  const ours = new WeakSet<OnResponse>()
  app.addHook('onRoute', (route) => {
    // A HEAD route Fastify derives from a GET comes here with the GET's hooks: its own replaces that one.
    const others = [route.onResponse ?? []].flat().filter((h) => !ours.has(h as OnResponse))
    const hook = hookFor(route.url)
    ours.add(hook)
    route.onResponse = [...others, hook] as typeof route.onResponse
  })
  return hookFor(UNMATCHED)
}
