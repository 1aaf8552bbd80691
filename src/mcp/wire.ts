import type { IncomingMessage, ServerResponse } from 'node:http'
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCErrorResponse, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { isPlainRequestParams, JsonRpcMessage, McpRequestParams } from '../domain/index.js'

/** An HTTP-level refusal, answered with a JSON-RPC error object whose id is null (transports.mdx allows that). */
export interface Refusal {
  status: number
  code: number
  message: string
  headers?: Record<string, string>
}

/** Headers every answer to one HTTP request carries besides the endpoint's own (the caller's request id). */
export type AnswerHeaders = Readonly<Record<string, string>>

export const refusal = (status: number, code: number, message: string, headers?: Record<string, string>): Refusal => ({ status, code, message, headers })

export function refuse(res: ServerResponse, r: Refusal, headers?: AnswerHeaders): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: r.code, message: r.message } })
  res.writeHead(r.status, { ...headers, ...r.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store' })
  res.end(body)
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name]
  return Array.isArray(v) ? v.join(', ') : v
}

/** The client must accept every listed media type (POST: JSON and SSE; GET: SSE). */
export function checkAccept(req: IncomingMessage, ...types: string[]): Refusal | undefined {
  const accept = (header(req, 'accept') ?? '').toLowerCase()
  const missing = types.filter((t) => !accept.includes(t))
  return missing.length ? refusal(406, -32000, `Not Acceptable: the Accept header must list ${types.join(' and ')}.`) : undefined
}

export function checkJsonBody(req: IncomingMessage): Refusal | undefined {
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' ? undefined : refusal(415, -32000, 'Unsupported Media Type: send the JSON-RPC message as application/json.')
}

/** A missing header is fine (the spec says to assume 2025-03-26); an unknown one is a 400. */
export function checkProtocolVersion(req: IncomingMessage): Refusal | undefined {
  const version = header(req, 'mcp-protocol-version')
  if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined
  return refusal(400, -32000, `Bad Request: unsupported MCP-Protocol-Version "${version}"; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`)
}

export type Parsed = { message: JSONRPCMessage } | { refusal: Refusal }

/** One JSON-RPC message per POST: malformed JSON is -32700, a batch or anything not JSON-RPC is -32600. */
export function parseMessage(body: Buffer): Parsed {
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    return { refusal: refusal(400, -32700, 'Parse error: the body is not valid JSON.') }
  }
  if (Array.isArray(value)) return { refusal: refusal(400, -32600, 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request.') }
  const parsed = JsonRpcMessage.safeParse(value)
  if (!parsed.success) return { refusal: refusal(400, -32600, 'Invalid Request: the body is not a JSON-RPC 2.0 request, notification or response.') }
  return { message: parsed.data as JSONRPCMessage }
}

/** Parsed from the whole request so that an issue's path starts at `params`. */
const WithParams = z.object({ params: McpRequestParams.optional() })

/**
 * A request as the server should get it, or the error that answers it instead. Params the SDK cannot take are answered
 * here with the request's own id, since the SDK would drop the request unanswered (see McpRequestParams).
 */
export function prepareRequest(m: JSONRPCRequest): { request: JSONRPCRequest } | { error: JSONRPCErrorResponse } {
  const checked = isPlainRequestParams(m.params) ? undefined : WithParams.safeParse(m)
  if (checked && !checked.success) return { error: { jsonrpc: '2.0', id: m.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${z.prettifyError(checked.error)}` } } }
  return { request: withoutTask(m) }
}

/**
 * A receiver that declares no task support must process a task-augmented request normally, ignoring the
 * augmentation (basic/utilities/tasks.mdx, 2025-11-25). The SDK instead fails such a request with -32603, so the
 * augmentation is taken off before it sees the request.
 */
function withoutTask(m: JSONRPCRequest): JSONRPCRequest {
  if (m.params === undefined || !Object.hasOwn(m.params, 'task')) return m
  const { task: _ignored, ...params } = m.params
  return { ...m, params }
}

/** An answer to a request that never reached the server: a JSON-RPC error with the request's id, in a 200. */
export function answerError(res: ServerResponse, response: JSONRPCErrorResponse, headers?: AnswerHeaders): void {
  const body = JSON.stringify(response)
  res.writeHead(200, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) })
  res.end(body)
}

export const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m
export const isInitialize = (m: JSONRPCMessage): m is JSONRPCRequest => isRequest(m) && m.method === 'initialize'

export function sessionIdOf(req: IncomingMessage): string | undefined {
  return header(req, 'mcp-session-id')
}

export function originOf(req: IncomingMessage): string | undefined {
  return header(req, 'origin')
}
