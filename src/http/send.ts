import { negotiate } from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { performance } from 'node:perf_hooks'
import { ServiceError } from '../domain/index.js'
import type { Encoding, Representation, Variant } from '../snapshot/index.js'
import { evaluatePreconditions } from './conditional.js'
import { getRoute, type HttpContext } from './context.js'
import type { RouteRecorder } from './request-log.js'

const OFFERED: Encoding[] = ['br', 'gzip', 'identity']
/** Clients send a handful of distinct Accept-Encoding values; negotiate each once. */
const chosen = new Map<string, Encoding>()
const PRECONDITION_FAILED = 'The resource does not match If-Match, or changed after If-Unmodified-Since; fetch it again to get its current ETag.'

function encodingFor(header: string | undefined): Encoding {
  if (!header) return 'identity'
  let enc = chosen.get(header)
  if (enc === undefined) {
    enc = (negotiate(header, OFFERED) as Encoding | null) ?? 'identity'
    if (chosen.size < 256) chosen.set(header, enc)
  }
  return enc
}

export function pickVariant(rep: Representation, acceptEncoding: string | undefined): Variant {
  const enc = encodingFor(acceptEncoding)
  return rep.variants[enc] ?? (enc !== 'identity' && rep.compressOnDemand ? rep.compressOnDemand(enc) : rep.variants.identity)
}

/**
 * Sends prebuilt bytes: picks the content-coding, evaluates the preconditions against that variant (RFC 9110
 * section 13.2.2, whatever the request's Cache-Control or Pragma say), and answers 304, 412 (thrown, so it leaves
 * like every other error) or 200 with every header precomputed. The bytes go straight to the socket (Fastify's reply
 * pipeline would only re-check headers we built once); Node sends no body for HEAD.
 */
export function sendRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation): FastifyReply {
  writeRepresentation(req, reply, rep)
  return reply
}

/** A representation for a request; may throw a ServiceError (400, 404), and may take a while the first time. */
type RepresentationFor = (req: FastifyRequest) => Representation | Promise<Representation>

/**
 * A GET route answered with the representation `pick` gives. With recording on, the route records each answer itself
 * right after writing it, errors included, so Fastify runs no per-request hook for it (see request-log.ts).
 */
export function representationRoute(ctx: HttpContext, url: string, pick: RepresentationFor): RouteRecorder | undefined {
  const record = ctx.recorderFor?.(url)
  const handler = (req: FastifyRequest, reply: FastifyReply) => {
    const started = record ? performance.now() : 0
    try {
      const rep = pick(req)
      if (!(rep instanceof Promise)) return answer(req, reply, rep, record, started)
      return rep.then(
        (r) => answer(req, reply, r, record, started),
        (err: unknown) => failed(req, reply, err, record, started)
      )
    } catch (err) {
      return failed(req, reply, err, record, started)
    }
  }
  getRoute(ctx, url, handler, { config: { recordsItself: record !== undefined } })
  return record
}

/**
 * A GET route whose answer depends on its path alone (no parameters; nothing of the request but the content-coding and
 * the preconditions): registered like any other, and listed for the fast path, which answers it before node:http
 * makes a request of it (fast-path.ts). The route still answers what the fast path leaves (a query string, a 412).
 */
export function pathRoute(ctx: HttpContext, url: string, current: () => Representation | Promise<Representation>): void {
  const record = representationRoute(ctx, url, current)
  ctx.byPath.set(url, { current, record })
}

function answer(req: FastifyRequest, reply: FastifyReply, rep: Representation, record: RouteRecorder | undefined, started: number): FastifyReply {
  const bytes = writeRepresentation(req, reply, rep)
  record?.(req.method, req.id, reply.raw.statusCode, (performance.now() - started) / 1000, bytes)
  return reply
}

/** The error goes on to the error handler, which answers it; it is recorded once that answer is sent. */
function failed(req: FastifyRequest, reply: FastifyReply, err: unknown, record: RouteRecorder | undefined, started: number): never {
  if (record) reply.raw.once('finish', () => record(req.method, req.id, reply.statusCode, (performance.now() - started) / 1000, Number(reply.getHeader('content-length') ?? 0)))
  throw err
}

/** The body bytes it sent (none for a 304). */
function writeRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation): number {
  const variant = pickVariant(rep, req.headers['accept-encoding'])
  const outcome = evaluatePreconditions(req.method, req.headers, variant.etag, rep.lastModified)
  if (outcome === 'failed') throw new ServiceError('precondition_failed', PRECONDITION_FAILED)
  reply.hijack()
  // The request id joins the precomputed headers in the list writeHead takes: a header set on the response
  // beforehand sends every header through Node's one-by-one path (about 4 µs per request).
  if (outcome === 'not-modified') {
    reply.raw.writeHead(304, [...variant.notModifiedHeaderList, 'x-request-id', req.id]).end()
    return 0
  }
  reply.raw.writeHead(200, [...variant.headerList, 'x-request-id', req.id]).end(variant.body)
  return variant.body.length
}
