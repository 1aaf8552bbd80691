import pg from 'pg'
import type { ImportBatch, ImportOutcome, ImportRunOutcome, PublishedData, Store, StoreDump, StoreOptions } from '../types.js'
import { dump, restore } from './dump.js'
import { ChangeListener, DATA_CHANNEL, SESSION_CHANNEL } from './listener.js'
import { migrate } from './migrations.js'
import { bulkTimeoutMs, connectionConfig, statement, type Settings } from './pool.js'
import { applyImport, readPublished } from './published.js'
import { firstSeen, importRuns, PostgresRates, recordImport } from './rates.js'
import { PostgresSessions } from './sessions.js'
import { PostgresSubscriptions } from './subscriptions.js'

/** The LISTEN connection carries the change signal; polling is only the safety net, so it runs this much slower. */
const SAFETY_POLL_FACTOR = 5

/**
 * Opens a PostgreSQL store shared by any number of nodes: migrates (once, whichever node gets there first), then
 * listens for changes. Fails when the database cannot be reached or migrated.
 */
export async function openPostgresStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const settings: Settings = {
    poolSize: options.poolSize ?? 10,
    statementTimeoutMs: options.statementTimeoutMs ?? 5000,
    pollIntervalMs: options.pollIntervalMs ?? 500
  }
  const config = connectionConfig(url, settings.statementTimeoutMs)
  await migrate(config)
  const store = new PostgresStore(config, settings)
  await store.listen()
  return store
}

/**
 * PostgreSQL adapter: a pool for queries, and one connection of its own that LISTENs for data versions and MCP
 * session changes. Every write is one statement or one transaction (see pool.ts), so nodes never lose each other's.
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres'
  readonly subscriptions: PostgresSubscriptions
  readonly sessions: PostgresSessions
  readonly rates: PostgresRates
  private readonly pool: pg.Pool
  private readonly listener: ChangeListener
  private readonly watchers = new Set<() => void>()
  private readonly bulkTimeoutMs: number
  private readonly pollTimer: NodeJS.Timeout
  private polling = false
  private pollFailed = false
  /** The data version last heard or polled: the safety poll calls the watchers when it sees another. */
  private lastVersion: number | undefined

  constructor(config: pg.ClientConfig, settings: Settings) {
    this.pool = new pg.Pool({ ...config, max: settings.poolSize })
    // An idle pooled connection that breaks (server restart) is dropped by the pool; the next query opens another.
    // Without a listener the 'error' event would end the process.
    this.pool.on('error', () => {})
    this.bulkTimeoutMs = bulkTimeoutMs(settings.statementTimeoutMs)
    this.subscriptions = new PostgresSubscriptions(this.pool)
    this.sessions = new PostgresSessions(this.pool, () => this.listener.connected)
    this.rates = new PostgresRates(this.pool)
    this.listener = new ChangeListener(config, {
      notification: (channel, payload) => this.heard(channel, payload),
      connected: () => {
        this.pollFailed = false
        this.changed()
      },
      lost: () => this.sessions.invalidate(null)
    })
    this.pollTimer = setInterval(() => void this.poll(), settings.pollIntervalMs * SAFETY_POLL_FACTOR)
    this.pollTimer.unref()
  }

  listen(): Promise<void> {
    return this.listener.start()
  }

  get reachable(): boolean {
    return this.listener.connected && !this.pollFailed
  }

  async dataVersion(): Promise<number> {
    const { rows } = await statement<{ version: number }>(this.pool, 'SELECT version FROM data_version WHERE id = 1')
    return rows[0]!.version
  }

  readPublished(): Promise<PublishedData | null> {
    return readPublished(this.pool, this.bulkTimeoutMs)
  }

  applyImport(batch: ImportBatch): Promise<ImportOutcome> {
    return applyImport(this.pool, batch, this.bulkTimeoutMs)
  }

  watch(listener: () => void): () => void {
    this.watchers.add(listener)
    return () => this.watchers.delete(listener)
  }

  recordImport(outcome: ImportRunOutcome): Promise<void> {
    return recordImport(this.pool, outcome)
  }

  importRuns(): Promise<Partial<Record<ImportRunOutcome, number>>> {
    return importRuns(this.pool)
  }

  firstSeen(key: string, now: Date): Promise<Date> {
    return firstSeen(this.pool, key, now)
  }

  dump(): Promise<StoreDump> {
    return dump(this.pool, this.bulkTimeoutMs)
  }

  restore(d: StoreDump, o: { replace: boolean }): Promise<void> {
    return restore(this.pool, d, o, this.bulkTimeoutMs)
  }

  async close(): Promise<void> {
    clearInterval(this.pollTimer)
    this.watchers.clear()
    await this.listener.close()
    if (!this.pool.ended) await this.pool.end()
  }

  private heard(channel: string, payload: string): void {
    if (channel === SESSION_CHANNEL) this.sessions.invalidate(payload)
    if (channel !== DATA_CHANNEL) return
    this.lastVersion = Number(payload)
    this.changed()
  }

  /** Anything may have moved: after a NOTIFY, a version the poll had not seen, or a (re)connect that heard nothing meanwhile. */
  private changed(): void {
    for (const watcher of [...this.watchers]) watcher()
  }

  /** The safety net, on the LISTEN connection itself, so that it also proves that connection alive. */
  private async poll(): Promise<void> {
    if (this.polling || !this.listener.connected) return
    this.polling = true
    try {
      const [row] = await this.listener.query<{ version: number }>('SELECT version FROM data_version WHERE id = 1')
      this.pollFailed = false
      const moved = this.lastVersion !== undefined && row!.version !== this.lastVersion
      this.lastVersion = row!.version
      if (moved) this.changed()
    } catch {
      this.pollFailed = true
    } finally {
      this.polling = false
    }
  }
}
