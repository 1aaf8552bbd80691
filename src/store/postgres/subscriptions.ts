import type pg from 'pg'
import type { Claim, FailureOutcome, HubTotals, Intent, NewSubscription, Subscription, SubscriptionStore } from '../types.js'
import { callbackHost, hubTotals, toSubscription, TOPIC_STATES_SQL, type CounterColumn, type CounterRow, type SubscriptionRow, type TopicStateRow } from '../websub-rows.js'
import { LOCK_CLASS, READ_SNAPSHOT, statement, transaction, type Queryable } from './pool.js'


const INTENT_COLUMNS = 'id, mode, topic, callback, secret, lease_seconds AS "leaseSeconds"'

/** Byte order, as SQLite sorts: the order of claims does not depend on the database's locale. */
const OWED_ORDER = 'delivered_version, topic COLLATE "C", callback COLLATE "C"'

/**
 * SQL that adds the rows of `source` (a CTE or subquery with a `topic` column, one row per event) to a counter.
 * Topics are taken in order so two transactions counting several topics lock their rows in the same order.
 */
function countInto(counter: CounterColumn, source: string): string {
  return `INSERT INTO websub_counters AS c (topic, ${counter})
    SELECT topic, count(*) FROM ${source} AS events GROUP BY topic ORDER BY topic
    ON CONFLICT (topic) DO UPDATE SET ${counter} = c.${counter} + excluded.${counter}`
}

async function count(c: Queryable, counter: CounterColumn, topic: string): Promise<void> {
  await c.query(countInto(counter, '(SELECT $1::text AS topic)'), [topic])
}

/**
 * WebSub subscriptions and intents shared by every node. Work is shared out by claims: a node marks rows with its
 * name and a lease end, taking only rows no live claim holds (FOR UPDATE SKIP LOCKED, so concurrent claimers never
 * wait for or take the same row). A claim ends when the work is settled, released, or its lease runs out.
 */
export class PostgresSubscriptions implements SubscriptionStore {
  constructor(private readonly pool: pg.Pool) {}

