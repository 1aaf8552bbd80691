import { z } from 'zod'

/**
 * The JSON-RPC 2.0 envelope that POST /mcp accepts and answers with (MCP basic/index.mdx): what the transport checks
 * before a message reaches the MCP server, and what the OpenAPI document shows. The server validates each method's
 * params itself; McpRequestParams below is what every request's params must be before any method sees them.
 */
const Id = z.union([z.string(), z.int()]).describe('Request id: a string or an integer, never null.')
const Params = z.record(z.string(), z.unknown())

/** JSON.parse makes a `__proto__` member an own property; it is no parameter, so no method gets to see it. */
function withoutProtoMember(params: unknown): unknown {
  if (typeof params !== 'object' || params === null || Array.isArray(params) || !Object.hasOwn(params, '__proto__')) return params
  return Object.fromEntries(Object.entries(params).filter(([k]) => k !== '__proto__'))
}

/** Deep enough for any argument a tool takes; far below where a recursive JSON.stringify runs out of stack. */
const MAX_PARAMS_DEPTH = 32

/** Whether a parsed JSON value nests at most `limit` arrays and objects deep; stops looking at the limit. */
function nestsWithin(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return true
  if (limit === 0) return false
  return Object.values(value).every((v) => nestsWithin(v, limit - 1))
}

/**
 * The general fields of a request's params._meta (basic/index.mdx, General fields; the related-task key is from
 * 2025-11-25). Any other key is allowed, but these must have their shape: the SDK reads them before dispatching, and
 * drops a request whose _meta does not match, so without this check such a request would never be answered.
 */
const RequestMeta = z.looseObject({
  progressToken: z.union([z.string(), z.int()], { error: 'a progress token is a string or an integer' }).optional(),
  'io.modelcontextprotocol/related-task': z.looseObject({ taskId: z.string() }).optional()
})

/**
 * What every request's params must be, whatever its method: anything else is answered -32602 with the request's id.
 * The depth is measured on the params as sent, before a parse rebuilds any object (and drops __proto__ keys).
 */
export const McpRequestParams = z
  .unknown()
  .refine((params) => nestsWithin(params, MAX_PARAMS_DEPTH), { message: `params must not nest deeper than ${MAX_PARAMS_DEPTH} levels`, abort: true })
  .pipe(z.looseObject({ _meta: RequestMeta.optional() }))

/**
 * Whether McpRequestParams takes these params as they are, decided without the schema: absent, or an object without
 * `_meta` that nests within the limit, which is nearly every request. The schema parse cost about 4 µs of an MCP call
 * (a twentieth); it still decides everything else and words every error. A property test keeps the two in step.
 */
export function isPlainRequestParams(params: unknown): boolean {
  if (params === undefined) return true
  return typeof params === 'object' && params !== null && !Array.isArray(params) && !Object.hasOwn(params, '_meta') && nestsWithin(params, MAX_PARAMS_DEPTH)
}

export const JsonRpcRequest = z
  .strictObject({
    jsonrpc: z.literal('2.0'),
    id: Id.optional().describe('Absent for a notification, which gets 202 and no body.'),
    method: z.string().describe('e.g. initialize, tools/list, tools/call, resources/read, prompts/get, logging/setLevel.'),
    // Any JSON here still makes a request: one that is not an object gets -32602 with its own id (McpRequestParams),
    // and a notification's params are the server's to ignore.
    params: z.preprocess(withoutProtoMember, z.unknown()).optional().describe('An object; anything else is answered -32602 (invalid params).')
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
  .meta({ id: 'JsonRpcError', description: 'An error response: -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params, -32002 unknown resource, -32603 internal error (also a request the server did not answer in time), -32000/-32001 transport errors.' })

/** One message per POST: MCP 2025-06-18 removed batches. */
export const JsonRpcMessage = z.union([JsonRpcRequest, JsonRpcResult, JsonRpcError]).meta({ id: 'JsonRpcMessage' })
export type JsonRpcMessage = z.output<typeof JsonRpcMessage>
