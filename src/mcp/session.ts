import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { LoggingLevelSchema, SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js'
import type { Logger } from 'pino'
import type { Urls } from '../config/index.js'
import type { Snapshot } from '../snapshot/index.js'
import type { McpSessionRecord, McpSessionStore } from '../store/index.js'
import { onRequest } from './handlers.js'
import { registerPrompts } from './prompts.js'
import { changedUris, registerResources } from './resources.js'
import type { ToolResultCache } from './result-cache.js'
import { registerTools } from './tools.js'
import { SessionTransport, UnansweredRequest } from './transport.js'

/** RFC 5424 order, least severe first, as the spec lists the levels. */
const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options

/** The id of the initialize request a node replays to itself when it takes up a session another node created. */
const RESTORE_ID = '\u0000restore'

export interface SessionContext {
  urls: Urls
  current(): Snapshot
  /** Version of the service, for serverInfo. */
  version: string
  /** Shared by every session: the same call gives the same result for one data version. */
  results: ToolResultCache
  log: Logger
  /** Where the session's state lives, so that any node can serve it. */
  store: McpSessionStore
  /** Absent when nothing records what the server does (metrics off): then nothing is timed or counted. */
  observer?: McpObserver
}

/** Told what the MCP server does on this node (the metrics). Methods outside the known list count as `other`. */
export interface McpObserver {
  request(method: string, ok: boolean): void
  toolCall(tool: string, ok: boolean, seconds: number): void
  notification(type: 'resources/updated' | 'message'): void
}

/**
 * One MCP session on this node: the SDK server (protocol, capabilities) over its own transport. What the session
 * must keep beyond one request (log level, resource subscriptions, last use) is in the store, not here, so any node
 * can serve any session and it survives the node that created it.
 */
export class Session {
  readonly transport: SessionTransport
  readonly server: Server
  /** When this node last served the session (the store keeps the cluster's last use). */
  lastUsed = Date.now()

  constructor(
    private readonly ctx: SessionContext,
    readonly id: string
  ) {
    const { observer } = ctx
    this.transport = new SessionTransport(id, { known: (result) => ctx.results.jsonOf(result), answered: observer && ((method, ok) => observer.request(method, ok)) })
    const snapshot = ctx.current()
    this.server = new Server(
      { name: 'reviews-service', title: `Reviews of ${snapshot.business.name}`, version: ctx.version },
      {
        capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {} },
        instructions: instructions(snapshot, ctx.urls)
      }
    )
    // The SDK reports here what it ignores from a client (malformed notifications, responses to nothing): worth a
    // debug line. A request the transport had to answer itself is a fault of the server.
    this.server.onerror = (err) => ctx.log[err instanceof UnansweredRequest ? 'warn' : 'debug']({ err, session: id }, 'MCP session error')
    registerTools(this.server, ctx.current, ctx.results, observer && ((tool, ok, seconds) => observer.toolCall(tool, ok, seconds)))
    registerResources(this.server, {
      urls: ctx.urls,
      current: ctx.current,
      subscribe: (uri) => this.change({ subscribe: uri }),
      unsubscribe: (uri) => this.change({ unsubscribe: uri })
    })
    registerPrompts(this.server, ctx.current)
    // Replaces the SDK's own handler, which answers an unknown level with -32603 instead of -32602.
    onRequest(this.server, SetLevelRequestSchema, async ({ params }) => {
      await this.change({ logLevel: params.level })
      return {}
    })
  }

  /** A session this node starts: the client's initialize request comes next, through the transport. */
  static async open(ctx: SessionContext, id: string): Promise<Session> {
    const session = new Session(ctx, id)
    await session.server.connect(session.transport)
    return session
  }

  /** A session another node started (or this node before a restart): the SDK server is brought to where it was. */
  static async restore(ctx: SessionContext, record: McpSessionRecord): Promise<Session> {
    const session = await Session.open(ctx, record.id)
    const params = { protocolVersion: record.protocolVersion, capabilities: record.clientCapabilities, clientInfo: record.clientInfo }
    await session.transport.replay({ jsonrpc: '2.0', id: RESTORE_ID, method: 'initialize', params })
    return session
  }

  touch(): void {
    this.lastUsed = Date.now()
  }

  /** Tells the client what changed in a new data version: resource updates it subscribed to, and a log message. */
  async dataChanged(record: McpSessionRecord, next: Snapshot, previous: Snapshot): Promise<void> {
    for (const uri of changedUris(record.subscriptions, this.ctx.urls, next, previous)) {
      await this.server.sendResourceUpdated({ uri })
      this.ctx.observer?.notification('resources/updated')
    }
    if (SEVERITY.indexOf('info') < SEVERITY.indexOf(record.logLevel as LoggingLevel)) return
    const data = { message: 'The published reviews changed.', data_version: next.version, review_count: next.index.reviews.length, updated_at: next.changedAt.toISOString() }
    await this.server.notification({ method: 'notifications/message', params: { level: 'info', logger: 'reviews', data } })
    this.ctx.observer?.notification('message')
  }

  close(): Promise<void> {
    return this.server.close()
  }

  private async change(change: Parameters<McpSessionStore['update']>[1]): Promise<void> {
    await this.ctx.store.update(this.id, change)
  }
}

function instructions(s: Snapshot, urls: Urls): string {
  const b = s.business
  const where = [b.address.locality, b.address.region].filter(Boolean).join(', ')
  const range = s.index.dates.length ? ` dated ${s.index.dates.at(-1)} to ${s.index.dates[0]}` : ''
  return [
    `Verified customer reviews of ${b.name}${b.category ? `, ${b.category.toLowerCase()}` : ''}${where ? ` in ${where}` : ''}: ${s.index.reviews.length} reviews${range}, average ${s.aggregate.rating_value ?? 'n/a'} of 5 stars.`,
    `The data was last updated ${s.changedAt.toISOString()} and is refreshed within seconds of every import; subscribe to a resource to be told when it changes.`,
    'Tools (all read-only): get_business (details, staff, services, rating) first; search_reviews to find reviews by stars, dates, words, staff or service; get_reviews_since for what is new; get_review for one review by id;',
    'get_aspect_sentiment, get_technician, get_service, get_faq and get_insights_summary for what reviewers say, computed locally from the review text.',
    `Cite review ids; each review is also at ${urls.base}/reviews/<id>. Resources: ${urls.reviews}, ${urls.insights}, ${urls.feedJson}, ${urls.feedAtom}.`
  ].join(' ')
}
