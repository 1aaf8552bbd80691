import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify'
import type { Logger } from 'pino'
import { ServiceError, type ErrorBody, type ErrorCode } from '../domain/index.js'
import { renderErrorPage } from '../pages/index.js'
import { COMMON_HEADERS } from '../snapshot/index.js'
import { prefersHtml } from './negotiation.js'
import { HTML, PAGE_CSP } from './pages.js'

/** Everything but the API, the datasets, the feeds and /mcp is a page for people; those keep their JSON errors. */
function isPagePath(url: string): boolean {
  const path = url.split('?')[0]!
  return !path.startsWith('/api/') && path !== '/mcp' && !/\.(?:json|xml|txt)$/.test(path)
}

/**
 * A browser that lands on a bad address gets a page it can read, with the same status. `headers` may replace the
 * policy: the embeddable widget's errors must be allowed in the frame they are meant for.
 */
function sendErrorPage(reply: FastifyReply, error: ServiceError, headers: Record<string, string>): FastifyReply {
  return reply
    .code(error.status)
    .headers({ ...COMMON_HEADERS, 'cache-control': 'no-store', 'content-type': HTML, 'content-security-policy': PAGE_CSP, vary: 'Accept', ...headers })
    .send(renderErrorPage(error.status, error.message, (error.issues ?? []).map((i) => i.message)))
}

export function sendError(reply: FastifyReply, error: ServiceError, headers: Record<string, string> = {}): FastifyReply {
  if (isPagePath(reply.request.url) && prefersHtml(reply.request)) return sendErrorPage(reply, error, headers)
  return reply
    .code(error.status)
    .headers({ ...COMMON_HEADERS, ...headers, 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' })
    .send(JSON.stringify(error.toBody() satisfies ErrorBody))
}

/** Fastify's own errors (body too large, bad content type, ...) keep their status but get our JSON shape. */
const FASTIFY_CODES: Record<number, ErrorCode> = {
  400: 'invalid_request',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'service_unavailable'
}

/**
 * Every error leaves as JSON. A path that exists with other methods gets 405 and `Allow`; anything else 404.
 * Unexpected errors are logged and answered without internals.
 */
export function installErrorHandling(app: FastifyInstance, log: Logger, allowedMethods: (url: string) => string[] | null, onUnmatched?: onResponseHookHandler): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ServiceError) return sendError(reply, err)
    const code = err.statusCode ? FASTIFY_CODES[err.statusCode] : undefined
    if (code) return sendError(reply, new ServiceError(code, err.message))
    log.error({ err, method: req.method, url: req.url }, 'unhandled error')
    return sendError(reply, new ServiceError('internal_error', 'Something went wrong on our side.'))
  })
  // Fastify takes any lifecycle hook here, though its types list only two; onResponse observes unmatched requests.
  const notFoundHooks = (onUnmatched ? { onResponse: onUnmatched } : {}) as Parameters<FastifyInstance['setNotFoundHandler']>[0]
  app.setNotFoundHandler(notFoundHooks, (req: FastifyRequest, reply) => {
    const allowed = allowedMethods(req.url)
    if (allowed && !allowed.includes(req.method)) {
      return sendError(reply, new ServiceError('method_not_allowed', `${req.method} is not allowed on this resource; use ${allowed.join(', ')}.`), {
        allow: allowed.join(', ')
      })
    }
    return sendError(reply, new ServiceError('not_found', `Nothing is served at ${req.url.split('?')[0]}.`))
  })
}
