import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { InitializeRequestSchema, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import type { Logger } from 'pino'
import type { Urls } from '../config/index.js'
import type { Snapshot } from '../snapshot/index.js'
import type { McpSessionRecord, McpSessionStore } from '../store/index.js'
import { ToolResultCache } from './result-cache.js'
import { Session, type McpObserver, type SessionContext } from './session.js'
import { methodLabel } from './transport.js'
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
  type AnswerHeaders,
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
  /** Session records, shared by every node. */
  sessions: McpSessionStore
  /** Told what the server does (the metrics). */
  observer?: McpObserver
}

export interface McpStats {
  /** Sessions this node holds an SDK server for (the store holds every live session of the cluster). */
  live: number
  /** Requests accepted and not answered yet, in every session. */
  inFlight: number
  created: number
  expired: number
  refusedFull: number
}

/** At most this often a node writes a session's last use to the store (a write per request would cost too much). */
const TOUCH_EVERY_MS = 30_000

/**
 * The streamable HTTP endpoint (MCP 2025-06-18, basic/transports): HTTP-level rules first (Origin, Accept,
 * Content-Type, JSON, no batches, session id, protocol version), then the message goes to its session. Sessions are
 * records in the store, so any node serves any session: a node that has not served one yet builds its SDK server
 * from the record. Sessions expire when idle and are bounded in number, cluster-wide, so anonymous clients cannot
 * exhaust memory.
 */
export class McpEndpoint {
  /** SDK servers of the sessions this node has served; a record's absence from the store ends them here too. */
  private readonly local = new Map<string, Session>()
  private readonly restoring = new Map<string, Promise<Session>>()
  private readonly sweeper: NodeJS.Timeout
  private readonly counts = { created: 0, expired: 0, refusedFull: 0 }
  private readonly origins: Set<string>
  private readonly ctx: SessionContext
  private readonly touchEveryMs: number

  constructor(private readonly o: McpOptions) {
    this.origins = new Set(o.allowedOrigins)
    this.ctx = { urls: o.urls, current: o.current, version: o.version, results: new ToolResultCache(), log: o.log, store: o.sessions, observer: o.observer }
    this.touchEveryMs = Math.min(TOUCH_EVERY_MS, o.sessionIdleMs / 10)
    this.sweeper = setInterval(() => void this.sweep(), Math.max(1000, Math.min(60_000, o.sessionIdleMs / 4)))
    this.sweeper.unref()
  }

  get stats(): McpStats {
    let inFlight = 0
    for (const session of this.local.values()) inFlight += session.transport.pending
    return { live: this.local.size, inFlight, ...this.counts }
  }

  async post(req: IncomingMessage, res: ServerResponse, body: Buffer, headers: AnswerHeaders = {}): Promise<void> {
    const early = this.checkOrigin(req, res) ?? checkAccept(req, 'application/json', 'text/event-stream') ?? checkJsonBody(req)
    if (early) return refuse(res, early, headers)
    const parsed = parseMessage(body)
    if ('refusal' in parsed) return refuse(res, parsed.refusal, headers)
    const { message } = parsed
    if (isInitialize(message)) return this.initialize(req, res, message, headers)
    const found = await this.sessionFor(req)
    if (!(found instanceof Session)) return refuse(res, found, headers)
    const extra = { requestInfo: { headers: req.headers } }
    if (!isRequest(message)) {
      found.transport.deliver(message, extra)
      res.writeHead(202, headers).end()
      return
    }
    const prepared = prepareRequest(message)
    if ('error' in prepared) {
      this.ctx.observer?.request(methodLabel(message.method), false)
      return answerError(res, prepared.error, { ...headers, 'mcp-session-id': found.id })
    }
    if (!found.transport.request(prepared.request, res, extra, headers)) {
      refuse(res, refusal(400, -32600, `Invalid Request: a request with id ${JSON.stringify(message.id)} is already in progress in this session.`), headers)
    }
  }

