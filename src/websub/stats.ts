import type { HubStats } from '../domain/index.js'
import type { HubTotals, TopicCounters } from '../store/index.js'

const NOTHING_YET: TopicCounters = {
  counts: { verifications_succeeded: 0, verifications_failed: 0, deliveries: 0, delivery_failures: 0 },
  removals: { failures: 0, gone: 0, expired: 0, unsubscribed: 0 },
  lastDeliveryAt: null,
  deliveredVersion: null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** The stats document from the store's cluster-wide totals: the same answer whichever node is asked. */
export function hubStats(dataVersion: number, totals: HubTotals, topicUrls: readonly string[]): HubStats {
  return {
    data_version: dataVersion,
    owed_deliveries: totals.owed,
    since: iso(totals.since)!,
    topics: topicUrls.map((topic) => {
      const t = totals.counters[topic] ?? NOTHING_YET
      return {
        topic,
        active_subscriptions: totals.active[topic] ?? 0,
        ...t.counts,
        removals: { ...t.removals },
        last_delivery_at: iso(t.lastDeliveryAt),
        delivered_version: t.deliveredVersion
      }
    })
  }
}
