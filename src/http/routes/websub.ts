import rateLimit from '@fastify/rate-limit'
import type { FastifyReply } from 'fastify'
import type { RateStore } from '../../store/index.js'
import type { Hub } from '../../websub/index.js'
import { COMMON_HEADERS } from '../../snapshot/index.js'
import { getRoute, type HttpContext } from '../context.js'

export interface HubLimits {
  ratePerMinute: number
  maxRequestBytes: number
}

/**
 * @fastify/rate-limit's store contract over the shared RateStore, so the subscribe rate of one client is counted
 * across every node, not per process. A store that cannot answer fails the request (500), never lets it through.
 */
function sharedRateStore(rates: RateStore) {
  return class SharedRateStore {
    incr(key: string, callback: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      const now = Date.now()
      rates.hit(`websub-subscribe:${key}`, timeWindow, now).then(
        ({ count, resetAt }) => callback(null, { current: count, ttl: resetAt - now }),
        (err: Error) => callback(err)
      )
    }

    child(): SharedRateStore {
      return this
    }
  }
}

const text = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).headers({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).send(`${body}\n`)

/**
 * POST /api/websub/hub (subscribe and unsubscribe, answered in plain text as WebSub section 5.1.2 suggests) and
 * GET /api/websub/stats (counters an operator watches).
 */
export async function websubRoutes(ctx: HttpContext, hub: Hub, limits: HubLimits & { rates: RateStore }): Promise<void> {
  ctx.routes.add('/api/websub/hub', ['POST'])
  await ctx.app.register(async (scope) => {
    // Scoped to the hub route: reads of the datasets are never rate limited.
    await scope.register(rateLimit, {
      global: false,
      store: sharedRateStore(limits.rates),
      skipOnError: false,
      errorResponseBuilder: (_req, c) => ({ statusCode: 429, message: `Too many subscription requests: at most ${c.max} a minute from one client; try again in ${Math.ceil(c.ttl / 1000)} s.` })
    })
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: limits.maxRequestBytes }, (_req, body, done) =>
      done(null, new URLSearchParams(body as string))
    )
    scope.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
      const status = err.statusCode ?? 500
      if (status === 413) return text(reply, 413, `The request is too large: at most ${limits.maxRequestBytes} bytes.`)
      if (status === 415) return text(reply, 415, 'Send the subscription request as application/x-www-form-urlencoded.')
      return text(reply, status, status >= 500 ? 'Something went wrong on our side.' : err.message)
    })
    scope.post('/api/websub/hub', { config: { rateLimit: { max: limits.ratePerMinute, timeWindow: 60_000 } } }, async (req, reply) => {
      const form = req.body instanceof URLSearchParams ? req.body : new URLSearchParams()
      const answer = await hub.request(form)
      return text(reply, answer.status, answer.text)
    })
  })
  getRoute(ctx, '/api/websub/stats', async (_req, reply) =>
    reply
      .headers({ ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      .send(JSON.stringify(await hub.stats()))
  )
}
