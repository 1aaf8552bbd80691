import type { Logger } from 'pino'
import type { HubStats } from '../domain/index.js'
import type { Snapshot, Topic } from '../snapshot/index.js'
import type { Intent, SubscriptionStore } from '../store/index.js'
import { AddressGuard, RefusedAddress, type Resolve } from './address-guard.js'
import { Distributor } from './distribute.js'
import { Outbound } from './outbound.js'
import { HubRefusal, parseHubRequest } from './request.js'
import { HubCounters } from './stats.js'
import { QueueExpired } from './host-slots.js'
import { describe, sendDenied, verifyIntent, type VerificationResult } from './verify.js'

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
}

/** Verifications run a few at a time: each is one GET, bounded by the timeout. */
const VERIFY_CONCURRENCY = 16
const PURGE_EVERY_MS = 60_000
const STATS_TTL_MS = 1000

/**
 * The WebSub hub (W3C WebSub, decisions.md section 4), free of the HTTP framework: `request` takes the form of a
 * subscription request and answers 202 or a refusal; verification of intent and distribution run afterwards.
 */
export class Hub {
  private readonly guard: AddressGuard
  private readonly out: Outbound
  private readonly counters: HubCounters
  private readonly distributor: Distributor
  private readonly topicUrls: string[]
  /** Intents per (topic, callback), so a subscribe and a later unsubscribe take effect in order. */
  private readonly chains = new Map<string, Promise<void>>()
  private readonly queue: Intent[] = []
  private verifying = 0
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
    this.counters = new HubCounters(this.topicUrls)
    this.distributor = new Distributor({
      store: o.store,
      out: this.out,
      topics: o.topics,
      current: o.current,
      counters: this.counters,
      log: o.log,
      retryDelaysMs: s.retryDelaysMs,
      concurrency: s.concurrency,
      queueTimeoutMs: s.queueTimeoutMs
    })
  }

  /** Resumes what a previous run left: unverified intents and owed deliveries. */
  async start(): Promise<void> {
    for (const intent of await this.o.store.pendingIntents()) this.enqueue(intent)
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
      const leaseSeconds = this.clampLease(r.leaseSeconds)
      const intent = { mode: r.mode, topic: r.topic, callback: r.callback, secret: r.secret, leaseSeconds }
      this.enqueue({ id: await this.o.store.addIntent(intent), ...intent })
      return { status: 202, text: `Accepted: the hub will verify this ${r.mode} request with a GET to the callback.` }
    } catch (err) {
      if (err instanceof HubRefusal) return { status: err.status, text: err.message }
      throw err
    }
  }

  async stats(): Promise<HubStats> {
    const now = Date.now()
    if (this.statsCache && now - this.statsCache.at < STATS_TTL_MS) return this.statsCache.stats
    const version = this.o.current().version
    const { byTopic, owed } = await this.o.store.counts(version, now)
    const stats = this.counters.report(version, byTopic, owed)
    this.statsCache = { at: now, stats }
    return stats
  }

  async stop(): Promise<void> {
    clearInterval(this.purgeTimer)
    await this.distributor.stop()
    await Promise.all(this.chains.values())
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

  private enqueue(intent: Intent): void {
    this.queue.push(intent)
    this.drain()
  }

  private drain(): void {
    while (this.verifying < VERIFY_CONCURRENCY && this.queue.length) {
      const intent = this.queue.shift()!
      const k = `${intent.topic}\n${intent.callback}`
      this.verifying++
      const run = (this.chains.get(k) ?? Promise.resolve())
        .then(() => this.settle(intent))
        .catch((err: unknown) => this.o.log.error({ err, intent: intent.id }, 'websub verification bookkeeping failed'))
        .finally(() => {
          this.verifying--
          if (this.chains.get(k) === run) this.chains.delete(k)
          this.drain()
        })
      this.chains.set(k, run)
    }
  }

  /** Verifies one intent and applies it; a failed verification leaves the subscription as it was (section 5.3). */
  private async settle(intent: Intent): Promise<void> {
    const { mode, topic, callback, leaseSeconds } = intent
    const verifiedAt = Date.now()
    let result: VerificationResult
    try {
      result = await verifyIntent(this.out, mode, topic, callback, leaseSeconds)
    } catch (err) {
      if (!(err instanceof QueueExpired)) throw err
      // Never sent: the callback host had no free connection in time. The intent stays stored; try it again.
      this.enqueue(intent)
      return
    }
    this.counters.count(topic, result.ok ? 'verifications_succeeded' : 'verifications_failed')
    this.o.log.info({ mode, topic, callback, verified: result.ok, reason: result.reason }, 'websub verification of intent')
    if (result.ok) await this.apply(intent, verifiedAt)
    this.statsCache = undefined
    await this.o.store.removeIntent(intent.id)
  }

  private async apply(intent: Intent, verifiedAt: number): Promise<void> {
    const { topic, callback } = intent
    if (intent.mode === 'unsubscribe') {
      if (await this.o.store.unsubscribe(topic, callback)) this.counters.removed(topic, 'unsubscribed')
      return
    }
    // The lease counts from the verification request (section 5.3).
    const outcome = await this.o.store.subscribe({
      topic,
      callback,
      secret: intent.secret,
      leaseSeconds: intent.leaseSeconds,
      expiresAt: verifiedAt + intent.leaseSeconds * 1000,
      version: this.o.current().version,
      maxPerHost: this.o.settings.maxPerHost
    })
    if (outcome === 'host_full') {
      this.o.log.warn({ topic, callback }, 'websub subscription denied: too many subscriptions for the callback host')
      await sendDenied(this.out, topic, callback, 'too many subscriptions for this callback host')
    }
  }

  private async purgeExpired(): Promise<void> {
    try {
      for (const topic of await this.o.store.purgeExpired(Date.now())) this.counters.removed(topic, 'expired')
    } catch (err) {
      this.o.log.error({ err: describe(err) }, 'purging expired websub subscriptions failed')
    }
  }
}
