import { randomBytes } from 'node:crypto'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { LoggingLevelSchema, SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js'
import type { Logger } from 'pino'
import type { Urls } from '../config/index.js'
import type { Snapshot } from '../snapshot/index.js'
import { onRequest } from './handlers.js'
import { registerPrompts } from './prompts.js'
import { changedUris, registerResources } from './resources.js'
import type { ToolResultCache } from './result-cache.js'
import { registerTools } from './tools.js'
import { SessionTransport, UnansweredRequest } from './transport.js'

/** RFC 5424 order, least severe first, as the spec lists the levels. */
const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options

export interface SessionContext {
  urls: Urls
  current(): Snapshot
  /** Version of the service, for serverInfo. */
  version: string
  /** Shared by every session: the same call gives the same result for one data version. */
  results: ToolResultCache
  log: Logger
}

/** One MCP session: the SDK server (protocol, capabilities, logging levels) over its own transport. */
export class Session {
  readonly id = randomBytes(32).toString('base64url')
  readonly transport: SessionTransport
  readonly server: Server
  private readonly subscriptions = new Set<string>()
  /** The least severe level the client wants to hear (logging/setLevel); every level until it asks. */
  private logLevel: LoggingLevel = 'debug'
  lastSeen = Date.now()

  constructor(private readonly ctx: SessionContext) {
    this.transport = new SessionTransport(this.id, { known: (result) => ctx.results.jsonOf(result) })
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
    this.server.onerror = (err) => ctx.log[err instanceof UnansweredRequest ? 'warn' : 'debug']({ err, session: this.id }, 'MCP session error')
    registerTools(this.server, ctx.current, ctx.results)
    registerResources(this.server, { urls: ctx.urls, current: ctx.current, subscriptions: this.subscriptions })
    registerPrompts(this.server, ctx.current)
    // Replaces the SDK's own handler, which answers an unknown level with -32603 instead of -32602.
    onRequest(this.server, SetLevelRequestSchema, ({ params }) => {
      this.logLevel = params.level
      return {}
    })
  }

  async start(): Promise<void> {
    await this.server.connect(this.transport)
  }

  touch(): void {
    this.lastSeen = Date.now()
  }

  idleSince(now: number): number {
    return this.transport.busy ? 0 : now - this.lastSeen
  }

  /** Tells the client what changed in a new data version: resource updates it subscribed to, and a log message. */
  async dataChanged(next: Snapshot, previous: Snapshot): Promise<void> {
    for (const uri of changedUris(this.subscriptions, this.ctx.urls, next, previous)) await this.server.sendResourceUpdated({ uri })
    await this.log('info', { message: 'The published reviews changed.', data_version: next.version, review_count: next.index.reviews.length, updated_at: next.changedAt.toISOString() })
  }

  private async log(level: LoggingLevel, data: unknown): Promise<void> {
    if (SEVERITY.indexOf(level) < SEVERITY.indexOf(this.logLevel)) return
    await this.server.notification({ method: 'notifications/message', params: { level, logger: 'reviews', data } })
  }

  close(): Promise<void> {
    return this.server.close()
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
