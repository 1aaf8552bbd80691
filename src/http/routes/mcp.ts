import type { McpEndpoint } from '../../mcp/index.js'
import type { HttpContext } from '../context.js'

/** The MCP endpoint takes raw bytes: its own rules decide what a bad body, size or type gets (a JSON-RPC error). */
const MAX_MESSAGE_BYTES = 256 * 1024

/** POST, GET and DELETE /mcp, handed to the MCP area as plain Node requests. */
export function mcpRoutes(ctx: HttpContext, mcp: McpEndpoint): void {
  ctx.routes.add('/mcp', ['GET', 'POST', 'DELETE', 'OPTIONS'])
  ctx.app.addHook('preClose', () => mcp.close())
  ctx.app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_MESSAGE_BYTES }, (_req, body, done) => done(null, body))
    scope.setErrorHandler((err: { statusCode?: number }, _req, reply) => {
      const status = err.statusCode === 413 ? 413 : 400
      const message = status === 413 ? `Request too large: an MCP message may be at most ${MAX_MESSAGE_BYTES} bytes.` : 'Bad Request: the body could not be read.'
      return reply.code(status).header('content-type', 'application/json').send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } }))
    })
    // The endpoint writes its answers itself; each carries the request's id, passed in rather than set on the
    // response beforehand (that sends every header through Node's one-by-one path, about 4 µs per request).
    scope.post('/mcp', (req, reply) => {
      reply.hijack()
      return mcp.post(req.raw, reply.raw, (req.body as Buffer | undefined) ?? Buffer.alloc(0), { 'x-request-id': req.id })
    })
    scope.get('/mcp', { exposeHeadRoute: false }, (req, reply) => {
      reply.hijack()
      return mcp.get(req.raw, reply.raw, { 'x-request-id': req.id })
    })
    scope.delete('/mcp', (req, reply) => {
      reply.hijack()
      return mcp.delete(req.raw, reply.raw, { 'x-request-id': req.id })
    })
    scope.options('/mcp', (req, reply) => {
      reply.hijack()
      mcp.preflight(req.raw, reply.raw, { 'x-request-id': req.id })
    })
  })
}
