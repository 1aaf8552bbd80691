import pg from 'pg'

/** NOTIFY channels: the payload is the new data version, or the id of a changed or deleted MCP session. */
export const DATA_CHANNEL = 'reviews_data_version'
export const SESSION_CHANNEL = 'reviews_mcp_session'

const FIRST_RETRY_MS = 100
const MAX_RETRY_MS = 5000

export interface ListenerEvents {
  notification(channel: string, payload: string): void
  /** The connection is (again) listening; anything may have changed while it was not. */
  connected(): void
  /** The connection was lost: until connected() nothing is heard. */
  lost(): void
}

/**
 * The one connection of a store that LISTENs, outside the pool (a pooled connection would be handed to queries and
 * its LISTEN would end when released). A lost connection is replaced, retrying with backoff until close().
 */
export class ChangeListener {
  private client: pg.Client | undefined
  private retryMs = FIRST_RETRY_MS
  private retryTimer: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly events: ListenerEvents
  ) {}

  get connected(): boolean {
    return this.client !== undefined
  }

  /** First connection attempt; on failure the retries go on in the background. */
  async start(): Promise<void> {
    await this.connect()
  }

  /**
   * A query on the listening connection itself, so that a successful answer also proves the LISTEN alive. A failed
   * one drops the connection and reconnects: it may be half-open, which TCP alone would notice only after minutes.
   */
  async query<R extends pg.QueryResultRow>(sql: string): Promise<R[]> {
    const client = this.client
    if (!client) throw new Error('not connected')
    try {
      return (await client.query<R>(sql)).rows
    } catch (err) {
      this.drop(client)
      throw err
    }
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retryTimer)
    const client = this.client
    this.client = undefined
    await client?.end()
  }

  private async connect(): Promise<void> {
    // query_timeout is the client's own limit: it also fires when the server never answers at all.
    const client = new pg.Client({ ...this.config, query_timeout: Number(this.config.statement_timeout) + 1000 })
    client.on('error', () => this.drop(client))
    client.on('end', () => this.drop(client))
    client.on('notification', (n) => this.events.notification(n.channel, n.payload ?? ''))
    try {
      await client.connect()
      await client.query(`LISTEN ${DATA_CHANNEL}; LISTEN ${SESSION_CHANNEL}`)
    } catch {
      client.end().catch(() => {})
      this.retry()
      return
    }
    if (this.closed) {
      client.end().catch(() => {})
      return
    }
    this.client = client
    this.retryMs = FIRST_RETRY_MS
    this.events.connected()
  }

  private drop(client: pg.Client): void {
    if (this.client !== client) return
    this.client = undefined
    // Not awaited: on a half-open connection the goodbye may never be answered.
    client.end().catch(() => {})
    this.events.lost()
    this.retry()
  }

  private retry(): void {
    if (this.closed) return
    // Jitter, so nodes that lost the server together do not all come back in the same millisecond.
    const wait = this.retryMs * (0.5 + Math.random() / 2)
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS)
    this.retryTimer = setTimeout(() => void this.connect(), wait)
    this.retryTimer.unref()
  }
}
