import type { Database, Statement } from 'better-sqlite3'
import { copySessionRecord } from '../session-records.js'
import type { McpSessionChange, McpSessionRecord, McpSessionStore } from '../types.js'

interface Row {
  id: string
  protocol_version: string
  client_info: string
  client_capabilities: string
  log_level: string
  created_at: number
  last_seen: number
  subscriptions: string
}

const toRecord = (r: Row): McpSessionRecord => ({
  id: r.id,
  protocolVersion: r.protocol_version,
  clientInfo: JSON.parse(r.client_info),
  clientCapabilities: JSON.parse(r.client_capabilities),
  logLevel: r.log_level,
  subscriptions: (JSON.parse(r.subscriptions) as string[]).sort(),
  createdAt: r.created_at,
  lastSeen: r.last_seen
})

/**
 * How stale a cached session record may be. Another process's commit (another worker, the CLI) is only visible by
 * asking the file (PRAGMA data_version: a read transaction and two fcntl locks, about 4 µs in a busy server, 8% of
 * an MCP call); asked at most this often, it costs nothing under load, and a session another worker changed or ended
 * is seen here within this bound, as PostgreSQL's nodes see it within the NOTIFY's milliseconds.
 */
export const SESSION_RECHECK_MS = 20

/**
 * MCP sessions in the SQLite file, with the records this process read kept in memory: the read (a join and two JSON
 * parses) was a tenth of an MCP request's cost. When SQLite's data_version has moved since the cache was last checked
 * (see SESSION_RECHECK_MS) the whole cache is dropped; this connection's own writes drop the records they change at
 * once. Only records are cached, never an absence, so a session another worker just made is found.
 */
export class SqliteSessions implements McpSessionStore {
  private readonly stmt: Record<string, Statement>
  private readonly cache = new Map<string, McpSessionRecord>()
  private dataVersion: unknown
  private checkedAt = -Infinity

  constructor(private readonly db: Database) {
    this.stmt = {
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      count: db.prepare('SELECT COUNT(*) FROM mcp_sessions'),
      insert: db.prepare(
        `INSERT INTO mcp_sessions (id, protocol_version, client_info, client_capabilities, log_level, created_at, last_seen)
         VALUES (@id, @protocolVersion, @clientInfo, @clientCapabilities, @logLevel, @createdAt, @lastSeen)`
      ),
      subscribe: db.prepare('INSERT OR IGNORE INTO mcp_session_subscriptions (session_id, uri) VALUES (?, ?)'),
      unsubscribe: db.prepare('DELETE FROM mcp_session_subscriptions WHERE session_id = ? AND uri = ?'),
      get: db.prepare(
        `SELECT s.*, (SELECT json_group_array(uri) FROM mcp_session_subscriptions WHERE session_id = s.id) AS subscriptions
         FROM mcp_sessions s WHERE id = ?`
      ),
      exists: db.prepare('SELECT 1 FROM mcp_sessions WHERE id = ?'),
      touch: db.prepare('UPDATE mcp_sessions SET last_seen = MAX(last_seen, ?) WHERE id = ?'),
      setLevel: db.prepare('UPDATE mcp_sessions SET log_level = ? WHERE id = ?'),
      delete: db.prepare('DELETE FROM mcp_sessions WHERE id = ?'),
      deleteSubscriptions: db.prepare('DELETE FROM mcp_session_subscriptions WHERE session_id = ?'),
      idle: db.prepare('DELETE FROM mcp_sessions WHERE last_seen < ? RETURNING id')
    }
  }

  async create(record: McpSessionRecord, max: number): Promise<'created' | 'full'> {
    return this.db.transaction(() => {
      if ((this.stmt.count!.pluck().get() as number) >= max) return 'full'
      this.stmt.insert!.run({ ...record, clientInfo: JSON.stringify(record.clientInfo), clientCapabilities: JSON.stringify(record.clientCapabilities) })
      for (const uri of record.subscriptions) this.stmt.subscribe!.run(record.id, uri)
      return 'created'
    }).immediate()
  }

  async get(id: string): Promise<McpSessionRecord | undefined> {
    const now = performance.now()
    if (now - this.checkedAt >= SESSION_RECHECK_MS) {
      this.checkedAt = now
      const version = this.stmt.dataVersion!.get()
      if (version !== this.dataVersion) this.cache.clear()
      this.dataVersion = version
    }
    const cached = this.cache.get(id)
    if (cached) return copySessionRecord(cached)
    const row = this.stmt.get!.get(id) as Row | undefined
    if (!row) return undefined
    const record = toRecord(row)
    this.cache.set(id, record)
    return copySessionRecord(record)
  }

  async touch(id: string, now: number): Promise<void> {
    this.cache.delete(id)
    this.stmt.touch!.run(now, id)
  }

  async update(id: string, change: McpSessionChange): Promise<boolean> {
    this.cache.delete(id)
    return this.db.transaction(() => {
      if (this.stmt.exists!.get(id) === undefined) return false
      if (change.logLevel !== undefined) this.stmt.setLevel!.run(change.logLevel, id)
      if (change.subscribe !== undefined) this.stmt.subscribe!.run(id, change.subscribe)
      if (change.unsubscribe !== undefined) this.stmt.unsubscribe!.run(id, change.unsubscribe)
      return true
    })()
  }

  async delete(id: string): Promise<boolean> {
    this.cache.delete(id)
    return this.db.transaction(() => {
      this.stmt.deleteSubscriptions!.run(id)
      return this.stmt.delete!.run(id).changes > 0
    })()
  }

  async expireIdle(before: number): Promise<string[]> {
    this.cache.clear()
    return this.db.transaction(() => {
      const ids = this.stmt.idle!.pluck().all(before) as string[]
      for (const id of ids) this.stmt.deleteSubscriptions!.run(id)
      return ids
    })()
  }

  /** The next read asks the file: the store's change poll calls this when another process committed new data. */
  recheck(): void {
    this.checkedAt = -Infinity
  }

  async count(): Promise<number> {
    return this.stmt.count!.pluck().get() as number
  }
}
