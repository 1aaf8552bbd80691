import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Claim, SubscriptionStore } from '../store/index.js'

/**
 * This node's hold on hub work in the shared store. Each claim lasts `leaseMs` and is renewed while the node lives,
 * so an exchange of any length keeps its work; a node that dies stops renewing, its claims run out within `leaseMs`,
 * and any other node takes the work over.
 */
export class Claims {
  readonly node = randomUUID()
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly store: SubscriptionStore,
    private readonly leaseMs: number,
    log: Logger
  ) {
    this.timer = setInterval(() => {
      this.store.renewClaims(this.claim()).catch((err: unknown) => log.error({ err }, 'renewing websub claims failed'))
    }, Math.max(100, Math.floor(leaseMs / 3)))
    this.timer.unref()
  }

  /** A claim made now, lasting one lease. */
  claim(): Claim {
    const now = Date.now()
    return { node: this.node, now, until: now + this.leaseMs }
  }

  /** Stops renewing and hands every claim back, so other nodes take the work at once. */
  async releaseAll(): Promise<void> {
    clearInterval(this.timer)
    await this.store.releaseAll(this.node)
  }
}
