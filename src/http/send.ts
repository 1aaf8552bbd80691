import { negotiate } from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fresh from 'fresh'
import type { Encoding, Representation, Variant } from '../snapshot/index.js'

const OFFERED: Encoding[] = ['br', 'gzip', 'identity']
/** Clients send a handful of distinct Accept-Encoding values; negotiate each once. */
const chosen = new Map<string, Encoding>()

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
 * Sends prebuilt bytes: picks the content-coding, answers 304 to a matching If-None-Match (which wins) or
 * If-Modified-Since, and otherwise 200 with every header precomputed. The bytes go straight to the socket
 * (Fastify's reply pipeline would only re-check headers we built once); Node sends no body for HEAD.
 */
export function sendRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation): FastifyReply {
  const variant = pickVariant(rep, req.headers['accept-encoding'])
  reply.hijack()
  if (fresh(req.headers, variant.headers)) reply.raw.writeHead(304, variant.notModifiedHeaders).end()
  else reply.raw.writeHead(200, variant.headers).end(variant.body)
  return reply
}
