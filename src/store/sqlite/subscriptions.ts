import type { Database, Statement } from 'better-sqlite3'
import type { Claim, FailureOutcome, HubTotals, Intent, NewSubscription, Subscription, SubscriptionStore } from '../types.js'
import { byOutboxOrder, callbackHost, hubTotals, toSubscription, TOPIC_STATES_SQL, type CounterColumn, type CounterRow, type SubscriptionRow as Row, type TopicStateRow } from '../websub-rows.js'


const ACTIVE = 'expires_at > @now'
const OWED = `delivered_version < @version AND ${ACTIVE}`
const UNCLAIMED = '(claim_until IS NULL OR claim_until <= @now)'
const INTENT_COLUMNS = 'id, mode, topic, callback, secret, lease_seconds AS leaseSeconds'
/** Only the oldest intent of a (topic, callback) may be worked on, so they take effect in the order they came. */
const OLDEST_OF_ITS_KEY = 'NOT EXISTS (SELECT 1 FROM websub_intents o WHERE o.topic = i.topic AND o.callback = i.callback AND o.id < i.id)'

/**
 * WebSub subscriptions, verification intents and the hub's counters, in the same SQLite file as the reviews.
 * better-sqlite3 is synchronous and SQLite has one writer, so each method runs to completion before any other write,
 * in this process or another: a claim is one UPDATE ... RETURNING, and no two workers get the same row.
 */
export class SqliteSubscriptions implements SubscriptionStore {
  private readonly stmt: Record<string, Statement>
  private readonly bumps = new Map<CounterColumn, Statement>()

