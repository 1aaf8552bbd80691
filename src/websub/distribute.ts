import { createHmac } from 'node:crypto'
import type { Logger } from 'pino'
import type { Snapshot, Topic } from '../snapshot/index.js'
import type { Subscription, SubscriptionStore } from '../store/index.js'
import type { Claims } from './claims.js'
import { QueueExpired } from './host-slots.js'
import type { Outbound } from './outbound.js'
import { describe, sendDenied } from './verify.js'

export interface DistributorOptions {
  store: SubscriptionStore
  out: Outbound
  claims: Claims
  topics: Topic[]
  current(): Snapshot
  log: Logger
  /** Waits before the 2nd, 3rd, ... attempt; the number of attempts is one more than its length. */
  retryDelaysMs: number[]
  concurrency: number
  /** How long an owed subscription may wait in memory for its host's connections before it is put back. */
  queueTimeoutMs: number
  /** A delivery attempt was made to a subscriber of this topic, with this outcome. */
  observe(topic: string, ok: boolean): void
}

/** Acknowledged deliveries are written in batches: one transaction for many rows. */
const FLUSH_EVERY = 256
const FLUSH_AFTER_MS = 20
const RECHECK_MS = 50

interface Queued {
  s: Subscription
  at: number
}

/**
 * The outbox (design.md): whatever a subscription has not received is owed, so nothing is queued in memory that a
 * crash could lose. Each pass claims subscriptions whose watermark is below the current data version and sends the
 * current content of their topic: a subscriber behind by several versions gets only the newest (coalescing), and
 * every subscriber of a version gets the same bytes. A claim is this node's for a lease it keeps renewing, so however
 * many nodes run, each owed delivery is made by one of them, and a dead node's claims run out for others to take.
 *
 * At most `concurrency` deliveries run at once, and a delivery starts only when its callback host has a free
 * connection (Outbound's per-host limit), so its timeout never counts time spent queueing and one host with many
 * subscriptions holds at most its connections' worth of the slots. Claimed subscriptions wait in memory per host; one
 * that waits longer than the queue bound is handed back to the outbox unsent, never counted as a failure.
 */
export class Distributor {
  private readonly acknowledged: { topic: string; callback: string; version: number }[] = []
  /** Claimed subscriptions not started yet, per callback host: a free connection starts the next without a query. */
  private readonly queue = new Map<string, Queued[]>()
  private queued = 0
  private running = 0
  private pumping = false
  private again = false
  private stopped = false
  private wakeTimer: NodeJS.Timeout | undefined
  private flushTimer: NodeJS.Timeout | undefined
  private readonly byUrl: Map<string, Topic>
  private idleWaiters: (() => void)[] = []

  constructor(private readonly o: DistributorOptions) {
    this.byUrl = new Map(o.topics.map((t) => [t.url, t]))
  }

  /** Something may be owed now (a new version, a restart, a retry time reached, a claim ran out): look. */
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

