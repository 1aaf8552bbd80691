import { createHmac } from 'node:crypto'
import type { Logger } from 'pino'
import type { Snapshot, Topic } from '../snapshot/index.js'
import type { Subscription, SubscriptionStore } from '../store/index.js'
import { QueueExpired } from './host-slots.js'
import type { Outbound } from './outbound.js'
import type { HubCounters } from './stats.js'
import { describe, sendDenied } from './verify.js'

export interface DistributorOptions {
  store: SubscriptionStore
  out: Outbound
  topics: Topic[]
  current(): Snapshot
  counters: HubCounters
  log: Logger
  /** Waits before the 2nd, 3rd, ... attempt; the number of attempts is one more than its length. */
  retryDelaysMs: number[]
  concurrency: number
  /** How long an owed subscription may wait in memory for its host's connections before it is put back. */
  queueTimeoutMs: number
}

const key = (s: { topic: string; callback: string }) => `${s.topic}\n${s.callback}`
/** Acknowledged deliveries are written in batches: one transaction for many rows. */
const FLUSH_EVERY = 256
/** Owed subscriptions read from the store at a time, then started as their hosts have connections free. */
const BATCH = 512
/** Owed subscriptions held in memory at most; past it nothing more is read until some have started. */
const MAX_QUEUED = 4 * BATCH
const FLUSH_AFTER_MS = 20
const RECHECK_MS = 50

interface Queued {
  s: Subscription
  at: number
}

/**
 * The outbox (design.md): whatever a subscription has not received is owed, so nothing is queued in memory that a
 * crash could lose. Each pass takes the subscriptions whose watermark is below the current data version and sends the
 * current content of their topic: a subscriber behind by several versions gets only the newest (coalescing), and
 * every subscriber of a version gets the same bytes. At most `concurrency` deliveries run at once, and a delivery
 * starts only when its callback host has a free connection (Outbound's per-host limit), so its timeout never counts
 * time spent queueing and one host with many subscriptions holds at most its connections' worth of the slots. Owed
 * subscriptions wait in memory per host; one that waits longer than the queue bound is put back in the outbox
 * (dropped here, still owed in the store), never counted as a failure.
 */
export class Distributor {
  /** Subscriptions being delivered to, or delivered and not yet recorded: never picked twice. */
  private readonly busy = new Set<string>()
  private readonly acknowledged: { topic: string; callback: string; version: number }[] = []
  /** Owed subscriptions read but not started yet, per callback host: a free connection starts the next without a query. */
  private readonly queue = new Map<string, Queued[]>()
  private queued = 0
  private running = 0
  private pumping = false
  private again = false
  private stopped = false
  private retryTimer: NodeJS.Timeout | undefined
  private flushTimer: NodeJS.Timeout | undefined
  private readonly byUrl: Map<string, Topic>
  private idleWaiters: (() => void)[] = []

  constructor(private readonly o: DistributorOptions) {
    this.byUrl = new Map(o.topics.map((t) => [t.url, t]))
  }

  /** Something may be owed now (a new version, a restart, a retry time reached): look. */
  poke(): void {
    if (this.stopped) return
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = true
    this.pump()
      .catch((err: unknown) => this.o.log.error({ err }, 'websub distribution pass failed'))
      .finally(() => {
        this.pumping = false
        if (this.again) {
          this.again = false
          this.poke()
        }
      })
  }

