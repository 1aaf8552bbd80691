/** Snapshot: immutable, precomputed views of one data version, and the holder that swaps them in. */
export { buildSnapshot, aggregateRating, CONTENT_TYPES, FEED_SIZE, type Snapshot } from './build.js'
export { SnapshotHolder, type BuildObserver, type SwapListener } from './holder.js'
export { represent, representComputed, COMMON_HEADERS, type Representation, type Variant, type Encoding } from './representation.js'
export type { SearchIndex } from './search-index.js'
export { topics, type Topic } from './topics.js'
