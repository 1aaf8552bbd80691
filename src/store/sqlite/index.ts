import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import type { Business, StoredReview } from '../../domain/index.js'
import { canonicalJson, planImport, skippedImport, type ExistingReview } from '../changes.js'
import { NoBusinessError, type ImportBatch, type ImportRunOutcome, type ImportOutcome, type PublishedData, type RateStore, type Store, type StoreDump, type StoreOptions } from '../types.js'
import { dumpSqlite, restoreSqlite } from './dump.js'
import { migrate } from './migrations.js'
import { SqliteSessions } from './sessions.js'
import { SqliteSubscriptions } from './subscriptions.js'

interface ReviewRow {
  id: string
  doc: string
  verified: number
  updated_at: string
}

/**
 * SQLite adapter: one file, WAL so a server keeps reading while an import process (or another worker) writes, and a
 * busy timeout so concurrent writers wait for each other instead of failing.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite'
  readonly subscriptions: SqliteSubscriptions
  readonly sessions: SqliteSessions
  readonly rates: RateStore
  reachable = true
  private readonly db: Database.Database
  private readonly versionStmt: Database.Statement
  private readonly pollIntervalMs: number
  private readonly watchers = new Set<NodeJS.Timeout>()

  constructor(path: string, options: StoreOptions = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
    this.db = new Database(path)
    this.db.pragma('journal_mode = WAL')
    this.db.pragma('busy_timeout = 10000')
    this.db.pragma('synchronous = NORMAL')
    migrate(this.db)
    this.versionStmt = this.db.prepare('SELECT version FROM data_version WHERE id = 1').pluck()
    this.subscriptions = new SqliteSubscriptions(this.db)
    this.sessions = new SqliteSessions(this.db)
    this.rates = sqliteRates(this.db)
    this.pollIntervalMs = options.pollIntervalMs ?? 500
  }

  async dataVersion(): Promise<number> {
    return this.versionStmt.get() as number
  }

  /** Polls the data version: another process's commit is only visible by reading. */
  watch(listener: () => void): () => void {
    // Read now, so a change made before the first poll is not taken for the starting point.
    let seen = this.versionStmt.get() as number
    const timer = setInterval(() => {
      try {
        const version = this.versionStmt.get() as number
        this.reachable = true
        // Whoever reacts (an MCP notification reads the sessions it tells) sees every commit made before this one.
        if (version !== seen) {
          this.sessions.recheck()
          listener()
        }
        seen = version
      } catch {
        this.reachable = false
      }
    }, this.pollIntervalMs)
    timer.unref()
    this.watchers.add(timer)
    return () => {
      clearInterval(timer)
      this.watchers.delete(timer)
    }
  }

  async recordImport(outcome: ImportRunOutcome): Promise<void> {
    this.db
      .prepare('INSERT INTO import_runs (outcome, count, last_at) VALUES (?, 1, ?) ON CONFLICT (outcome) DO UPDATE SET count = count + 1, last_at = excluded.last_at')
      .run(outcome, Date.now())
  }

  async importRuns(): Promise<Partial<Record<ImportRunOutcome, number>>> {
    const rows = this.db.prepare('SELECT outcome, count FROM import_runs').all() as { outcome: ImportRunOutcome; count: number }[]
    return Object.fromEntries(rows.map((r) => [r.outcome, r.count]))
  }

  async firstSeen(key: string, now: Date): Promise<Date> {
    this.db.prepare('INSERT OR IGNORE INTO first_seen (key, at) VALUES (?, ?)').run(key, now.toISOString())
    return new Date(this.db.prepare('SELECT at FROM first_seen WHERE key = ?').pluck().get(key) as string)
  }

  async dump(): Promise<StoreDump> {
    return dumpSqlite(this.db)
  }

  async restore(dump: StoreDump, o: { replace: boolean }): Promise<void> {
    restoreSqlite(this.db, dump, o, canonicalJson)
  }

  async readPublished(): Promise<PublishedData | null> {
    return this.db.transaction(() => {
      const business = this.db.prepare('SELECT doc FROM business WHERE id = 1').pluck().get() as string | undefined
      if (business === undefined) return null
      const meta = this.db.prepare('SELECT version, changed_at FROM data_version WHERE id = 1').get() as {
        version: number
        changed_at: string
      }
      const rows = this.db.prepare('SELECT id, doc, verified, updated_at FROM reviews WHERE verified = 1').all() as ReviewRow[]
      return {
        version: meta.version,
        changedAt: meta.changed_at,
        business: JSON.parse(business) as Business,
        reviews: rows.map((r) => ({ review: JSON.parse(r.doc) as StoredReview, updatedAt: r.updated_at }))
      }
    })()
  }

  async applyImport(batch: ImportBatch): Promise<ImportOutcome> {
    // IMMEDIATE takes the write lock before reading, so the plan cannot go stale under another writer.
    return this.db.transaction(() => this.applyInTransaction(batch)).immediate()
  }

  private applyInTransaction(batch: ImportBatch): ImportOutcome {
    const storedBusiness = this.db.prepare('SELECT doc FROM business WHERE id = 1').pluck().get() as string | undefined
    const version = () => this.versionStmt.get() as number
    if (batch.onlyIfEmpty && storedBusiness !== undefined) {
      return skippedImport(version())
    }
    if (storedBusiness === undefined && !batch.business) throw new NoBusinessError()
    const existing = new Map<string, ExistingReview>()
    for (const r of this.db.prepare('SELECT id, doc, verified FROM reviews').all() as ReviewRow[]) {
      existing.set(r.id, { doc: r.doc, verified: r.verified === 1 })
    }
    const plan = planImport(existing, storedBusiness ?? null, batch)
    if (plan.businessDoc !== null) {
      this.db
        .prepare('INSERT INTO business (id, doc, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, updated_at = excluded.updated_at')
        .run(plan.businessDoc, batch.now)
    }
    const upsert = this.db.prepare(
      `INSERT INTO reviews (id, doc, verified, date, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, verified = excluded.verified, date = excluded.date, updated_at = excluded.updated_at`
    )
    for (const w of plan.writes) upsert.run(w.id, w.doc, w.verified ? 1 : 0, w.date, batch.now)
    const remove = this.db.prepare('DELETE FROM reviews WHERE id = ?')
    for (const id of plan.deletes) remove.run(id)
    if (plan.publishedChanged) {
      this.db.prepare('UPDATE data_version SET version = version + 1, changed_at = ? WHERE id = 1').run(batch.now)
    }
    return {
      version: version(),
      changed: plan.publishedChanged,
      skipped: false,
      businessChanged: plan.businessDoc !== null,
      ...plan.counts
    }
  }

  async close(): Promise<void> {
    for (const timer of this.watchers) clearInterval(timer)
    this.watchers.clear()
    if (this.db.open) this.db.close()
  }
}

/** Fixed windows per key in one upsert; rows of windows long over are swept on the way. */
function sqliteRates(db: Database.Database): RateStore {
  const hit = db.prepare(
    `INSERT INTO rate_limits (key, window_start, count) VALUES (@key, @now, 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN window_start + @window <= @now THEN 1 ELSE count + 1 END,
       window_start = CASE WHEN window_start + @window <= @now THEN @now ELSE window_start END
     RETURNING count, window_start AS start`
  )
  const sweep = db.prepare('DELETE FROM rate_limits WHERE window_start + @window <= @now')
  return {
    async hit(key, windowMs, now) {
      const row = db.transaction(() => {
        sweep.run({ window: windowMs, now })
        return hit.get({ key, window: windowMs, now }) as { count: number; start: number }
      }).immediate()
      return { count: row.count, resetAt: row.start + windowMs }
    }
  }
}