  /** Stops starting deliveries, waits for those under way, and records their outcome. */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.retryTimer)
    while (this.running > 0) await new Promise<void>((ok) => this.idleWaiters.push(ok))
    await this.flush()
  }

  private async pump(): Promise<void> {
    const snapshot = this.o.current()
    if (!this.startQueued(snapshot) && this.running < this.o.concurrency && this.queued < MAX_QUEUED) {
      // Busy subscriptions still look owed in the store until their outcome is written: read past them. Hosts with
      // no free connection are left out, so their backlog cannot hide other hosts' subscriptions.
      const due = await this.o.store.due(snapshot.version, Date.now(), BATCH + this.busy.size, this.o.out.busyHosts())
      this.enqueue(due.filter((s) => !this.busy.has(key(s))))
      this.startQueued(this.o.current())
    }
    if (this.queued === 0 && this.running === 0) await this.scheduleRetry(snapshot.version)
    // Waiting only on connections that verifications hold: no delivery of ours will end to wake us, so look again soon.
    else if (this.running === 0) this.scheduleRecheck()
  }

  private scheduleRecheck(): void {
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => this.poke(), RECHECK_MS)
    this.retryTimer.unref()
  }

  private enqueue(owed: Subscription[]): void {
    const at = Date.now()
    const queued = new Set([...this.queue.values()].flatMap((items) => items.map((q) => key(q.s))))
    for (const s of owed) {
      if (queued.has(key(s))) continue
      const host = new URL(s.callback).hostname
      const items = this.queue.get(host) ?? []
      if (items.length === 0) this.queue.set(host, items)
      items.push({ s, at })
      this.queued++
    }
  }

  /** Starts what the concurrency and the hosts' free connections allow; true if something could start. */
  private startQueued(snapshot: Snapshot): boolean {
    const expired = Date.now() - this.o.queueTimeoutMs
    let started = false
    for (const [host, items] of this.queue) {
      while (items.length && items[0]!.at < expired) this.drop(items)
      while (items.length && this.running < this.o.concurrency && !this.o.out.hostBusy(items[0]!.s.callback)) {
        this.start(items[0]!.s, snapshot)
        this.drop(items)
        started = true
      }
      if (items.length === 0) this.queue.delete(host)
    }
    return started
  }

  private drop(items: Queued[]): void {
    items.shift()
    this.queued--
  }

  private async scheduleRetry(version: number): Promise<void> {
    clearTimeout(this.retryTimer)
    const at = await this.o.store.nextRetryAt(version, Date.now())
    if (at === null || this.stopped) return
    this.retryTimer = setTimeout(() => this.poke(), Math.max(0, at - Date.now()) + 5)
    this.retryTimer.unref()
  }

  private start(s: Subscription, snapshot: Snapshot): void {
    if (this.busy.has(key(s))) return
    this.busy.add(key(s))
    this.running++
    this.deliver(s, snapshot)
      .catch((err: unknown) => this.o.log.error({ err, topic: s.topic, callback: s.callback }, 'websub delivery bookkeeping failed'))
      .finally(() => {
        this.running--
        if (this.running === 0) for (const w of this.idleWaiters.splice(0)) w()
        this.poke()
      })
  }

  private async deliver(s: Subscription, snapshot: Snapshot): Promise<void> {
    const topic = this.byUrl.get(s.topic)
    if (!topic) return this.release(s)
    const variant = topic.pick(snapshot).variants.identity
    const headers: Record<string, string> = { 'content-type': variant.headers['content-type']!, link: variant.headers.link! }
    // Signed over the exact bytes sent; every subscriber of this version gets the same bytes.
    if (s.secret) headers['x-hub-signature'] = `sha256=${createHmac('sha256', s.secret).update(variant.body).digest('hex')}`
    const started = performance.now()
    let status: number | undefined
    let error: string | undefined
    try {
      status = await this.o.out.post(s.callback, variant.body, headers)
    } catch (err) {
      // Never sent: its host had no free connection in time. Still owed; the next pass tries again.
      if (err instanceof QueueExpired) return this.release(s)
      error = describe(err)
    }
    const attempt = { topic: s.topic, callback: s.callback, version: snapshot.version, attempt: s.failures + 1, status, error, ms: Math.round(performance.now() - started) }
    if (status !== undefined && status >= 200 && status <= 299) {
      this.o.log.info(attempt, 'websub delivery acknowledged')
      this.o.counters.delivered(s.topic, snapshot.version)
      this.acknowledge({ topic: s.topic, callback: s.callback, version: snapshot.version })
      return
    }
    this.o.log.warn(attempt, 'websub delivery failed')
    this.o.counters.count(s.topic, 'delivery_failures')
    await this.failed(s, status === 410)
    this.release(s)
  }

  private async failed(s: Subscription, gone: boolean): Promise<void> {
    const delays = this.o.retryDelaysMs
    const nextAttemptAt = Date.now() + (delays[Math.min(s.failures, delays.length - 1)] ?? 0)
    const outcome = await this.o.store.failed(s.topic, s.callback, { nextAttemptAt, maxFailures: delays.length + 1, gone })
    if (outcome === 'gone') {
      this.o.counters.removed(s.topic, 'gone')
      this.o.log.info({ topic: s.topic, callback: s.callback }, 'websub subscription removed: the callback answered 410 Gone')
    } else if (outcome === 'removed') {
      this.o.counters.removed(s.topic, 'failures')
      this.o.log.info({ topic: s.topic, callback: s.callback, attempts: delays.length + 1 }, 'websub subscription removed after consecutive failed deliveries')
      await sendDenied(this.o.out, s.topic, s.callback, `${delays.length + 1} consecutive deliveries failed; subscribe again to resume`)
    }
  }

  private release(s: { topic: string; callback: string }): void {
    this.busy.delete(key(s))
  }

  private acknowledge(item: { topic: string; callback: string; version: number }): void {
    this.acknowledged.push(item)
    if (this.acknowledged.length >= FLUSH_EVERY) void this.flush()
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS)
  }

  /** Writes acknowledged watermarks; the subscriptions stay busy until then, so none is sent the same version twice. */
  private async flush(): Promise<void> {
    clearTimeout(this.flushTimer)
    this.flushTimer = undefined
    const items = this.acknowledged.splice(0)
    if (items.length === 0) return
    try {
      await this.o.store.delivered(items)
    } finally {
      for (const item of items) this.release(item)
      this.poke()
    }
  }
}
