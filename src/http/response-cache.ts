import { LRUCache } from 'lru-cache'
import type { Representation } from '../snapshot/index.js'

/**
 * Computed responses (search pages, since lists, single reviews) for the current snapshot, keyed by the exact
 * request. Bounded by bytes; emptied when a new snapshot arrives. In-flight builds are shared, not repeated.
 */
export class ResponseCache {
  private readonly done = new LRUCache<string, Representation>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (rep) => Object.values(rep.variants).reduce((n, v) => n + v.body.length, 0) || 1
  })
  private readonly pending = new Map<string, Promise<Representation>>()

  get(key: string): Representation | undefined {
    return this.done.get(key)
  }

  async compute(key: string, build: () => Promise<Representation>): Promise<Representation> {
    const cached = this.done.get(key) ?? this.pending.get(key)
    if (cached) return cached
    const promise = build()
    this.pending.set(key, promise)
    try {
      const rep = await promise
      this.done.set(key, rep)
      return rep
    } finally {
      this.pending.delete(key)
    }
  }

  clear(): void {
    this.done.clear()
  }
}
