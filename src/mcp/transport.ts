import type { ServerResponse } from 'node:http'
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ErrorCode, type JSONRPCMessage, type JSONRPCNotification, type JSONRPCRequest, type MessageExtraInfo, type RequestId } from '@modelcontextprotocol/sdk/types.js'
import type { AnswerHeaders } from './wire.js'

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

/** The longest a request may wait for its answer before the transport answers it with an error itself. */
const ANSWER_WITHIN_MS = 30_000

export interface TransportOptions {
  /** Gives the JSON of a result when it is already known (see result-cache.ts). */
  known?: KnownJson
  answerWithinMs?: number
  /** Told of every request answered: its method (see methodLabel) and whether the answer is a result. */
  answered?: (method: string, ok: boolean) => void
}

/** Reported through onerror when the transport had to answer a request itself: a fault of the server, not the client. */
export class UnansweredRequest extends Error {}

/** A request the transport still owes an answer: where it goes, and what to undo once it is answered. */
interface Pending {
  exchange: Exchange
  deadline: NodeJS.Timeout
  onClose: () => void
  method: string
}

/** The methods this server answers; any other is counted as `other`, so a client cannot grow the label set. */
const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'logging/setLevel'
])

export const methodLabel = (method: string): string => (KNOWN_METHODS.has(method) ? method : 'other')

/**
 * The SDK's Transport for one MCP session over plain Node HTTP responses. The SDK's own streamable HTTP transport
 * converts every request to web streams and answers with SSE (about 0.15x the throughput of a plain GET here) and
 * its JSON mode leaks per request (typescript-sdk issue 2559); this one writes to the response directly and forgets
 * each exchange as soon as it is answered or its client goes away. HTTP-level checks happen before a message gets
 * here (see endpoint.ts).
 *
 * The SDK leaves a request unanswered when it fails the SDK's own schema (it only reports it to onerror), and a
 * handler may never settle; so that no request waits forever, each one is answered with -32603 when the server has
 * not answered it within `answerWithinMs`, or at once when the server throws while taking it.
 */
export class SessionTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  private readonly inFlight = new Map<RequestId, Pending>()
  /** Requests the endpoint itself replays (restoring a session): resolved by their answer, which goes nowhere. */
  private readonly replays = new Map<RequestId, () => void>()
  private stream: { res: ServerResponse; keepAlive: NodeJS.Timeout } | undefined
  private closed = false
  private readonly known: KnownJson
  private readonly answerWithinMs: number
  private readonly answered: (method: string, ok: boolean) => void

  constructor(
    readonly sessionId: string,
    o: TransportOptions = {}
  ) {
    this.known = o.known ?? (() => undefined)
    this.answerWithinMs = o.answerWithinMs ?? ANSWER_WITHIN_MS
    this.answered = o.answered ?? (() => {})
  }

  async start(): Promise<void> {}

  /** Requests being answered, or an open notification stream, keep a session from counting as idle. */
  get busy(): boolean {
    return this.inFlight.size > 0 || this.stream !== undefined
  }

  /** Whether a GET stream is open on this node for messages unrelated to a request. */
  get streaming(): boolean {
    return this.stream !== undefined
  }

  /** How many requests are waiting for their answer. */
  get pending(): number {
    return this.inFlight.size
  }

  /**
   * Hands a request to the server; its reply goes to `res`, with `headers` besides the transport's own. False when a
   * request with that id is still in flight.
   */
  request(message: JSONRPCRequest, res: ServerResponse, extra: MessageExtraInfo, headers: AnswerHeaders = {}): boolean {
    const { id } = message
    if (this.inFlight.has(id)) return false
    const pending: Pending = {
      exchange: new Exchange(res, { ...headers, 'mcp-session-id': this.sessionId }),
      deadline: setTimeout(() => this.giveUp(id, pending), this.answerWithinMs).unref(),
      // A client that hangs up does not cancel the request (the spec says so), but nobody is left to answer.
      onClose: () => this.settle(id, pending),
      method: methodLabel(message.method)
    }
    this.inFlight.set(id, pending)
    res.once('close', pending.onClose)
    try {
      this.onmessage?.(message, extra)
    } catch (err) {
      this.fail(id, pending, `Internal error: the server could not take the request (${errorMessage(err)}).`)
    }
    return true
  }

  /** Hands the server a request of our own whose answer nobody reads; resolves once the server has answered it. */
  replay(message: JSONRPCRequest): Promise<void> {
    return new Promise((resolve) => {
      this.replays.set(message.id, resolve)
      this.onmessage?.(message, {})
    })
  }

  /** Notifications and responses from the client: nothing is owed back on this HTTP request. */
  deliver(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    try {
      this.onmessage?.(message, extra)
    } catch (err) {
      // The SDK throws while reporting some messages it ignores (JSON.stringify of a very deep one); still ignored.
      this.onerror?.(new Error(`could not take a ${'method' in message ? 'notification' : 'response'}: ${errorMessage(err)}`))
    }
  }

  /** The GET stream, where messages unrelated to a request go (resource updates, log messages). One at a time. */
  openStream(res: ServerResponse, headers: AnswerHeaders = {}): boolean {
    if (this.stream) return false
    res.writeHead(200, { ...headers, ...SSE_HEADERS, 'mcp-session-id': this.sessionId })
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
    const replayed = isResponse(message) ? this.replays.get(related) : undefined
    if (replayed) {
      this.replays.delete(related)
      return replayed()
    }
    const pending = this.inFlight.get(related)
    if (!pending) return
    if (!isResponse(message)) return pending.exchange.event(JSON.stringify(message))
    this.settle(related, pending)
    this.answered(pending.method, 'result' in message)
    pending.exchange.finish(serialize(message, this.known))
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const [id, pending] of this.inFlight) {
      this.settle(id, pending)
      pending.exchange.res.destroy()
    }
    if (this.stream) {
      clearInterval(this.stream.keepAlive)
      this.stream.res.end()
      this.stream = undefined
    }
    this.onclose?.()
  }

  /**
   * Unanswered in time: the client gets an error, and the server is told the request is cancelled, so that a late
   * answer is not sent to a later request that reuses the id.
   */
  private giveUp(id: RequestId, pending: Pending): void {
    this.fail(id, pending, `Internal error: the server did not answer within ${this.answerWithinMs / 1000} s.`)
    const cancelled: JSONRPCNotification = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'not answered in time' } }
    this.deliver(cancelled, {})
  }

  private fail(id: RequestId, pending: Pending, message: string): void {
    if (!this.settle(id, pending)) return
    this.answered(pending.method, false)
    pending.exchange.finish([JSON.stringify({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message } })])
    this.onerror?.(new UnansweredRequest(`request ${JSON.stringify(id)}: ${message}`))
  }

  /** Forgets a request: its entry, its deadline and its close listener. False when it was already forgotten. */
  private settle(id: RequestId, pending: Pending): boolean {
    if (this.inFlight.get(id) !== pending) return false
    this.inFlight.delete(id)
    clearTimeout(pending.deadline)
    pending.exchange.res.off('close', pending.onClose)
    return true
  }
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err))
