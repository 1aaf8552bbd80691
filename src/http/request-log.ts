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
  interface FastifyContextConfig {
    /** The route records its own answers (see RequestRecording.recorderFor): it gets no onResponse hook. */
    recordsItself?: boolean
  }
}

type OnResponse = (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void

/** Records one answer of a route: metrics, and the access line when it is sampled. */
export type RouteRecorder = (req: FastifyRequest, status: number, seconds: number, bytes: number) => void

export interface RequestRecording {
  /** The hook for requests no route matched (the not-found handler's). */
  onUnmatched: OnResponse
  /**
   * For a route whose config says `recordsItself` (prebuilt bodies, see representationRoute): it calls this recorder
   * once per answer and gets no onResponse hook, since a hook makes Fastify time and watch every response of the
   * route (about 1 µs of a 15 µs 304, measured).
   */
  recorderFor(route: string): RouteRecorder
}

/**
 * Metrics for every request and an access line for some. Most routes are recorded from an onResponse hook: Fastify
 * has timed the response already, so this adds a few additions. Each route gets a hook of its own that knows the
 * route's template (reading request.routeOptions builds an object per request). The line carries what an access
 * line needs and no more: request id, route template, method, status, duration and bytes; no client address, no
 * query string.
 */
export function observeRequests(app: FastifyInstance, o: RequestLogOptions): RequestRecording | undefined {
  if (!o.observe && o.sample === 0) return undefined
  let seen = 0
  const recorderFor =
    (route: string): RouteRecorder =>
    (req, status, seconds, bytes) => {
      o.observe?.(route, req.method, status, seconds)
      if (o.sample > 0 && (status >= 500 || seconds >= SLOW_SECONDS || ++seen % o.sample === 0)) {
        o.log.info({ reqId: req.id, route, method: req.method, status, ms: Math.round(seconds * 10_000) / 10, bytes }, 'request')
      }
    }
  const hookFor = (route: string): OnResponse => {
    const record = recorderFor(route)
    return (req, reply, done) => {
      record(req, reply.statusCode, reply.elapsedTime / 1000, Number(reply.getHeader('content-length') ?? 0))
      done()
    }
  }
  const ours = new WeakSet<OnResponse>()
  app.addHook('onRoute', (route) => {
    // A HEAD route Fastify derives from a GET comes here with the GET's hooks: its own replaces that one.
    const others = [route.onResponse ?? []].flat().filter((h) => !ours.has(h as OnResponse))
    if (route.config?.recordsItself) {
      route.onResponse = others.length ? (others as typeof route.onResponse) : undefined
      return
    }
    const hook = hookFor(route.url)
    ours.add(hook)
    route.onResponse = [...others, hook] as typeof route.onResponse
  })
  return { onUnmatched: hookFor(UNMATCHED), recorderFor }
}
