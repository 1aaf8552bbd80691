import type { Logger } from 'pino'
import type { HubStats } from '../domain/index.js'
import type { Snapshot, Topic } from '../snapshot/index.js'
import type { SubscriptionStore } from '../store/index.js'
import { AddressGuard, RefusedAddress, type Resolve } from './address-guard.js'
import { Claims } from './claims.js'
import { Distributor } from './distribute.js'
import { Outbound } from './outbound.js'
import { HubRefusal, parseHubRequest } from './request.js'
import { hubStats } from './stats.js'
import { Verifier } from './verifier.js'
import { describe } from './verify.js'

export interface HubSettings {
  leaseDefaultS: number
  leaseMinS: number
  leaseMaxS: number
  retryDelaysMs: number[]
  timeoutMs: number
  allowPrivateCallbacks: boolean
  maxCallbackLength: number
  maxPerHost: number
  /** Deliveries under way at once, over all callback hosts. */
  concurrency: number
  /**
   * Kept-alive connections per callback host, and so requests under way to it at once: many subscribers on one host
   * share them (TLS handshakes cost far more than requests on an open connection). At most `concurrency`, so one host
   * holds at most this many of the delivery slots and the others stay free for other hosts.
   */
  connectionsPerHost: number
  /** How long a request may wait for its host's connections; past it, it is put back unsent (never a failure). */
  queueTimeoutMs: number
  /** How long work a node claimed stays its own without renewal: a dead node's work is taken over after this. */
  claimLeaseMs: number
  extraCa?: string
}

export interface HubOptions {
  settings: HubSettings
  store: SubscriptionStore
  topics: Topic[]
  current(): Snapshot
  log: Logger
  /** Host name resolution for the address guard (the system resolver unless a test brings its own). */
  resolve?: Resolve
  /** Told of every delivery attempt and verification this node makes (the metrics). */
  observer?: HubObserver
}

export interface HubObserver {
  delivery(topic: string, ok: boolean): void
  verification(ok: boolean): void
}

const PURGE_EVERY_MS = 60_000
const STATS_TTL_MS = 1000

/**
 * The WebSub hub (W3C WebSub, decisions.md section 4), free of the HTTP framework: `request` takes the form of a
 * subscription request and answers 202 or a refusal; verification of intent and distribution run afterwards. All its
 * state is in the store, so any number of nodes can run it over the same store: each takes work by claiming it.
 */
export class Hub {
  private readonly guard: AddressGuard
  private readonly out: Outbound
  private readonly claims: Claims
  private readonly verifier: Verifier
  private readonly distributor: Distributor
  private readonly topicUrls: string[]
  private purgeTimer: NodeJS.Timeout | undefined
  private statsCache: { at: number; stats: HubStats } | undefined

  constructor(private readonly o: HubOptions) {
    const s = o.settings
    this.guard = new AddressGuard(s.allowPrivateCallbacks, o.resolve)
    this.out = new Outbound({
      guard: this.guard,
      timeoutMs: s.timeoutMs,
      connectionsPerHost: s.connectionsPerHost,
      queueTimeoutMs: s.queueTimeoutMs,
      extraCa: s.extraCa
    })
    this.topicUrls = o.topics.map((t) => t.url)
    this.claims = new Claims(o.store, s.claimLeaseMs, o.log)
    this.verifier = new Verifier({
      store: o.store,
      out: this.out,
      claims: this.claims,
      log: o.log,
      version: () => o.current().version,
      maxPerHost: s.maxPerHost,
      changed: () => (this.statsCache = undefined),
      observe: (ok) => o.observer?.verification(ok)
    })
    this.distributor = new Distributor({
      store: o.store,
      out: this.out,
      claims: this.claims,
      topics: o.topics,
      current: o.current,
      log: o.log,
      retryDelaysMs: s.retryDelaysMs,
      concurrency: s.concurrency,
      queueTimeoutMs: s.queueTimeoutMs,
      observe: (topic, ok) => o.observer?.delivery(topic, ok)
    })
  }

  /** Resumes what is waiting in the store: unverified intents and owed deliveries, whichever node left them. */
  async start(): Promise<void> {
    this.verifier.sweep()
    // Expired leases get no notifications at once (the outbox skips them); the rows go at the next purge.
    this.purgeTimer = setInterval(() => void this.purgeExpired(), Math.min(PURGE_EVERY_MS, this.o.settings.leaseMinS * 1000))
    this.purgeTimer.unref()
    this.distributor.poke()
  }

  /** A new data version: every active subscription now owes its topic's new content. */
  dataChanged(): void {
    this.statsCache = undefined
    this.distributor.poke()
  }

  /** Handles a subscription request: 202 once it is valid, whatever verification later finds (section 5.1.2). */
  async request(form: URLSearchParams): Promise<{ status: number; text: string }> {
    try {
      const r = parseHubRequest(form, this.topicUrls, this.o.settings.maxCallbackLength)
      await this.checkAddress(r.host)
      if (r.mode === 'subscribe') await this.checkHostLimit(r.host, r.topic, r.callback)
      await this.verifier.add({ mode: r.mode, topic: r.topic, callback: r.callback, secret: r.secret, leaseSeconds: this.clampLease(r.leaseSeconds) })
      return { status: 202, text: `Accepted: the hub will verify this ${r.mode} request with a GET to the callback.` }
    } catch (err) {
      if (err instanceof HubRefusal) return { status: err.status, text: err.message }
      throw err
    }
  }

  /** Cluster-wide counters from the store, cached for a second (operators poll this). */
  async stats(): Promise<HubStats> {
    const now = Date.now()
    if (this.statsCache && now - this.statsCache.at < STATS_TTL_MS) return this.statsCache.stats
    const version = this.o.current().version
    const stats = hubStats(version, await this.o.store.totals(version, now), this.topicUrls)
    this.statsCache = { at: now, stats }
    return stats
  }

  /** Finishes the exchanges under way, records them, and hands every other claim back to the cluster. */
  async stop(): Promise<void> {
    clearInterval(this.purgeTimer)
    await Promise.all([this.distributor.stop(), this.verifier.stop()])
    await this.claims.releaseAll()
    await this.out.close()
  }

  private async checkAddress(host: string): Promise<void> {
    try {
      await this.guard.vet(host)
    } catch (err) {
      throw new HubRefusal(400, err instanceof RefusedAddress ? err.message : `hub.callback host ${host} cannot be resolved`)
    }
  }

  private async checkHostLimit(host: string, topic: string, callback: string): Promise<void> {
    const n = await this.o.store.countForHost(host, { topic, callback }, Date.now())
    if (n >= this.o.settings.maxPerHost) throw new HubRefusal(403, `the callback host ${host} already has ${n} subscriptions, the most this hub allows`)
  }

  private clampLease(requested: number | undefined): number {
    const s = this.o.settings
    return Math.min(s.leaseMaxS, Math.max(s.leaseMinS, requested ?? s.leaseDefaultS))
  }

  private async purgeExpired(): Promise<void> {
    try {
      if ((await this.o.store.purgeExpired(Date.now())) > 0) this.statsCache = undefined
    } catch (err) {
      this.o.log.error({ err: describe(err) }, 'purging expired websub subscriptions failed')
    }
  }
}
