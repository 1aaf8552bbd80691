import type { IncomingMessage, ServerResponse } from 'node:http'
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import { JsonRpcMessage } from '../domain/index.js'

/** An HTTP-level refusal, answered with a JSON-RPC error object whose id is null (transports.mdx allows that). */
export interface Refusal {
  status: number
  code: number
  message: string
  headers?: Record<string, string>
}

export const refusal = (status: number, code: number, message: string, headers?: Record<string, string>): Refusal => ({ status, code, message, headers })

export function refuse(res: ServerResponse, r: Refusal): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: r.code, message: r.message } })
  res.writeHead(r.status, { ...r.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store' })
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

export const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m
export const isInitialize = (m: JSONRPCMessage): m is JSONRPCRequest => isRequest(m) && m.method === 'initialize'

export function sessionIdOf(req: IncomingMessage): string | undefined {
  return header(req, 'mcp-session-id')
}

export function originOf(req: IncomingMessage): string | undefined {
  return header(req, 'origin')
}