  /** The stream for messages that answer no request: resource updates and log messages. */
  async get(req: IncomingMessage, res: ServerResponse, headers: AnswerHeaders = {}): Promise<void> {
    const found = this.checkOrigin(req, res) ?? checkAccept(req, 'text/event-stream') ?? (await this.sessionFor(req))
    if (!(found instanceof Session)) return refuse(res, found, headers)
    if (!found.transport.openStream(res, headers)) refuse(res, refusal(409, -32000, 'Conflict: this session already has an open stream.'), headers)
  }

  async delete(req: IncomingMessage, res: ServerResponse, headers: AnswerHeaders = {}): Promise<void> {
    const found = this.checkOrigin(req, res) ?? (await this.sessionFor(req))
    if (!(found instanceof Session)) return refuse(res, found, headers)
    await this.o.sessions.delete(found.id)
    await this.dropLocal(found.id)
    res.writeHead(204, headers).end()
  }

  /** CORS preflight for browser clients on an allowed origin. */
  preflight(req: IncomingMessage, res: ServerResponse, headers: AnswerHeaders = {}): void {
    const refused = this.checkOrigin(req, res)
    if (refused) return refuse(res, refused, headers)
    res.writeHead(204, {
      ...headers,
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': 'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
      'access-control-max-age': '86400'
    })
    res.end()
  }

  /**
   * Tells every session with a notification stream on this node about a new data version. Every node hears of the
   * version, and what each session subscribed to is read from the store, wherever it subscribed.
   */
  dataChanged(next: Snapshot, previous: Snapshot | undefined): void {
    if (!previous) return
    for (const session of this.local.values()) {
      if (!session.transport.streaming) continue
      this.notify(session, next, previous).catch((err: unknown) => this.o.log.warn({ err, session: session.id }, 'could not notify an MCP session'))
    }
  }

  /** Ends this node's part of every session; the sessions themselves live on in the store for other nodes. */
  async close(): Promise<void> {
    clearInterval(this.sweeper)
    await Promise.all([...this.local.keys()].map((id) => this.dropLocal(id)))
  }

  private async notify(session: Session, next: Snapshot, previous: Snapshot): Promise<void> {
    const record = await this.o.sessions.get(session.id)
    if (!record) return this.dropLocal(session.id)
    await session.dataChanged(record, next, previous)
  }