  constructor(private readonly db: Database) {
    this.stmt = {
      addIntent: db.prepare(
        `INSERT INTO websub_intents (mode, topic, callback, secret, lease_seconds, created_at, claimed_by, claim_until)
         VALUES (@mode, @topic, @callback, @secret, @leaseSeconds, @now, @node, @until) RETURNING id`
      ),
      hasIntent: db.prepare('SELECT 1 FROM websub_intents WHERE topic = @topic AND callback = @callback'),
      claimIntents: db.prepare(
        `UPDATE websub_intents SET claimed_by = @node, claim_until = @until
         WHERE id IN (SELECT i.id FROM websub_intents i WHERE ${UNCLAIMED.replaceAll('claim_until', 'i.claim_until')} AND ${OLDEST_OF_ITS_KEY} ORDER BY i.id LIMIT @limit)
         RETURNING ${INTENT_COLUMNS}`
      ),
      removeIntent: db.prepare('DELETE FROM websub_intents WHERE id = ?'),
      releaseIntent: db.prepare('UPDATE websub_intents SET claimed_by = NULL, claim_until = NULL WHERE id = ? AND claimed_by = ?'),
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
      isActive: db.prepare(`SELECT 1 FROM websub_subscriptions WHERE topic = @topic AND callback = @callback AND ${ACTIVE}`),
      remove: db.prepare('DELETE FROM websub_subscriptions WHERE topic = ? AND callback = ?'),
      countForHost: db.prepare(
        `SELECT COUNT(*) FROM websub_subscriptions WHERE callback_host = @host AND ${ACTIVE} AND NOT (topic = @topic AND callback = @callback)`
      ),
      claimDue: db.prepare(
        `UPDATE websub_subscriptions SET claimed_by = @node, claim_until = @until
         WHERE (topic, callback) IN (
           SELECT topic, callback FROM websub_subscriptions
           WHERE ${OWED} AND (next_attempt_at IS NULL OR next_attempt_at <= @now) AND ${UNCLAIMED}
             AND callback_host NOT IN (SELECT value FROM json_each(@skip))
           ORDER BY delivered_version, topic, callback LIMIT @limit)
         RETURNING *`
      ),
      nextWake: db.prepare(
        `SELECT MIN(MAX(COALESCE(next_attempt_at, 0), COALESCE(claim_until, 0))) FROM websub_subscriptions
         WHERE ${OWED} AND MAX(COALESCE(next_attempt_at, 0), COALESCE(claim_until, 0)) > @now`
      ),
      delivered: db.prepare(
        `UPDATE websub_subscriptions SET delivered_version = MAX(delivered_version, @version), failures = 0, next_attempt_at = NULL, claimed_by = NULL, claim_until = NULL
         WHERE topic = @topic AND callback = @callback`
      ),
      countDeliveries: db.prepare(
        `INSERT INTO websub_counters (topic, deliveries, last_delivery_at, delivered_version) VALUES (@topic, @n, @at, @version)
         ON CONFLICT (topic) DO UPDATE SET deliveries = deliveries + excluded.deliveries,
           last_delivery_at = MAX(COALESCE(last_delivery_at, 0), excluded.last_delivery_at),
           delivered_version = MAX(COALESCE(delivered_version, 0), excluded.delivered_version)`
      ),
      failed: db.prepare(
        `UPDATE websub_subscriptions SET failures = failures + 1, next_attempt_at = @next, claimed_by = NULL, claim_until = NULL
         WHERE topic = @topic AND callback = @callback RETURNING failures`
      ),
      release: db.prepare('UPDATE websub_subscriptions SET claimed_by = NULL, claim_until = NULL WHERE topic = ? AND callback = ? AND claimed_by = ?'),
      renewSubscriptions: db.prepare('UPDATE websub_subscriptions SET claim_until = @until WHERE claimed_by = @node'),
      renewIntents: db.prepare('UPDATE websub_intents SET claim_until = @until WHERE claimed_by = @node'),
      releaseSubscriptions: db.prepare('UPDATE websub_subscriptions SET claimed_by = NULL, claim_until = NULL WHERE claimed_by = ?'),
      releaseIntents: db.prepare('UPDATE websub_intents SET claimed_by = NULL, claim_until = NULL WHERE claimed_by = ?'),
      purge: db.prepare('DELETE FROM websub_subscriptions WHERE expires_at <= ? RETURNING topic'),
      topicStates: db.prepare(TOPIC_STATES_SQL('@version', '@now')),
      pendingIntents: db.prepare('SELECT COUNT(*) FROM websub_intents'),
      counters: db.prepare('SELECT * FROM websub_counters'),
      since: db.prepare('SELECT created_at FROM store_meta WHERE id = 1')
    }
  }

  async addIntent(intent: Omit<Intent, 'id'>, claim: Claim): Promise<{ id: number; claimed: boolean }> {
    return this.db.transaction(() => {
      // An older intent of the same (topic, callback) goes first; this one waits unclaimed behind it.
      const claimed = this.stmt.hasIntent!.get(intent) === undefined
      const id = this.stmt.addIntent!.pluck().get({ ...intent, now: claim.now, node: claimed ? claim.node : null, until: claimed ? claim.until : null }) as number
      return { id, claimed }
    }).immediate()
  }

  async claimIntents(claim: Claim, limit: number): Promise<Intent[]> {
    return (this.stmt.claimIntents!.all({ ...claim, limit }) as Intent[]).sort((a, b) => a.id - b.id)
  }

  async finishIntent(intent: Intent, verified: boolean): Promise<void> {
    this.db.transaction(() => {
      this.stmt.removeIntent!.run(intent.id)
      this.bump(intent.topic, verified ? 'verifications_succeeded' : 'verifications_failed')
    })()
  }

  async releaseIntent(node: string, id: number): Promise<void> {
    this.stmt.releaseIntent!.run(id, node)
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
    return this.db.transaction(() => {
      const removed = this.stmt.remove!.run(topic, callback).changes > 0
      if (removed) this.bump(topic, 'removed_unsubscribed')
      return removed
    })()
  }

