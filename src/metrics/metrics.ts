import { Registry } from 'prom-client'
import type { Store } from '../store/index.js'
import type { RouteTally } from './http-tally.js'
import { createInstruments, type ClusterReads, type HubView, type Instruments } from './instruments.js'

/** What a node's metrics read at scrape time: its snapshot, the shared store, and how topics are labelled. */
export interface MetricsSources {
  data(): { version: number; changedAt: Date } | undefined
  store: Store
  /** Topic URL -> its label (the topic's path: bounded, and the same whatever BASE_URL is). */
  topicLabel(url: string): string
}

/** A store read that a scrape shares between the gauges that need it. */
const SHARED_READ_MS = 250

/**
 * One node's metrics: instruments in a registry of its own (several services in one test process never collide),
 * and the observations the other areas report. HTTP observations are on the hot read path: they go to an HttpTally.
 */
export class Metrics {
  readonly registry = new Registry()
  private readonly i: Instruments
  private sources: MetricsSources | undefined
  private hubRead: { at: number; view: Promise<HubView | undefined> } | undefined

  /** `runtime`: prom-client's process and runtime collectors (off when nothing will be scraped: they watch every GC). */
  constructor(o: { runtime: boolean } = { runtime: true }) {
    this.i = createInstruments(this.registry, this.reads(), o.runtime)
  }

  /** From now on scrapes read these (before, while the node starts, those gauges are left out). */
  attach(sources: MetricsSources): void {
    this.sources = sources
  }

  /** The recorder of one HTTP route's answers (made once per route, called once per answer). */
  httpRoute(route: string): RouteTally {
    return this.i.http.forRoute(route)
  }

  snapshotBuilt(seconds: number): void {
    this.i.buildDuration.observe(seconds)
  }

  snapshotFailed(): void {
    this.i.buildFailures.inc()
  }

  storeOperation(operation: string, seconds: number, failed: boolean): void {
    this.i.storeDuration.observe({ operation }, seconds)
    if (failed) this.i.storeErrors.inc({ operation })
  }

  websubDelivery(topicUrl: string, ok: boolean): void {
    this.i.websubDeliveries.inc({ topic: this.topic(topicUrl), outcome: ok ? 'success' : 'failure' })
  }

  websubVerification(ok: boolean): void {
    this.i.websubVerifications.inc({ outcome: ok ? 'verified' : 'failed' })
  }

  mcpRequest(method: string, ok: boolean): void {
    this.i.mcpRequests.inc({ method, outcome: ok ? 'result' : 'error' })
  }

  mcpToolCall(tool: string, ok: boolean, seconds: number): void {
    this.i.mcpToolCalls.inc({ tool, outcome: ok ? 'ok' : 'error' })
    this.i.mcpToolDuration.observe({ tool }, seconds)
  }

  mcpNotification(type: string): void {
    this.i.mcpNotifications.inc({ type })
  }

  private topic(url: string): string {
    return this.sources?.topicLabel(url) ?? 'unknown'
  }

  private reads(): ClusterReads {
    return {
      data: () => this.sources?.data(),
      hub: () => this.hubView(),
      sessionsOpen: async () => this.sources?.store.sessions.count(),
      imports: async () => this.sources?.store.importRuns()
    }
  }

  private hubView(): Promise<HubView | undefined> {
    const now = Date.now()
    if (this.hubRead && now - this.hubRead.at < SHARED_READ_MS) return this.hubRead.view
    const view = this.readHub()
    this.hubRead = { at: now, view }
    return view
  }

  private async readHub(): Promise<HubView | undefined> {
    const s = this.sources
    const data = s?.data()
    if (!s || !data) return undefined
    const t = await s.store.subscriptions.totals(data.version, Date.now())
    const topics: HubView['topics'] = {}
    for (const url of Object.keys(t.active)) {
      topics[s.topicLabel(url)] = { active: t.active[url] ?? 0, owed: t.owedByTopic[url] ?? 0, retrying: t.retryingByTopic[url] ?? 0 }
    }
    const delivered = Object.values(t.counters).filter((c) => c.deliveredVersion === data.version && c.lastDeliveryAt !== null)
    const last = Math.max(...delivered.map((c) => c.lastDeliveryAt!))
    const fanoutSeconds = t.owed === 0 && delivered.length ? Math.max(0, (last - data.changedAt.getTime()) / 1000) : undefined
    return { topics, owed: t.owed, pendingVerifications: t.pendingVerifications, fanoutSeconds }
  }
}
