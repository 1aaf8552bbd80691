import type { HubCounter, HubRemoval, HubTotals, Subscription, TopicCounters } from './types.js'

/** A subscription row as both adapters read it (snake_case columns, ms since the epoch). */
export interface SubscriptionRow {
  topic: string
  callback: string
  secret: string | null
  lease_seconds: number
  expires_at: number
  delivered_version: number
  failures: number
  next_attempt_at: number | null
}

export const toSubscription = (r: SubscriptionRow): Subscription => ({
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

/** The order the outbox works in: oldest watermark first, then by topic and callback (what the claim queries sort by). */
export function byOutboxOrder(a: Subscription, b: Subscription): number {
  if (a.deliveredVersion !== b.deliveredVersion) return a.deliveredVersion - b.deliveredVersion
  if (a.topic !== b.topic) return a.topic < b.topic ? -1 : 1
  return a.callback < b.callback ? -1 : a.callback > b.callback ? 1 : 0
}

/** The hub's counter columns, as every adapter names them: counts as they are, removals prefixed with `removed_`. */
export const COUNTER_COLUMNS = {
  counts: ['verifications_succeeded', 'verifications_failed', 'deliveries', 'delivery_failures'] as const satisfies readonly HubCounter[],
  removals: ['failures', 'gone', 'expired', 'unsubscribed'] as const satisfies readonly HubRemoval[]
}

export type CounterColumn = HubCounter | `removed_${HubRemoval}`

/** A websub_counters row as both adapters read it. */
export type CounterRow = { topic: string; last_delivery_at: number | null; delivered_version: number | null } & Record<CounterColumn, number>

export function toTopicCounters(r: CounterRow): TopicCounters {
  const pick = <K extends string>(names: readonly K[], prefix = '') => Object.fromEntries(names.map((n) => [n, r[`${prefix}${n}` as CounterColumn]])) as Record<K, number>
  return {
    counts: pick<HubCounter>(COUNTER_COLUMNS.counts),
    removals: pick<HubRemoval>(COUNTER_COLUMNS.removals, 'removed_'),
    lastDeliveryAt: r.last_delivery_at,
    deliveredVersion: r.delivered_version
  }
}

/** One row per topic of active subscriptions: how many, how many owe the version, how many back off. */
export interface TopicStateRow {
  topic: string
  active: number
  owed: number
  retrying: number
}

/** The SQL of those rows (both engines read it alike): parameters are the data version and now, in that order. */
export const TOPIC_STATES_SQL = (version: string, now: string) =>
  `SELECT topic, COUNT(*) AS active, SUM(CASE WHEN delivered_version < ${version} THEN 1 ELSE 0 END) AS owed,
     SUM(CASE WHEN failures > 0 THEN 1 ELSE 0 END) AS retrying
   FROM websub_subscriptions WHERE expires_at > ${now} GROUP BY topic`

/** HubTotals from the rows both adapters read. */
export function hubTotals(since: number, states: TopicStateRow[], counters: CounterRow[], pendingVerifications: number): HubTotals {
  const per = (pick: (r: TopicStateRow) => number) => Object.fromEntries(states.map((r) => [r.topic, Number(pick(r))]))
  return {
    since,
    active: per((r) => r.active),
    owedByTopic: per((r) => r.owed),
    retryingByTopic: per((r) => r.retrying),
    owed: states.reduce((n, r) => n + Number(r.owed), 0),
    pendingVerifications,
    counters: Object.fromEntries(counters.map((r) => [r.topic, toTopicCounters(r)]))
  }
}
