import { z } from 'zod'

/**
 * The JSON-RPC 2.0 envelope that POST /mcp accepts and answers with (MCP basic/index.mdx): what the transport checks
 * before a message reaches the MCP server, and what the OpenAPI document shows. The server validates each method's
 * params itself.
 */
const Id = z.union([z.string(), z.int()]).describe('Request id: a string or an integer, never null.')
const Params = z.record(z.string(), z.unknown())

export const JsonRpcRequest = z
  .strictObject({
    jsonrpc: z.literal('2.0'),
    id: Id.optional().describe('Absent for a notification, which gets 202 and no body.'),
    method: z.string().describe('e.g. initialize, tools/list, tools/call, resources/read, prompts/get, logging/setLevel.'),
    params: Params.optional()
  })
  .meta({ id: 'JsonRpcRequest', description: 'A request, or a notification when it has no id.' })

export const JsonRpcResult = z
  .strictObject({ jsonrpc: z.literal('2.0'), id: Id, result: Params })
  .meta({ id: 'JsonRpcResult', description: 'A successful response.' })

export const JsonRpcError = z
  .strictObject({
    jsonrpc: z.literal('2.0'),
    id: Id.nullable().describe('null when the error is about the HTTP request rather than one message.'),
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() })
  })
  .meta({ id: 'JsonRpcError', description: 'An error response: -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params, -32002 unknown resource, -32000/-32001 transport errors.' })

/** One message per POST: MCP 2025-06-18 removed batches. */
export const JsonRpcMessage = z.union([JsonRpcRequest, JsonRpcResult, JsonRpcError]).meta({ id: 'JsonRpcMessage' })
export type JsonRpcMessage = z.output<typeof JsonRpcMessage>
