import { LRUCache } from 'lru-cache'
import type pg from 'pg'
import type { McpSessionChange, McpSessionRecord, McpSessionStore } from '../types.js'
import { SESSION_CHANNEL } from './listener.js'
import { LOCK_CLASS, statement, transaction } from './pool.js'
import { copySessionRecord } from '../session-records.js'

interface Row {
  id: string
  protocol_version: string
  client_info: McpSessionRecord['clientInfo']
  client_capabilities: Record<string, unknown>
  log_level: string
  subscriptions: string[]
  created_at: number
  last_seen: number
}

const toRecord = (r: Row): McpSessionRecord => ({
  id: r.id,
  protocolVersion: r.protocol_version,
  clientInfo: r.client_info,
  clientCapabilities: r.client_capabilities,
  logLevel: r.log_level,
  // Sorted, as SQLite gives them.
  subscriptions: r.subscriptions.sort(),
  createdAt: r.created_at,
  lastSeen: r.last_seen
})

const CACHED_SESSIONS = 10_000

/**
 * MCP sessions in PostgreSQL, with a node-local cache of records in front. A change or deletion is NOTIFYed in
 * its own transaction, and every node (this one too) drops its copy when it hears it. The cache is only used while
 * the listener is connected, and is emptied whenever it (re)connects: what happened meanwhile was not heard.
 */
export class PostgresSessions implements McpSessionStore {
  private readonly cache = new LRUCache<string, McpSessionRecord>({ max: CACHED_SESSIONS })
  /**
   * Counts invalidations heard. A read that was under way when one arrived may have read the old row, so it must not
   * put it in the cache (it would stay there, stale, until the next change).
   */
  private invalidations = 0

  constructor(
    private readonly pool: pg.Pool,
    private readonly listening: () => boolean
  ) {}

  /** The change signal: `id` changed or went away on some node; null: anything may have. */
  invalidate(id: string | null): void {
    this.invalidations++
    if (id === null) this.cache.clear()
    else this.cache.delete(id)
  }

  async create(record: McpSessionRecord, max: number): Promise<'created' | 'full'> {
    return transaction(this.pool, async (c) => {
      // One creator at a time cluster-wide, so the count cannot be passed by two nodes at once.
      await c.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_CLASS.sessionCount])
      const { rowCount } = await c.query(
        `INSERT INTO mcp_sessions (id, protocol_version, client_info, client_capabilities, log_level, subscriptions, created_at, last_seen)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE (SELECT count(*) FROM mcp_sessions) < $9`,
        [record.id, record.protocolVersion, record.clientInfo, record.clientCapabilities, record.logLevel, record.subscriptions, record.createdAt, record.lastSeen, max]
      )
      return rowCount === 1 ? 'created' : 'full'
    })
  }

  async get(id: string): Promise<McpSessionRecord | undefined> {
    const cached = this.listening() ? this.cache.get(id) : undefined
    if (cached) return copySessionRecord(cached)
    const before = this.invalidations
    const { rows } = await statement<Row>(this.pool, 'SELECT * FROM mcp_sessions WHERE id = $1', [id])
    if (!rows[0]) return undefined
    const record = toRecord(rows[0])
    if (this.listening() && this.invalidations === before) this.cache.set(id, record)
    return copySessionRecord(record)
  }

  /** Not signalled: the last use matters to expireIdle, which reads the table, not to other nodes' caches. */
  async touch(id: string, now: number): Promise<void> {
    await statement(this.pool, 'UPDATE mcp_sessions SET last_seen = GREATEST(last_seen, $2) WHERE id = $1', [id, now])
    const cached = this.cache.get(id)
    if (cached) cached.lastSeen = Math.max(cached.lastSeen, now)
  }

  async update(id: string, change: McpSessionChange): Promise<boolean> {
    const { rows } = await statement<Row>(
      this.pool,
      `WITH changed AS (
         UPDATE mcp_sessions SET
           log_level = COALESCE($2, log_level),
           subscriptions = array_remove(
             CASE WHEN $3::text IS NULL OR $3 = ANY (subscriptions) THEN subscriptions ELSE array_append(subscriptions, $3) END,
             $4::text)
         WHERE id = $1 RETURNING *)
       SELECT changed.*, pg_notify($5, id) FROM changed`,
      [id, change.logLevel ?? null, change.subscribe ?? null, change.unsubscribe ?? null, SESSION_CHANNEL]
    )
    this.invalidate(id)
    return rows.length === 1
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await statement(
      this.pool,
      'WITH gone AS (DELETE FROM mcp_sessions WHERE id = $1 RETURNING id) SELECT pg_notify($2, id) FROM gone',
      [id, SESSION_CHANNEL]
    )
    this.invalidate(id)
    return rowCount === 1
  }

  async expireIdle(before: number): Promise<string[]> {
    const { rows } = await statement<{ id: string }>(
      this.pool,
      'WITH gone AS (DELETE FROM mcp_sessions WHERE last_seen < $1 RETURNING id) SELECT id, pg_notify($2, id) FROM gone',
      [before, SESSION_CHANNEL]
    )
    for (const { id } of rows) this.invalidate(id)
    return rows.map((r) => r.id)
  }

  async count(): Promise<number> {
    const { rows } = await statement<{ n: number }>(this.pool, 'SELECT count(*) AS n FROM mcp_sessions')
    return rows[0]!.n
  }
}
