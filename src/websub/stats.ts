import type { HubStats } from '../domain/index.js'

type Counter = 'verifications_succeeded' | 'verifications_failed' | 'deliveries' | 'delivery_failures'
type Removal = 'failures' | 'gone' | 'expired' | 'unsubscribed'

interface TopicCounters {
  counts: Record<Counter, number>
  removals: Record<Removal, number>
  lastDeliveryAt: number | null
  deliveredVersion: number | null
}

/** In-memory counters per topic since the process started: what an operator checks to see the hub is alive. */
export class HubCounters {
  readonly since = new Date().toISOString()
  private readonly topics = new Map<string, TopicCounters>()

  constructor(topicUrls: string[]) {
    for (const url of topicUrls) {
      this.topics.set(url, {
        counts: { verifications_succeeded: 0, verifications_failed: 0, deliveries: 0, delivery_failures: 0 },
        removals: { failures: 0, gone: 0, expired: 0, unsubscribed: 0 },
        lastDeliveryAt: null,
        deliveredVersion: null
      })
    }
  }

  count(topic: string, counter: Counter): void {
    const t = this.topics.get(topic)
    if (t) t.counts[counter]++
  }

  removed(topic: string, why: Removal): void {
    const t = this.topics.get(topic)
    if (t) t.removals[why]++
  }

  delivered(topic: string, version: number): void {
    const t = this.topics.get(topic)
    if (!t) return
    t.counts.deliveries++
    t.lastDeliveryAt = Date.now()
    t.deliveredVersion = Math.max(t.deliveredVersion ?? 0, version)
  }

  report(dataVersion: number, active: Record<string, number>, owed: number): HubStats {
    return {
      data_version: dataVersion,
      owed_deliveries: owed,
      since: this.since,
      topics: [...this.topics].map(([topic, t]) => ({
        topic,
        active_subscriptions: active[topic] ?? 0,
        ...t.counts,
        removals: { ...t.removals },
        last_delivery_at: t.lastDeliveryAt === null ? null : new Date(t.lastDeliveryAt).toISOString(),
        delivered_version: t.deliveredVersion
      }))
    }
  }
}
