import type { Logger } from 'pino'
import type { Urls } from '../config/index.js'
import type { Store } from '../store/index.js'
import { buildSnapshot, type Snapshot } from './build.js'

export type SwapListener = (next: Snapshot, previous: Snapshot | undefined) => void

/** Told how builds go (the metrics). */
export interface BuildObserver {
  built(seconds: number): void
  failed(): void
}

/**
 * Holds the current snapshot and replaces it when the store's data version moves, whoever wrote it. Builds run one
 * at a time off the request path; readers keep the old snapshot until the new one is complete.
 */
export class SnapshotHolder {
  private snapshot: Snapshot | undefined
  private building: Promise<void> | undefined
  private unwatch: (() => void) | undefined
  private readonly listeners: SwapListener[] = []

  constructor(
    private readonly store: Store,
    private readonly urls: Urls,
    private readonly log: Logger,
    private readonly observer?: BuildObserver
  ) {}

  get current(): Snapshot {
    if (!this.snapshot) throw new Error('no snapshot yet: call refresh() first')
    return this.snapshot
  }

  onSwap(listener: SwapListener): void {
    this.listeners.push(listener)
  }

  /** Builds a snapshot if the store holds a newer version than the current one; concurrent calls share the work. */
  refresh(): Promise<void> {
    this.building ??= this.rebuildWhileBehind()
      .catch((err: unknown) => {
        this.observer?.failed()
        throw err
      })
      .finally(() => (this.building = undefined))
    return this.building
  }

  /** Follows the store's change signal, so a write by any node or process shows up here after one build. */
  watch(): void {
    this.unwatch = this.store.watch(() => {
      this.refresh().catch((err: unknown) => this.log.error({ err }, 'snapshot refresh failed; serving the previous one'))
    })
  }

  stop(): void {
    this.unwatch?.()
  }

  private async rebuildWhileBehind(): Promise<void> {
    while ((await this.store.dataVersion()) !== this.snapshot?.version) {
      const data = await this.store.readPublished()
      if (!data) throw new Error('the store holds no business')
      if (data.version === this.snapshot?.version) return
      const started = performance.now()
      const next = await buildSnapshot(data, this.urls, this.snapshot)
      const previous = this.snapshot
      this.snapshot = next
      const ms = performance.now() - started
      this.observer?.built(ms / 1000)
      this.log.info({ version: next.version, reviews: next.index.reviews.length, ms: Math.round(ms) }, 'snapshot ready')
      for (const listener of this.listeners) listener(next, previous)
    }
  }
}
