import { spawn } from 'node:child_process'
import { request as httpRequest, type ClientRequest } from 'node:http'
import { request, type RawResponse } from './http.js'
import { MCP_HEADERS } from './mcp.js'
import { cliArgs, startServerProcess, type CliResult, type ServerProcess } from './processes.js'

/** One `reviews-service serve` process of the cluster, under a name the test reports by. */
export interface ClusterNode {
  name: string
  port: number
  url: string
  process: ServerProcess
  alive: boolean
}

/** Starts a node; `port` 0 picks a free one, a given port brings a killed node back where the balancer expects it. */
export async function startNode(name: string, env: Record<string, string>, port = 0): Promise<ClusterNode> {
  const process = await startServerProcess({ ...env, PORT: String(port) })
  const node = { name, port: Number(new URL(process.url).port), url: process.url, process, alive: true }
  process.child.once('exit', () => (node.alive = false))
  return node
}

/** SIGKILL: no drain, no hand-back of claims, no closing of sessions; the way a crash or an OOM kill ends a node. */
export async function killNode(node: ClusterNode): Promise<number> {
  const at = Date.now()
  await node.process.stop('SIGKILL')
  return at
}

/** The structured log lines of a node with this message. */
export const logsOf = (node: ClusterNode, msg: string) => node.process.logs.filter((l) => l.msg === msg)

/**
 * `reviews-service <args>` as its own process, like runCli, but without blocking this process (the subscriber and
 * the polls run here meanwhile); `exitedAt` is when the process exited.
 */
export function runCliAsync(args: string[], env: Record<string, string>): Promise<CliResult & { exitedAt: number }> {
  const child = spawn(process.execPath, cliArgs(args), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c))
  child.stderr.on('data', (c: Buffer) => (stderr += c))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (status) => {
      const exitedAt = Date.now()
      // The pipes may still hold the last lines: wait for them, but the time is the exit's.
      child.once('close', () => resolve({ status, stdout, stderr, exitedAt }))
    })
  })
}

/** The headers that must be equal on every node for one representation. */
export const REPRESENTATION_HEADERS = ['etag', 'last-modified', 'content-type', 'content-encoding', 'content-length', 'vary', 'cache-control', 'link'] as const

/** The representation headers of a response, absent ones as undefined, for deepEqual across nodes. */
export function representationOf(r: RawResponse): Record<string, unknown> {
  return Object.fromEntries(REPRESENTATION_HEADERS.map((h) => [h, r.headers[h]]))
}

export const MCP_PROTOCOL = '2025-06-18'

export interface RpcAnswer {
  status: number
  message: { id?: unknown; result?: any; error?: { code: number; message: string } } | undefined
}

let rpcIds = 0

/** One JSON-RPC request to a node's /mcp in an existing session; the answer may come as JSON or as a short SSE stream. */
export async function mcpRequest(url: string, session: string, method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
  const headers = { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': MCP_PROTOCOL }
  const r = await request('POST', `${url}/mcp`, headers, JSON.stringify({ jsonrpc: '2.0', id: ++rpcIds, method, params }))
  if (r.status !== 200) return { status: r.status, message: r.text ? JSON.parse(r.text) : undefined }
  const isSse = String(r.headers['content-type']).startsWith('text/event-stream')
  return { status: r.status, message: isSse ? sseMessages(r.text).at(-1) : r.json() }
}

/** A tool call that must succeed: its structured result. */
export async function callTool(url: string, session: string, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const a = await mcpRequest(url, session, 'tools/call', { name, arguments: args })
  if (a.status !== 200 || !a.message?.result || a.message.result.isError) throw new Error(`${name} on ${url}: ${a.status} ${JSON.stringify(a.message)}`)
  return a.message.result.structuredContent ?? a.message.result.content
}

/** The JSON messages of an SSE body (`data:` lines; comments and other fields ignored). */
function sseMessages(text: string): any[] {
  return text
    .split(/\n\n/)
    .map((event) => event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n'))
    .filter(Boolean)
    .map((data) => JSON.parse(data))
}

/** A session's notification stream (GET /mcp) on one node, read as it arrives. */
export class McpStream {
  readonly messages: { at: number; message: any }[] = []
  private buffer = ''

  private constructor(private readonly req: ClientRequest) {}

  /** Opens the stream and resolves once the node answered 200 with text/event-stream. */
  static open(url: string, session: string): Promise<McpStream> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': MCP_PROTOCOL }, agent: false })
      const stream = new McpStream(req)
      req.once('response', (res) => {
        if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
          reject(new Error(`GET /mcp on ${url} answered ${res.statusCode} ${res.headers['content-type']}`))
          res.resume()
          return
        }
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => stream.take(chunk))
        res.on('error', () => {})
        resolve(stream)
      })
      req.once('error', reject)
      req.end()
    })
  }

  /** Messages with this method, in arrival order. */
  notifications(method: string): any[] {
    return this.messages.filter((m) => m.message.method === method).map((m) => m.message)
  }

  close(): void {
    this.req.destroy()
  }

  private take(chunk: string): void {
    this.buffer += chunk
    const events = this.buffer.split('\n\n')
    this.buffer = events.pop()!
    for (const message of sseMessages(events.join('\n\n'))) this.messages.push({ at: Date.now(), message })
  }
}