  /** Stops starting deliveries, waits for those under way, and records their outcome (claims are released by the hub). */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.wakeTimer)
    while (this.running > 0) await new Promise<void>((ok) => this.idleWaiters.push(ok))
    await this.flush()
  }

  private async pump(): Promise<void> {
    const snapshot = this.o.current()
    await this.putBackExpired()
    if (!this.startQueued(snapshot) && this.wantsMore()) {
      // Hosts with no free connection are left out, so their backlog cannot hide other hosts' subscriptions.
      const claimed = await this.o.store.claimDue(this.o.claims.claim(), snapshot.version, 2 * this.o.concurrency, this.o.out.busyHosts())
      this.enqueue(claimed)
      this.startQueued(this.o.current())
    }
    if (this.queued === 0 && this.running === 0) await this.scheduleWake(snapshot.version)
    // Waiting only on connections that verifications hold: no delivery of ours will end to wake us, so look again soon.
    else if (this.running === 0) this.wakeIn(RECHECK_MS)
  }

  /** Claims more only when a good share of the slots is free, so a pass is one query for many deliveries. */
  private wantsMore(): boolean {
    const free = this.o.concurrency - this.running
    return free > 0 && (this.running === 0 || free >= this.o.concurrency / 4)
  }

  private enqueue(claimed: Subscription[]): void {
    const at = Date.now()
    for (const s of claimed) {
      const host = callbackHostOf(s)
      const items = this.queue.get(host) ?? []
      if (items.length === 0) this.queue.set(host, items)
      items.push({ s, at })
      this.queued++
    }
  }

  /** Starts what the concurrency and the hosts' free connections allow; true if something could start. */
  private startQueued(snapshot: Snapshot): boolean {
    let started = false
    for (const [host, items] of this.queue) {
      while (items.length && this.running < this.o.concurrency && !this.o.out.hostBusy(items[0]!.s.callback)) {
        this.start(items.shift()!.s, snapshot)
        this.queued--
        started = true
      }
      if (items.length === 0) this.queue.delete(host)
    }
    return started
  }

  /** Hands back, unsent, what waited in memory longer than the queue bound: still owed, for any node to claim. */
  private async putBackExpired(): Promise<void> {
    const expired = Date.now() - this.o.queueTimeoutMs
    const back: Subscription[] = []
    for (const [host, items] of this.queue) {
      while (items.length && items[0]!.at < expired) back.push(items.shift()!.s)
      if (items.length === 0) this.queue.delete(host)
    }
    if (back.length === 0) return
    this.queued -= back.length
    await this.o.store.release(this.o.claims.node, back)
  }

  private async scheduleWake(version: number): Promise<void> {
    const at = await this.o.store.nextWakeAt(version, Date.now())
    if (at !== null) this.wakeIn(Math.max(0, at - Date.now()) + 5)
  }

  private wakeIn(ms: number): void {
    clearTimeout(this.wakeTimer)
    if (this.stopped) return
    this.wakeTimer = setTimeout(() => this.poke(), ms)
    this.wakeTimer.unref()
  }

  private start(s: Subscription, snapshot: Snapshot): void {
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
    // A topic this hub no longer serves (BASE_URL changed): failed attempts, until the subscription is removed.
    if (!topic) return this.failed(s, false)
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
      // Never sent: its host had no free connection in time. Still owed: handed back for the next pass.
      if (err instanceof QueueExpired) return this.o.store.release(this.o.claims.node, [s])
      error = describe(err)
    }
    const attempt = { topic: s.topic, callback: s.callback, version: snapshot.version, attempt: s.failures + 1, status, error, ms: Math.round(performance.now() - started) }
    const ok = status !== undefined && status >= 200 && status <= 299
    this.o.observe(s.topic, ok)
    if (ok) {
      this.o.log.info(attempt, 'websub delivery acknowledged')
      this.acknowledge({ topic: s.topic, callback: s.callback, version: snapshot.version })
      return
    }
    this.o.log.warn(attempt, 'websub delivery failed')
    await this.failed(s, status === 410)
  }

  private async failed(s: Subscription, gone: boolean): Promise<void> {
    const delays = this.o.retryDelaysMs
    const nextAttemptAt = Date.now() + (delays[Math.min(s.failures, delays.length - 1)] ?? 0)
    const outcome = await this.o.store.failed(s.topic, s.callback, { nextAttemptAt, maxFailures: delays.length + 1, gone })
    if (outcome === 'gone') {
      this.o.log.info({ topic: s.topic, callback: s.callback }, 'websub subscription removed: the callback answered 410 Gone')
    } else if (outcome === 'removed') {
      this.o.log.info({ topic: s.topic, callback: s.callback, attempts: delays.length + 1 }, 'websub subscription removed after consecutive failed deliveries')
      await sendDenied(this.o.out, s.topic, s.callback, `${delays.length + 1} consecutive deliveries failed; subscribe again to resume`)
    }
  }

  private acknowledge(item: { topic: string; callback: string; version: number }): void {
    this.acknowledged.push(item)
    if (this.acknowledged.length >= FLUSH_EVERY) void this.flush()
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS)
  }

  /** Writes acknowledged watermarks; the claims hold until then, so no node sends the same version twice. */
  private async flush(): Promise<void> {
    clearTimeout(this.flushTimer)
    this.flushTimer = undefined
    const items = this.acknowledged.splice(0)
    if (items.length === 0) return
    try {
      await this.o.store.delivered(items, Date.now())
    } finally {
      this.poke()
    }
  }
}

const callbackHostOf = (s: Subscription) => new URL(s.callback).hostname
