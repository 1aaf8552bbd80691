import type { HubCounter, HubRemoval, Subscription } from './types.js'

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
