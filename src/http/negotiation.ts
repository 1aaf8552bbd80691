import { negotiate } from '@fastify/accept-negotiator'
import type { FastifyRequest } from 'fastify'

/**
 * True when the client ranks HTML above JSON, as browsers do; curl, fetch and agents (no Accept, or *\/*) get JSON,
 * the first type offered.
 */
export function prefersHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept
  return accept !== undefined && negotiate(accept, ['application/json', 'text/html']) === 'text/html'
}