  async countForHost(host: string, except: { topic: string; callback: string }, now: number): Promise<number> {
    return this.stmt.countForHost!.pluck().get({ host, ...except, now }) as number
  }

  async claimDue(claim: Claim, version: number, limit: number, skipHosts: readonly string[]): Promise<Subscription[]> {
    const rows = this.stmt.claimDue!.all({ ...claim, version, limit, skip: JSON.stringify(skipHosts) }) as Row[]
    return rows.map(toSubscription).sort(byOutboxOrder)
  }

  async nextWakeAt(version: number, now: number): Promise<number | null> {
    return (this.stmt.nextWake!.pluck().get({ version, now }) as number | null) ?? null
  }

  async delivered(items: { topic: string; callback: string; version: number }[], at: number): Promise<void> {
    const perTopic = new Map<string, { n: number; version: number }>()
    for (const item of items) {
      const t = perTopic.get(item.topic) ?? { n: 0, version: 0 }
      perTopic.set(item.topic, { n: t.n + 1, version: Math.max(t.version, item.version) })
    }
    this.db.transaction(() => {
      for (const item of items) this.stmt.delivered!.run(item)
      for (const [topic, t] of perTopic) this.stmt.countDeliveries!.run({ topic, n: t.n, at, version: t.version })
    })()
  }

  async failed(topic: string, callback: string, o: { nextAttemptAt: number; maxFailures: number; gone: boolean }): Promise<FailureOutcome> {
    return this.db.transaction((): FailureOutcome => {
      this.bump(topic, 'delivery_failures')
      if (o.gone) return this.removeCounted(topic, callback, 'removed_gone') ? 'gone' : 'absent'
      const failures = this.stmt.failed!.pluck().get({ topic, callback, next: o.nextAttemptAt }) as number | undefined
      if (failures === undefined) return 'absent'
      if (failures < o.maxFailures) return 'retry'
      this.removeCounted(topic, callback, 'removed_failures')
      return 'removed'
    }).immediate()
  }

  async release(node: string, items: { topic: string; callback: string }[]): Promise<void> {
    this.db.transaction(() => {
      for (const item of items) this.stmt.release!.run(item.topic, item.callback, node)
    })()
  }

  async renewClaims(claim: Claim): Promise<void> {
    this.db.transaction(() => {
      this.stmt.renewSubscriptions!.run(claim)
      this.stmt.renewIntents!.run(claim)
    })()
  }

  async releaseAll(node: string): Promise<void> {
    this.db.transaction(() => {
      this.stmt.releaseSubscriptions!.run(node)
      this.stmt.releaseIntents!.run(node)
    })()
  }

  async purgeExpired(now: number): Promise<number> {
    return this.db.transaction(() => {
      const topics = this.stmt.purge!.pluck().all(now) as string[]
      for (const topic of topics) this.bump(topic, 'removed_expired')
      return topics.length
    })()
  }

  async totals(version: number, now: number): Promise<HubTotals> {
    return this.db.transaction(() =>
      hubTotals(
        this.stmt.since!.pluck().get() as number,
        this.stmt.topicStates!.all({ version, now }) as TopicStateRow[],
        this.stmt.counters!.all() as CounterRow[],
        this.stmt.pendingIntents!.pluck().get() as number
      )
    )()
  }

  private removeCounted(topic: string, callback: string, column: CounterColumn): boolean {
    const removed = this.stmt.remove!.run(topic, callback).changes > 0
    if (removed) this.bump(topic, column)
    return removed
  }

  /** One counter of one topic moves by one; the column comes from a fixed list, never from input. */
  private bump(topic: string, column: CounterColumn): void {
    let stmt = this.bumps.get(column)
    if (!stmt) this.bumps.set(column, (stmt = this.db.prepare(`INSERT INTO websub_counters (topic, ${column}) VALUES (?, 1) ON CONFLICT (topic) DO UPDATE SET ${column} = ${column} + 1`)))
    stmt.run(topic)
  }
}