  async addIntent(intent: Omit<Intent, 'id'>, claim: Claim): Promise<{ id: number; claimed: boolean }> {
    return transaction(this.pool, async (c) => {
      // Serialises intents of one (topic, callback), so two nodes adding at once cannot both think theirs the oldest.
      await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS.intentKey, `${intent.topic} ${intent.callback}`])
      const { rows } = await c.query<{ id: number; claimed: boolean }>(
        `INSERT INTO websub_intents (mode, topic, callback, secret, lease_seconds, created_at, claimed_by, claim_until)
         SELECT $1, $2, $3, $4, $5, $8, CASE WHEN waiting THEN NULL ELSE $6 END, CASE WHEN waiting THEN NULL ELSE $7::bigint END
         FROM (SELECT EXISTS (SELECT 1 FROM websub_intents WHERE topic = $2 AND callback = $3) AS waiting) older
         RETURNING id, claimed_by IS NOT NULL AS claimed`,
        [intent.mode, intent.topic, intent.callback, intent.secret, intent.leaseSeconds, claim.node, claim.until, claim.now]
      )
      return rows[0]!
    })
  }

  async claimIntents(claim: Claim, limit: number): Promise<Intent[]> {
    const { rows } = await statement<Intent>(
      this.pool,
      `WITH picked AS (
         SELECT id FROM websub_intents i
         WHERE (claim_until IS NULL OR claim_until <= $2)
           AND NOT EXISTS (SELECT 1 FROM websub_intents o WHERE o.topic = i.topic AND o.callback = i.callback AND o.id < i.id)
         ORDER BY id LIMIT $4
         FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE websub_intents i SET claimed_by = $1, claim_until = $3 FROM picked WHERE i.id = picked.id RETURNING i.*)
       SELECT ${INTENT_COLUMNS} FROM claimed ORDER BY id`,
      [claim.node, claim.now, claim.until, limit]
    )
    return rows
  }

  async finishIntent(intent: Intent, verified: boolean): Promise<void> {
    // Counted only if this call removed it: a node whose claim ran out and was taken over does not count it twice.
    await statement(
      this.pool,
      `WITH settled AS (DELETE FROM websub_intents WHERE id = $1 RETURNING topic) ${countInto(verified ? 'verifications_succeeded' : 'verifications_failed', 'settled')}`,
      [intent.id]
    )
  }

  async subscribe({ maxPerHost, ...s }: NewSubscription): Promise<'created' | 'renewed' | 'host_full'> {
    const now = Date.now()
    const host = callbackHost(s.callback)
    return transaction(this.pool, async (c) => {
      // One subscribe per callback host at a time cluster-wide: the count below stays true until this commits.
      await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS.callbackHost, host])
      const { rows } = await c.query('SELECT 1 FROM websub_subscriptions WHERE topic = $1 AND callback = $2 AND expires_at > $3', [s.topic, s.callback, now])
      const renewed = rows.length > 0
      if (!renewed && (await this.countIn(c, host, s, now)) >= maxPerHost) return 'host_full'
      // A renewal keeps the watermark, unless the old lease had run out: then it starts afresh like a new one.
      await c.query(
        `INSERT INTO websub_subscriptions AS s (topic, callback, callback_host, secret, lease_seconds, expires_at, delivered_version, failures, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, NULL, $8)
         ON CONFLICT (topic, callback) DO UPDATE SET
           secret = excluded.secret, lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at,
           delivered_version = CASE WHEN s.expires_at <= $8 THEN excluded.delivered_version ELSE s.delivered_version END,
           failures = CASE WHEN s.expires_at <= $8 THEN 0 ELSE s.failures END,
           next_attempt_at = CASE WHEN s.expires_at <= $8 THEN NULL ELSE s.next_attempt_at END`,
        [s.topic, s.callback, host, s.secret, s.leaseSeconds, s.expiresAt, s.version, now]
      )
      return renewed ? 'renewed' : 'created'
    })
  }

  async unsubscribe(topic: string, callback: string): Promise<boolean> {
    const { rows } = await statement<{ n: number }>(
      this.pool,
      `WITH gone AS (DELETE FROM websub_subscriptions WHERE topic = $1 AND callback = $2 RETURNING topic),
         counted AS (${countInto('removed_unsubscribed', 'gone')})
       SELECT count(*) AS n FROM gone`,
      [topic, callback]
    )
    return rows[0]!.n > 0
  }

  async countForHost(host: string, except: { topic: string; callback: string }, now: number): Promise<number> {
    return this.countIn(this.pool, host, except, now)
  }

  private async countIn(c: Queryable, host: string, except: { topic: string; callback: string }, now: number): Promise<number> {
    const { rows } = await c.query<{ n: number }>(
      'SELECT count(*) AS n FROM websub_subscriptions WHERE callback_host = $1 AND expires_at > $2 AND NOT (topic = $3 AND callback = $4)',
      [host, now, except.topic, except.callback]
    )
    return rows[0]!.n
  }

  async claimDue(claim: Claim, version: number, limit: number, skipHosts: readonly string[]): Promise<Subscription[]> {
    const { rows } = await statement<SubscriptionRow>(
      this.pool,
      `WITH picked AS (
         SELECT topic, callback FROM websub_subscriptions
         WHERE delivered_version < $4 AND expires_at > $2
           AND (next_attempt_at IS NULL OR next_attempt_at <= $2)
           AND (claim_until IS NULL OR claim_until <= $2)
           AND callback_host <> ALL ($6::text[])
         ORDER BY ${OWED_ORDER} LIMIT $5
         FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE websub_subscriptions s SET claimed_by = $1, claim_until = $3
         FROM picked WHERE s.topic = picked.topic AND s.callback = picked.callback RETURNING s.*)
       SELECT * FROM claimed ORDER BY ${OWED_ORDER}`,
      [claim.node, claim.now, claim.until, version, limit, skipHosts]
    )
    return rows.map(toSubscription)
  }

  async nextWakeAt(version: number, now: number): Promise<number | null> {
    // A row becomes claimable when both its backoff and any claim on it have ended.
    const { rows } = await statement<{ at: number | null }>(
      this.pool,
      `SELECT min(GREATEST(COALESCE(next_attempt_at, 0), COALESCE(claim_until, 0))) AS at FROM websub_subscriptions
       WHERE delivered_version < $1 AND expires_at > $2 AND GREATEST(COALESCE(next_attempt_at, 0), COALESCE(claim_until, 0)) > $2`,
      [version, now]
    )
    return rows[0]!.at
  }

  async delivered(items: { topic: string; callback: string; version: number }[], at: number): Promise<void> {
    if (items.length === 0) return
    const topics = items.map((i) => i.topic)
    await transaction(this.pool, async (c) => {
      await c.query(
        `UPDATE websub_subscriptions s SET
           delivered_version = GREATEST(s.delivered_version, latest.version),
           failures = 0, next_attempt_at = NULL, claimed_by = NULL, claim_until = NULL
         FROM (SELECT topic, callback, max(version) AS version FROM unnest($1::text[], $2::text[], $3::bigint[]) AS i (topic, callback, version)
               GROUP BY topic, callback) latest
         WHERE s.topic = latest.topic AND s.callback = latest.callback`,
        [topics, items.map((i) => i.callback), items.map((i) => i.version)]
      )
      await c.query(
        `INSERT INTO websub_counters AS c (topic, deliveries, last_delivery_at, delivered_version)
         SELECT topic, count(*), $3::bigint, max(version) FROM unnest($1::text[], $2::bigint[]) AS i (topic, version) GROUP BY topic ORDER BY topic
         ON CONFLICT (topic) DO UPDATE SET
           deliveries = c.deliveries + excluded.deliveries,
           last_delivery_at = GREATEST(c.last_delivery_at, excluded.last_delivery_at),
           delivered_version = GREATEST(c.delivered_version, excluded.delivered_version)`,
        [topics, items.map((i) => i.version), at]
      )
    })
  }

  async failed(topic: string, callback: string, o: { nextAttemptAt: number; maxFailures: number; gone: boolean }): Promise<FailureOutcome> {
    return transaction(this.pool, async (c) => {
      const outcome = await this.failIn(c, topic, callback, o)
      // Counters after the subscription row, as in every writer (see retrying() in pool.ts).
      await count(c, 'delivery_failures', topic)
      if (outcome === 'gone') await count(c, 'removed_gone', topic)
      if (outcome === 'removed') await count(c, 'removed_failures', topic)
      return outcome
    })
  }

  private async failIn(c: Queryable, topic: string, callback: string, o: { nextAttemptAt: number; maxFailures: number; gone: boolean }): Promise<FailureOutcome> {
    const remove = async () => (await c.query('DELETE FROM websub_subscriptions WHERE topic = $1 AND callback = $2', [topic, callback])).rowCount === 1
    if (o.gone) return (await remove()) ? 'gone' : 'absent'
    const { rows } = await c.query<{ failures: number }>(
      `UPDATE websub_subscriptions SET failures = failures + 1, next_attempt_at = $3, claimed_by = NULL, claim_until = NULL
       WHERE topic = $1 AND callback = $2 RETURNING failures`,
      [topic, callback, o.nextAttemptAt]
    )
    if (!rows[0]) return 'absent'
    if (rows[0].failures < o.maxFailures) return 'retry'
    await remove()
    return 'removed'
  }

  async release(node: string, items: { topic: string; callback: string }[]): Promise<void> {
    if (items.length === 0) return
    await statement(
      this.pool,
      `UPDATE websub_subscriptions s SET claimed_by = NULL, claim_until = NULL
       FROM unnest($2::text[], $3::text[]) AS i (topic, callback)
       WHERE s.topic = i.topic AND s.callback = i.callback AND s.claimed_by = $1`,
      [node, items.map((i) => i.topic), items.map((i) => i.callback)]
    )
  }

  async releaseIntent(node: string, id: number): Promise<void> {
    await statement(this.pool, 'UPDATE websub_intents SET claimed_by = NULL, claim_until = NULL WHERE id = $2 AND claimed_by = $1', [node, id])
  }

  async renewClaims(claim: Claim): Promise<void> {
    await statement(
      this.pool,
      `WITH subscriptions AS (UPDATE websub_subscriptions SET claim_until = $2 WHERE claimed_by = $1)
       UPDATE websub_intents SET claim_until = $2 WHERE claimed_by = $1`,
      [claim.node, claim.until]
    )
  }

  async releaseAll(node: string): Promise<void> {
    await statement(
      this.pool,
      `WITH subscriptions AS (UPDATE websub_subscriptions SET claimed_by = NULL, claim_until = NULL WHERE claimed_by = $1)
       UPDATE websub_intents SET claimed_by = NULL, claim_until = NULL WHERE claimed_by = $1`,
      [node]
    )
  }

  async purgeExpired(now: number): Promise<number> {
    const { rows } = await statement<{ n: number }>(
      this.pool,
      `WITH gone AS (DELETE FROM websub_subscriptions WHERE expires_at <= $1 RETURNING topic),
         counted AS (${countInto('removed_expired', 'gone')})
       SELECT count(*) AS n FROM gone`,
      [now]
    )
    return rows[0]!.n
  }

  async totals(version: number, now: number): Promise<HubTotals> {
    return transaction(
      this.pool,
      async (c) => {
        const since = (await c.query<{ created_at: number }>('SELECT created_at FROM store_meta WHERE id = 1')).rows[0]!.created_at
        const states = await c.query<TopicStateRow>(TOPIC_STATES_SQL('$1', '$2'), [version, now])
        const counters = await c.query<CounterRow>('SELECT * FROM websub_counters')
        const pending = await c.query<{ n: number }>('SELECT count(*) AS n FROM websub_intents')
        return hubTotals(since, states.rows, counters.rows, Number(pending.rows[0]!.n))
      },
      READ_SNAPSHOT
    )
  }
}
