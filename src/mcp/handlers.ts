import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'

type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> }>
type Handler<S extends RequestSchema> = (request: z.output<S>) => unknown

/**
 * Registers a request handler whose invalid params are a -32602 error, as the spec asks (an invalid log level, a
 * read without a uri). The SDK parses params before calling a handler and reports a failure as -32603 (internal
 * error), so the handler is registered under a schema that only checks the method, and validated here.
 */
export function onRequest<S extends RequestSchema>(server: Server, schema: S, handler: Handler<S>): void {
  const method = schema.shape.method.value
  const anyParams = z.looseObject({ method: z.literal(method) })
  server.setRequestHandler(anyParams as unknown as Parameters<Server['setRequestHandler']>[0], (request: unknown) => {
    const parsed = schema.safeParse(request)
    if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${z.prettifyError(parsed.error)}`)
    return handler(parsed.data) as never
  })
}
