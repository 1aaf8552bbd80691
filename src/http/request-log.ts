import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { performance } from 'node:perf_hooks'
import type { Logger } from 'pino'

/**
 * Gives the observer of one route template (never a raw URL), asked once per route; that observer is told the method,
 * status and time of each of the route's answers.
 */
export type RequestObserver = (route: string) => (method: string, status: number, seconds: number) => void

export interface RequestLogOptions {
  log: Logger
  /** One request in this many gets an access line at info (0: none); server errors and slow requests always do. */
  sample: number
  /** At most this many sampled lines a second; the next line written carries how many were skipped meanwhile. */
  maxPerSecond: number
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
export type RouteRecorder = (method: string, id: string, status: number, seconds: number, bytes: number) => void

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
  const budget = new LineBudget(o.maxPerSecond)
  const recorderFor = (route: string): RouteRecorder => {
    const observe = o.observe?.(route)
    return (method, id, status, seconds, bytes) => {
      observe?.(method, status, seconds)
      if (o.sample === 0) return
      const always = status >= 500 || seconds >= SLOW_SECONDS
      if (!always && (++seen % o.sample !== 0 || !budget.take())) return
      const line = { reqId: id, route, method, status, ms: Math.round(seconds * 10_000) / 10, bytes }
      const skipped = budget.skippedSinceLastLine()
      o.log.info(skipped ? { ...line, skipped } : line, 'request')
    }
  }
  const hookFor = (route: string): OnResponse => {
    const record = recorderFor(route)
    return (req, reply, done) => {
      record(req.method, req.id, reply.statusCode, reply.elapsedTime / 1000, Number(reply.getHeader('content-length') ?? 0))
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

/**
 * The sampled lines one second may have. A sampled line costs about 130,000 CPU instructions (pino's code, run once
 * in a hundred requests, never gets optimised), nearly twice a whole 304: at tens of thousands of requests a second an
 * uncapped 1-in-100 sample cost more than the metrics. The clock is read only for a sampled request.
 */
class LineBudget {
  private windowStart = -Infinity
  private left = 0
  private skipped = 0

  constructor(private readonly perSecond: number) {}

  take(): boolean {
    const now = performance.now()
    if (now - this.windowStart >= 1000) {
      this.windowStart = now
      this.left = this.perSecond
    }
    if (this.left > 0) {
      this.left--
      return true
    }
    this.skipped++
    return false
  }

  /** How many sampled lines were skipped since the last line was written (and counts afresh from here). */
  skippedSinceLastLine(): number {
    const n = this.skipped
    this.skipped = 0
    return n
  }
}
