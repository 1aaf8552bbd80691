import type { ServerResponse } from 'node:http'
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js'

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' }
const KEEP_ALIVE_MS = 25_000

const isResponse = (m: JSONRPCMessage) => 'result' in m || 'error' in m

/** Gives the JSON of a result when it is already known (see result-cache.ts), to save serialising it again. */
export type KnownJson = (result: unknown) => Buffer | undefined

/** A message as the chunks of its JSON: a known result goes out as its kept bytes, with only the envelope made here. */
function serialize(message: JSONRPCMessage, known: KnownJson): (string | Buffer)[] {
  const json = 'result' in message ? known(message.result) : undefined
  if (json === undefined) return [JSON.stringify(message)]
  return [`{"jsonrpc":"2.0","id":${JSON.stringify((message as { id: RequestId }).id)},"result":`, json, '}']
}

const byteLength = (chunks: (string | Buffer)[]) => chunks.reduce((n, c) => n + (typeof c === 'string' ? Buffer.byteLength(c) : c.length), 0)

const sse = (json: string) => `event: message\ndata: ${json}\n\n`

/**
 * The HTTP response that owes the reply to one JSON-RPC request. The reply is plain JSON, unless the server sends a
 * message related to the request first (a progress or log notification): then the response becomes an SSE stream
 * that carries those messages and ends with the reply. Both forms are allowed by the streamable HTTP transport.
 */
class Exchange {
  private streaming = false

  constructor(
    readonly res: ServerResponse,
    private readonly headers: Record<string, string>
  ) {}

  event(json: string): void {
    if (!this.streaming) {
      this.res.writeHead(200, { ...this.headers, ...SSE_HEADERS })
      this.streaming = true
    }
    this.res.write(sse(json))
  }

  finish(chunks: (string | Buffer)[]): void {
    if (this.streaming) {
      this.res.end(sse(chunks.join('')))
      return
    }
    this.res.writeHead(200, { ...this.headers, 'content-type': 'application/json', 'content-length': String(byteLength(chunks)) })
    // Corked, the chunks leave in one writev without being joined.
    this.res.cork()
    for (const chunk of chunks.slice(0, -1)) this.res.write(chunk)
    this.res.end(chunks.at(-1))
  }
}

/**
 * The SDK's Transport for one MCP session over plain Node HTTP responses. The SDK's own streamable HTTP transport
 * converts every request to web streams and answers with SSE (about 0.15x the throughput of a plain GET here) and
 * its JSON mode leaks per request (typescript-sdk issue 2559); this one writes to the response directly and forgets
 * each exchange as soon as it is answered or its client goes away. HTTP-level checks happen before a message gets
 * here (see endpoint.ts).
 */
export class SessionTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  private readonly inFlight = new Map<RequestId, Exchange>()
  private stream: { res: ServerResponse; keepAlive: NodeJS.Timeout } | undefined
  private closed = false

  constructor(
    readonly sessionId: string,
    private readonly known: KnownJson = () => undefined
  ) {}

  async start(): Promise<void> {}

  /** Requests being answered, or an open notification stream, keep a session from counting as idle. */
  get busy(): boolean {
    return this.inFlight.size > 0 || this.stream !== undefined
  }

  /** Hands a request to the server; its reply goes to `res`. False when a request with that id is still in flight. */
  request(message: JSONRPCRequest, res: ServerResponse, extra: MessageExtraInfo): boolean {
    if (this.inFlight.has(message.id)) return false
    const exchange = new Exchange(res, { 'mcp-session-id': this.sessionId })
    this.inFlight.set(message.id, exchange)
    // A client that hangs up does not cancel the request (the spec says so), but nobody is left to answer.
    res.once('close', () => this.inFlight.get(message.id) === exchange && this.inFlight.delete(message.id))
    this.onmessage?.(message, extra)
    return true
  }

  /** Notifications and responses from the client: nothing is owed back on this HTTP request. */
  deliver(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.onmessage?.(message, extra)
  }

  /** The GET stream, where messages unrelated to a request go (resource updates, log messages). One at a time. */
  openStream(res: ServerResponse): boolean {
    if (this.stream) return false
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId })
    res.flushHeaders()
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS)
    keepAlive.unref()
    const stream = { res, keepAlive }
    this.stream = stream
    res.once('close', () => {
      clearInterval(keepAlive)
      if (this.stream === stream) this.stream = undefined
    })
    return true
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const related = isResponse(message) ? (message as { id: RequestId }).id : options?.relatedRequestId
    if (related === undefined) {
      // Unrelated to any request: only the GET stream can carry it; without one it is dropped, as the spec allows.
      this.stream?.res.write(sse(JSON.stringify(message)))
      return
    }
    const exchange = this.inFlight.get(related)
    if (!exchange) return
    if (!isResponse(message)) return exchange.event(JSON.stringify(message))
    this.inFlight.delete(related)
    exchange.finish(serialize(message, this.known))
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const { res } of this.inFlight.values()) res.destroy()
    this.inFlight.clear()
    if (this.stream) {
      clearInterval(this.stream.keepAlive)
      this.stream.res.end()
      this.stream = undefined
    }
    this.onclose?.()
  }
}
