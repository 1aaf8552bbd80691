import { LRUCache } from 'lru-cache'
import type { Representation } from '../snapshot/index.js'

/**
 * Computed responses (search pages, since lists, single reviews) of the current snapshot, keyed by the exact request.
 * Bounded by bytes (compressed variants are counted as the identity size again); emptied when a new snapshot arrives.
 */
export class ResponseCache {
  private readonly entries = new LRUCache<string, Representation>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (rep) => 2 * rep.variants.identity.body.length + 1024
  })

  getOrBuild(key: string, build: () => Representation): Representation {
    let rep = this.entries.get(key)
    if (!rep) {
      rep = build()
      this.entries.set(key, rep)
    }
    return rep
  }

  clear(): void {
    this.entries.clear()
  }
}
