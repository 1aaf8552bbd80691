import type { Logger } from 'pino'
import type { Intent, SubscriptionStore } from '../store/index.js'
import type { Claims } from './claims.js'
import { QueueExpired } from './host-slots.js'
import type { Outbound } from './outbound.js'
import { sendDenied, verifyIntent, type VerificationResult } from './verify.js'

/** Verifications run a few at a time per node: each is one GET, bounded by the timeout. */
const CONCURRENCY = 16
/** How often a node looks for intents nobody holds (left by a node that died, or waiting behind an older one). */
const SWEEP_MS = 1000

export interface VerifierOptions {
  store: SubscriptionStore
  out: Outbound
  claims: Claims
  log: Logger
  /** The data version a new subscriber is counted as having. */
  version(): number
  maxPerHost: number
  /** Something about the subscriptions changed (a verification applied): the stats are stale. */
  changed(): void
  /** A verification was made, with this outcome. */
  observe(ok: boolean): void
}

/**
 * Verification of intent (WebSub section 5.3) off the request path. Intents are stored, and a node works only on
 * those it claimed: the one that received the request at once, any other within a sweep when its holder died. The
 * store hands out only the oldest intent of each (topic, callback), so a subscribe and a later unsubscribe take
 * effect in order whichever nodes verify them.
 */
export class Verifier {
  private readonly queue: Intent[] = []
  private readonly running = new Set<Promise<void>>()
  private readonly sweeper: NodeJS.Timeout
  private stopped = false

  constructor(private readonly o: VerifierOptions) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS)
    this.sweeper.unref()
  }

  /** Stores a new intent and starts on it here, unless an older one of its (topic, callback) goes first. */
  async add(intent: Omit<Intent, 'id'>): Promise<void> {
    const { id, claimed } = await this.o.store.addIntent(intent, this.o.claims.claim())
    if (claimed) this.enqueue([{ id, ...intent }])
  }

  /** Claims what intents this node has room for. */
  sweep(): void {
    const room = CONCURRENCY - this.running.size - this.queue.length
    if (this.stopped || room <= 0) return
    this.o.store.claimIntents(this.o.claims.claim(), room).then(
      (intents) => this.enqueue(intents),
      (err: unknown) => this.o.log.error({ err }, 'claiming websub intents failed')
    )
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.sweeper)
    this.queue.length = 0
    await Promise.all(this.running)
  }

  private enqueue(intents: Intent[]): void {
    this.queue.push(...intents)
    while (!this.stopped && this.running.size < CONCURRENCY && this.queue.length) {
      const run = this.settle(this.queue.shift()!)
        .catch((err: unknown) => this.o.log.error({ err }, 'websub verification bookkeeping failed'))
        .finally(() => {
          this.running.delete(run)
          // Start what waits here, then claim more: the next intent of the same (topic, callback) may be free now.
          this.enqueue([])
          this.sweep()
        })
      this.running.add(run)
    }
  }

  /** Verifies one intent and applies it; a failed verification leaves the subscription as it was (section 5.3). */
  private async settle(intent: Intent): Promise<void> {
    const { mode, topic, callback, leaseSeconds } = intent
    const verifiedAt = Date.now()
    let result: VerificationResult
    try {
      result = await verifyIntent(this.o.out, mode, topic, callback, leaseSeconds)
    } catch (err) {
      if (!(err instanceof QueueExpired)) throw err
      // Never sent: the callback host had no free connection in time. Handed back, to be claimed again.
      await this.o.store.releaseIntent(this.o.claims.node, intent.id)
      return
    }
    this.o.observe(result.ok)
    this.o.log.info({ mode, topic, callback, verified: result.ok, reason: result.reason }, 'websub verification of intent')
    if (result.ok) await this.apply(intent, verifiedAt)
    await this.o.store.finishIntent(intent, result.ok)
    this.o.changed()
  }

  private async apply(intent: Intent, verifiedAt: number): Promise<void> {
    const { topic, callback } = intent
    if (intent.mode === 'unsubscribe') {
      await this.o.store.unsubscribe(topic, callback)
      return
    }
    // The lease counts from the verification request (section 5.3).
    const outcome = await this.o.store.subscribe({
      topic,
      callback,
      secret: intent.secret,
      leaseSeconds: intent.leaseSeconds,
      expiresAt: verifiedAt + intent.leaseSeconds * 1000,
      version: this.o.version(),
      maxPerHost: this.o.maxPerHost
    })
    if (outcome === 'host_full') {
      this.o.log.warn({ topic, callback }, 'websub subscription denied: too many subscriptions for the callback host')
      await sendDenied(this.o.out, topic, callback, 'too many subscriptions for this callback host')
    }
  }
}
