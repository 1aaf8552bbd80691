import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { request, type RawResponse } from './http.js'

/** The official SDK client, connected over real HTTP. */
export async function connectClient(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'reviews-service-tests', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`))
  await client.connect(transport)
  return { client, transport }
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
}

/** A raw POST /mcp with exactly these headers and body, for the transport's HTTP rules. */
export function post(url: string, body: unknown, headers: Record<string, string> = MCP_HEADERS): Promise<RawResponse> {
  return request('POST', `${url}/mcp`, headers, typeof body === 'string' ? body : JSON.stringify(body))
}

/** initialize + notifications/initialized over raw HTTP; returns the session id. */
export async function openSession(url: string): Promise<string> {
  const init = await post(url, INITIALIZE)
  if (init.status !== 200) throw new Error(`initialize gave ${init.status}: ${init.text}`)
  const session = String(init.headers['mcp-session-id'])
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...MCP_HEADERS, 'mcp-session-id': session })
  return session
}
