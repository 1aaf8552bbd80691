import type { Database, Statement } from 'better-sqlite3'
import type { FailureOutcome, Intent, NewSubscription, Subscription, SubscriptionStore } from '../types.js'

interface Row {
  topic: string
  callback: string
  secret: string | null
  lease_seconds: number
  expires_at: number
  delivered_version: number
  failures: number
  next_attempt_at: number | null
}

const toSubscription = (r: Row): Subscription => ({
  topic: r.topic,
  callback: r.callback,
  secret: r.secret,
  leaseSeconds: r.lease_seconds,
  expiresAt: r.expires_at,
  deliveredVersion: r.delivered_version,
  failures: r.failures,
  nextAttemptAt: r.next_attempt_at
})

/** The host a callback counts against for the per-host limit (ports do not make a new host). */
export const callbackHost = (callback: string): string => new URL(callback).hostname

/**
 * WebSub subscriptions and verification intents in the same SQLite file as the reviews. better-sqlite3 is
 * synchronous, so each method runs to completion before any other JavaScript: no write interleaves with another.
 */
export class SqliteSubscriptions implements SubscriptionStore {
  private readonly stmt: Record<string, Statement>

  constructor(private readonly db: Database) {
    const active = 'expires_at > @now'
    this.stmt = {
      addIntent: db.prepare(
        'INSERT INTO websub_intents (mode, topic, callback, secret, lease_seconds, created_at) VALUES (@mode, @topic, @callback, @secret, @leaseSeconds, @now) RETURNING id'
      ),
      removeIntent: db.prepare('DELETE FROM websub_intents WHERE id = ?'),
      intents: db.prepare('SELECT id, mode, topic, callback, secret, lease_seconds AS leaseSeconds FROM websub_intents ORDER BY id'),
      // A renewal keeps the watermark, unless the old lease had run out: then it starts afresh like a new one.
      upsert: db.prepare(
        `INSERT INTO websub_subscriptions (topic, callback, callback_host, secret, lease_seconds, expires_at, delivered_version, failures, next_attempt_at, created_at)
         VALUES (@topic, @callback, @host, @secret, @leaseSeconds, @expiresAt, @version, 0, NULL, @now)
         ON CONFLICT (topic, callback) DO UPDATE SET
           secret = excluded.secret, lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at,
           delivered_version = CASE WHEN websub_subscriptions.expires_at <= @now THEN excluded.delivered_version ELSE websub_subscriptions.delivered_version END,
           failures = CASE WHEN websub_subscriptions.expires_at <= @now THEN 0 ELSE websub_subscriptions.failures END,
           next_attempt_at = CASE WHEN websub_subscriptions.expires_at <= @now THEN NULL ELSE websub_subscriptions.next_attempt_at END`
      ),
      isActive: db.prepare(`SELECT 1 FROM websub_subscriptions WHERE topic = @topic AND callback = @callback AND ${active}`),
      remove: db.prepare('DELETE FROM websub_subscriptions WHERE topic = ? AND callback = ?'),
      countForHost: db.prepare(
        `SELECT COUNT(*) FROM websub_subscriptions WHERE callback_host = @host AND ${active} AND NOT (topic = @topic AND callback = @callback)`
      ),
      due: db.prepare(
        `SELECT * FROM websub_subscriptions WHERE delivered_version < @version AND ${active} AND (next_attempt_at IS NULL OR next_attempt_at <= @now)
           AND callback_host NOT IN (SELECT value FROM json_each(@skip))
         ORDER BY delivered_version, topic, callback LIMIT @limit`
      ),
      nextRetry: db.prepare(`SELECT MIN(next_attempt_at) FROM websub_subscriptions WHERE delivered_version < @version AND ${active} AND next_attempt_at > @now`),
      delivered: db.prepare(
        'UPDATE websub_subscriptions SET delivered_version = MAX(delivered_version, @version), failures = 0, next_attempt_at = NULL WHERE topic = @topic AND callback = @callback'
      ),
      failed: db.prepare('UPDATE websub_subscriptions SET failures = failures + 1, next_attempt_at = @next WHERE topic = @topic AND callback = @callback RETURNING failures'),
      purge: db.prepare('DELETE FROM websub_subscriptions WHERE expires_at <= ? RETURNING topic'),
      byTopic: db.prepare(`SELECT topic, COUNT(*) AS n FROM websub_subscriptions WHERE ${active} GROUP BY topic`),
      owed: db.prepare(`SELECT COUNT(*) FROM websub_subscriptions WHERE ${active} AND delivered_version < @version`)
    }
  }

  async addIntent(intent: Omit<Intent, 'id'>): Promise<number> {
    return this.stmt.addIntent!.pluck().get({ ...intent, now: Date.now() }) as number
  }

  async removeIntent(id: number): Promise<void> {
    this.stmt.removeIntent!.run(id)
  }

  async pendingIntents(): Promise<Intent[]> {
    return this.stmt.intents!.all() as Intent[]
  }

  async subscribe({ maxPerHost, ...s }: NewSubscription): Promise<'created' | 'renewed' | 'host_full'> {
    const now = Date.now()
    const host = callbackHost(s.callback)
    return this.db.transaction(() => {
      const renewed = this.stmt.isActive!.get({ topic: s.topic, callback: s.callback, now }) !== undefined
      if (!renewed && (this.stmt.countForHost!.pluck().get({ host, topic: s.topic, callback: s.callback, now }) as number) >= maxPerHost) return 'host_full'
      this.stmt.upsert!.run({ ...s, host, now })
      return renewed ? 'renewed' : 'created'
    }).immediate()
  }

  async unsubscribe(topic: string, callback: string): Promise<boolean> {
    return this.stmt.remove!.run(topic, callback).changes > 0
  }

  async countForHost(host: string, except: { topic: string; callback: string }, now: number): Promise<number> {
    return this.stmt.countForHost!.pluck().get({ host, ...except, now }) as number
  }

  async due(version: number, now: number, limit: number, skipHosts: readonly string[]): Promise<Subscription[]> {
    return (this.stmt.due!.all({ version, now, limit, skip: JSON.stringify(skipHosts) }) as Row[]).map(toSubscription)
  }

  async nextRetryAt(version: number, now: number): Promise<number | null> {
    return (this.stmt.nextRetry!.pluck().get({ version, now }) as number | null) ?? null
  }

  async delivered(items: { topic: string; callback: string; version: number }[]): Promise<void> {
    this.db.transaction(() => {
      for (const item of items) this.stmt.delivered!.run(item)
    })()
  }

  async failed(topic: string, callback: string, o: { nextAttemptAt: number; maxFailures: number; gone: boolean }): Promise<FailureOutcome> {
    return this.db.transaction((): FailureOutcome => {
      if (o.gone) return this.stmt.remove!.run(topic, callback).changes > 0 ? 'gone' : 'absent'
      const failures = this.stmt.failed!.pluck().get({ topic, callback, next: o.nextAttemptAt }) as number | undefined
      if (failures === undefined) return 'absent'
      if (failures < o.maxFailures) return 'retry'
      this.stmt.remove!.run(topic, callback)
      return 'removed'
    }).immediate()
  }

  async purgeExpired(now: number): Promise<string[]> {
    return this.stmt.purge!.pluck().all(now) as string[]
  }

  async counts(version: number, now: number): Promise<{ byTopic: Record<string, number>; owed: number }> {
    const rows = this.stmt.byTopic!.all({ now }) as { topic: string; n: number }[]
    return { byTopic: Object.fromEntries(rows.map((r) => [r.topic, r.n])), owed: this.stmt.owed!.pluck().get({ version, now }) as number }
  }
}
