import type { IncomingMessage, ServerResponse } from 'node:http'
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import type { Logger } from 'pino'
import type { Urls } from '../config/index.js'
import type { Snapshot } from '../snapshot/index.js'
import { ToolResultCache } from './result-cache.js'
import { Session } from './session.js'
import {
  answerError,
  checkAccept,
  checkJsonBody,
  checkProtocolVersion,
  isInitialize,
  isRequest,
  originOf,
  parseMessage,
  prepareRequest,
  refusal,
  refuse,
  sessionIdOf,
  type Refusal
} from './wire.js'

export interface McpOptions {
  urls: Urls
  current(): Snapshot
  log: Logger
  /** Browser origins allowed to call; requests without an Origin header (non-browser clients) are always allowed. */
  allowedOrigins: readonly string[]
  maxSessions: number
  sessionIdleMs: number
  version: string
}

export interface McpStats {
  live: number
  /** Requests accepted and not answered yet, in every session. */
  inFlight: number
  created: number
  expired: number
  refusedFull: number
}

/**
 * The streamable HTTP endpoint (MCP 2025-06-18, basic/transports): HTTP-level rules first (Origin, Accept,
 * Content-Type, JSON, no batches, session id, protocol version), then the message goes to its session. Sessions
 * expire when idle and are bounded in number, so anonymous clients cannot exhaust memory.
 */
export class McpEndpoint {
  private readonly sessions = new Map<string, Session>()
  private readonly sweeper: NodeJS.Timeout
  private readonly counts = { created: 0, expired: 0, refusedFull: 0 }
  private readonly origins: Set<string>
  private readonly results = new ToolResultCache()

  constructor(private readonly o: McpOptions) {
    this.origins = new Set(o.allowedOrigins)
    this.sweeper = setInterval(() => this.expireIdle(), Math.max(1000, Math.min(60_000, o.sessionIdleMs / 4)))
    this.sweeper.unref()
  }

  get stats(): McpStats {
    let inFlight = 0
    for (const session of this.sessions.values()) inFlight += session.transport.pending
    return { live: this.sessions.size, inFlight, ...this.counts }
  }

  async post(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const early = this.checkOrigin(req, res) ?? checkAccept(req, 'application/json', 'text/event-stream') ?? checkJsonBody(req)
    if (early) return refuse(res, early)
    const parsed = parseMessage(body)
    if ('refusal' in parsed) return refuse(res, parsed.refusal)
    const { message } = parsed
    if (isInitialize(message)) return this.initialize(req, res, message)
    const found = this.sessionFor(req)
    if (!(found instanceof Session)) return refuse(res, found)
    found.touch()
    const extra = { requestInfo: { headers: req.headers } }
    if (!isRequest(message)) {
      found.transport.deliver(message, extra)
      res.writeHead(202).end()
      return
    }
    const prepared = prepareRequest(message)
    if ('error' in prepared) return answerError(res, prepared.error, { 'mcp-session-id': found.id })
    if (!found.transport.request(prepared.request, res, extra)) {
      refuse(res, refusal(400, -32600, `Invalid Request: a request with id ${JSON.stringify(message.id)} is already in progress in this session.`))
    }
  }

  /** The stream for messages that answer no request: resource updates and log messages. */
  get(req: IncomingMessage, res: ServerResponse): void {
    const found = this.checkOrigin(req, res) ?? checkAccept(req, 'text/event-stream') ?? this.sessionFor(req)
    if (!(found instanceof Session)) return refuse(res, found)
    found.touch()
    if (!found.transport.openStream(res)) refuse(res, refusal(409, -32000, 'Conflict: this session already has an open stream.'))
  }

  async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const found = this.checkOrigin(req, res) ?? this.sessionFor(req)
    if (!(found instanceof Session)) return refuse(res, found)
    await this.end(found)
    res.writeHead(204).end()
  }

  /** CORS preflight for browser clients on an allowed origin. */
  preflight(req: IncomingMessage, res: ServerResponse): void {
    const refused = this.checkOrigin(req, res)
    if (refused) return refuse(res, refused)
    res.writeHead(204, {
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': 'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
      'access-control-max-age': '86400'
    })
    res.end()
  }

  /** Tells every session about a new data version. */
  dataChanged(next: Snapshot, previous: Snapshot | undefined): void {
    if (!previous) return
    for (const session of this.sessions.values()) {
      session.dataChanged(next, previous).catch((err: unknown) => this.o.log.warn({ err, session: session.id }, 'could not notify an MCP session'))
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
    await Promise.all([...this.sessions.values()].map((s) => this.end(s)))
  }

  private async initialize(req: IncomingMessage, res: ServerResponse, message: JSONRPCRequest): Promise<void> {
    if (sessionIdOf(req) !== undefined) return refuse(res, refusal(400, -32600, 'Invalid Request: initialize starts a new session; send it without Mcp-Session-Id.'))
    // Checked before a session exists, so a request that cannot be taken does not leave one behind.
    const prepared = prepareRequest(message)
    if ('error' in prepared) return answerError(res, prepared.error)
    if (this.sessions.size >= this.o.maxSessions) this.expireIdle()
    if (this.sessions.size >= this.o.maxSessions) {
      this.counts.refusedFull++
      return refuse(res, refusal(503, -32000, 'Too many open MCP sessions; try again later.', { 'retry-after': '60' }))
    }
    const session = new Session({ urls: this.o.urls, current: this.o.current, version: this.o.version, results: this.results, log: this.o.log })
    await session.start()
    session.transport.onclose = () => this.sessions.delete(session.id)
    this.sessions.set(session.id, session)
    this.counts.created++
    session.transport.request(prepared.request, res, { requestInfo: { headers: req.headers } })
  }

  private sessionFor(req: IncomingMessage): Session | Refusal {
    const id = sessionIdOf(req)
    if (id === undefined) return refusal(400, -32000, 'Bad Request: Mcp-Session-Id header is required; send initialize first.')
    const session = this.sessions.get(id)
    if (!session || this.expireIfIdle(session, Date.now())) return refusal(404, -32001, 'Session not found: it ended or expired; start a new one with initialize.')
    return checkProtocolVersion(req) ?? session
  }

  /**
   * DNS-rebinding defence (transports.mdx, Security Warning): a browser request from a foreign origin is refused.
   * An allowed origin gets the CORS headers it needs to read the answer and the session id.
   */
  private checkOrigin(req: IncomingMessage, res: ServerResponse): Refusal | undefined {
    const origin = originOf(req)
    if (origin === undefined) return undefined
    if (!this.origins.has(origin)) return refusal(403, -32000, `Forbidden: origin ${origin} is not allowed.`)
    res.setHeader('access-control-allow-origin', origin)
    res.setHeader('access-control-expose-headers', 'Mcp-Session-Id')
    res.setHeader('vary', 'Origin')
    return undefined
  }

  private expireIdle(): void {
    const now = Date.now()
    for (const session of this.sessions.values()) this.expireIfIdle(session, now)
  }

  /** Expiry does not wait for the sweep: a session idle too long is gone the moment it is looked up. */
  private expireIfIdle(session: Session, now: number): boolean {
    if (session.idleSince(now) < this.o.sessionIdleMs) return false
    this.counts.expired++
    void this.end(session)
    return true
  }

  private async end(session: Session): Promise<void> {
    this.sessions.delete(session.id)
    await session.close()
  }
}