  private async initialize(req: IncomingMessage, res: ServerResponse, message: JSONRPCRequest, headers: AnswerHeaders): Promise<void> {
    if (sessionIdOf(req) !== undefined) return refuse(res, refusal(400, -32600, 'Invalid Request: initialize starts a new session; send it without Mcp-Session-Id.'), headers)
    // Checked before a session exists, so a request that cannot be taken does not leave one behind.
    const prepared = prepareRequest(message)
    if ('error' in prepared) return answerError(res, prepared.error, headers)
    const init = InitializeRequestSchema.safeParse(prepared.request)
    if (!init.success) return answerError(res, { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Invalid params for initialize: ${init.error.message}` } }, headers)
    const record = newRecord(init.data.params)
    if (!(await this.createRecord(record))) {
      this.counts.refusedFull++
      return refuse(res, refusal(503, -32000, 'Too many open MCP sessions; try again later.', { 'retry-after': '60' }), headers)
    }
    const session = await Session.open(this.ctx, record.id)
    this.keepLocal(session)
    this.counts.created++
    session.transport.request(prepared.request, res, { requestInfo: { headers: req.headers } }, headers)
  }

  /** Stores a new session under the cluster-wide cap; idle sessions are expired first when the cap is reached. */
  private async createRecord(record: McpSessionRecord): Promise<boolean> {
    if ((await this.o.sessions.create(record, this.o.maxSessions)) === 'created') return true
    await this.expireIdle(Date.now())
    return (await this.o.sessions.create(record, this.o.maxSessions)) === 'created'
  }

  private async sessionFor(req: IncomingMessage): Promise<Session | Refusal> {
    const id = sessionIdOf(req)
    if (id === undefined) return refusal(400, -32000, 'Bad Request: Mcp-Session-Id header is required; send initialize first.')
    const now = Date.now()
    const record = await this.liveRecord(id, now)
    if (!record) {
      await this.dropLocal(id)
      return refusal(404, -32001, 'Session not found: it ended or expired; start a new one with initialize.')
    }
    const refused = checkProtocolVersion(req)
    if (refused) return refused
    const session = this.local.get(id) ?? (await this.restore(record))
    session.touch()
    if (now - record.lastSeen >= this.touchEveryMs) await this.o.sessions.touch(id, now)
    return session
  }

  /** The session's record, unless it ended or has been idle too long; expiry does not wait for the sweep. */
  private async liveRecord(id: string, now: number): Promise<McpSessionRecord | undefined> {
    const record = await this.o.sessions.get(id)
    if (!record || now - record.lastSeen < this.o.sessionIdleMs || this.local.get(id)?.transport.busy) return record
    // Idle by this record; the store decides (another node may have used it since), then it is read again.
    await this.expireIdle(now)
    return this.o.sessions.get(id)
  }

  /** Builds the SDK server of a session this node has not served yet; concurrent requests share the work. */
  private restore(record: McpSessionRecord): Promise<Session> {
    let pending = this.restoring.get(record.id)
    if (!pending) {
      pending = Session.restore(this.ctx, record)
        .then((session) => this.keepLocal(session))
        .finally(() => this.restoring.delete(record.id))
      this.restoring.set(record.id, pending)
    }
    return pending
  }

  private keepLocal(session: Session): Session {
    session.transport.onclose = () => {
      if (this.local.get(session.id) === session) this.local.delete(session.id)
    }
    this.local.set(session.id, session)
    return session
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

  /**
   * Expires idle sessions in the store (any node may), keeps sessions with a stream on this node alive there, and
   * lets go of the SDK servers of sessions this node no longer serves.
   */
  private async sweep(): Promise<void> {
    try {
      const now = Date.now()
      for (const session of [...this.local.values()]) {
        if (session.transport.streaming) await this.keepAlive(session, now)
        else if (!session.transport.busy && now - session.lastUsed >= this.o.sessionIdleMs) await this.dropLocal(session.id)
      }
      await this.expireIdle(now)
    } catch (err) {
      this.o.log.error({ err }, 'sweeping MCP sessions failed')
    }
  }

  /** An open stream keeps its session alive cluster-wide; a session ended elsewhere closes its stream here. */
  private async keepAlive(session: Session, now: number): Promise<void> {
    if (await this.o.sessions.get(session.id)) await this.o.sessions.touch(session.id, now)
    else await this.dropLocal(session.id)
  }

  private async expireIdle(now: number): Promise<void> {
    const expired = await this.o.sessions.expireIdle(now - this.o.sessionIdleMs)
    this.counts.expired += expired.length
    for (const id of expired) await this.dropLocal(id)
  }

  private async dropLocal(id: string): Promise<void> {
    const session = this.local.get(id)
    if (!session) return
    this.local.delete(id)
    await session.close()
  }
}

/** What a new session's record holds: the negotiated version (the SDK's rule) and what the client said it is. */
function newRecord(params: { protocolVersion: string; capabilities: Record<string, unknown>; clientInfo: McpSessionRecord['clientInfo'] }): McpSessionRecord {
  const now = Date.now()
  return {
    id: randomBytes(32).toString('base64url'),
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION,
    clientInfo: params.clientInfo,
    clientCapabilities: params.capabilities,
    // Every level until the client asks for fewer (logging/setLevel).
    logLevel: 'debug',
    subscriptions: [],
    createdAt: now,
    lastSeen: now
  }
}
