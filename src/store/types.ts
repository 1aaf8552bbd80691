import type { Business, StoredReview } from '../domain/index.js'

export interface PublishedRecord {
  review: StoredReview
  /** RFC 3339: when this record last changed in the store. */
  updatedAt: string
}

/** Everything the published documents are built from, read in one consistent transaction. */
export interface PublishedData {
  version: number
  /** RFC 3339: when the published data last changed (the version was bumped). */
  changedAt: string
  business: Business
  /** Verified reviews only, in no particular order. */
  reviews: PublishedRecord[]
}

export interface ImportBatch {
  business?: Business
  reviews: StoredReview[]
  /** Remove stored reviews whose id is absent from the batch. */
  replace: boolean
  /**
   * With `replace`: only stored reviews from these sources may be removed (an export from one site is the whole truth
   * about that site's reviews only). Decided inside the import's transaction, so a concurrent import of another
   * source is never overwritten or lost.
   */
  replaceSources?: readonly string[]
  /** Apply only when the store holds no business yet (used to seed the demo data). */
  onlyIfEmpty?: boolean
  now: string
}

export interface ImportOutcome {
  /** The data version after the import. */
  version: number
  /** True when published data changed, so the version was bumped. */
  changed: boolean
  skipped: boolean
  businessChanged: boolean
  added: number
  updated: number
  removed: number
  unchanged: number
  /** Stored reviews absent from the batch that `replaceSources` kept because they come from other sources. */
  spared: number
}

/** A verified WebSub subscription and where its deliveries stand. Times are milliseconds since the epoch. */
export interface Subscription {
  topic: string
  callback: string
  secret: string | null
  leaseSeconds: number
  expiresAt: number
  /** Watermark: the data version this subscriber last received (or was subscribed at). Never a timestamp. */
  deliveredVersion: number
  /** Consecutive failed delivery attempts since the last success. */
  failures: number
  /** When a failed delivery may be tried again; null when nothing is waiting. */
  nextAttemptAt: number | null
}

/** A subscribe or unsubscribe request accepted with 202 and not yet verified; kept so a restart resumes it. */
export interface Intent {
  id: number
  mode: 'subscribe' | 'unsubscribe'
  topic: string
  callback: string
  secret: string | null
  leaseSeconds: number
}

export interface NewSubscription {
  topic: string
  callback: string
  secret: string | null
  leaseSeconds: number
  expiresAt: number
  /** The data version at verification: what a new subscriber is counted as having. */
  version: number
  maxPerHost: number
}

export type FailureOutcome = 'retry' | 'removed' | 'gone' | 'absent'

/**
 * Work a node takes for itself: until `until` (ms since the epoch) no other node takes the same row. A node renews
 * its claims while it lives (renewClaims); when it dies they run out and any node may take the work.
 */
export interface Claim {
  node: string
  now: number
  until: number
}

export type HubCounter = 'verifications_succeeded' | 'verifications_failed' | 'deliveries' | 'delivery_failures'
export type HubRemoval = 'failures' | 'gone' | 'expired' | 'unsubscribed'

/** Cluster-wide counters of one topic, kept in the store by the same writes that change the subscriptions. */
export interface TopicCounters {
  counts: Record<HubCounter, number>
  removals: Record<HubRemoval, number>
  /** ms since the epoch, or null. */
  lastDeliveryAt: number | null
  deliveredVersion: number | null
}

export interface HubTotals {
  /** When the counters started: when the store was created (ms since the epoch). */
  since: number
  /** Active subscriptions per topic. */
  active: Record<string, number>
  /** Active subscriptions that have not received the given version, per topic. */
  owedByTopic: Record<string, number>
  /** Active subscriptions backing off after a failed attempt, per topic. */
  retryingByTopic: Record<string, number>
  /** Active subscriptions that have not received the given version. */
  owed: number
  /** Subscribe and unsubscribe requests not yet verified. */
  pendingVerifications: number
  /** Per topic that has ever counted anything. */
  counters: Record<string, TopicCounters>
}

/**
 * WebSub state shared by every node. Every write is one statement or one transaction, so concurrent requests for the
 * same topic cannot lose each other's updates (no read-modify-write across an await), and every counter moves in the
 * same transaction as the state it counts.
 */
export interface SubscriptionStore {
  /** Stores an intent, claimed by the node that received it when `claim` is given and no older intent of the same (topic, callback) waits. */
  addIntent(intent: Omit<Intent, 'id'>, claim: Claim): Promise<{ id: number; claimed: boolean }>
  /**
   * Claims up to `limit` intents that no live claim holds, oldest first; only the oldest intent of each
   * (topic, callback) can be claimed, so a subscribe and a later unsubscribe take effect in order on any node.
   */
  claimIntents(claim: Claim, limit: number): Promise<Intent[]>
  /** Removes a settled intent and counts its verification (succeeded or failed) for its topic. */
  finishIntent(intent: Intent, verified: boolean): Promise<void>
  /**
   * A verified subscribe: a new subscription owes nothing yet; a renewal keeps its watermark and failure count. A new
   * one is refused when its callback host already has `maxPerHost` active subscriptions (checked atomically with the
   * insert, also against other nodes).
   */
  subscribe(s: NewSubscription): Promise<'created' | 'renewed' | 'host_full'>
  /** Removes a subscription (counting an unsubscribe removal); false when there was none. */
  unsubscribe(topic: string, callback: string): Promise<boolean>
  /** Active subscriptions whose callback is on this host, the given (topic, callback) left out. */
  countForHost(host: string, except: { topic: string; callback: string }, now: number): Promise<number>
  /**
   * Claims up to `limit` active subscriptions that have not received `version`, may be tried now (no backoff
   * pending) and no live claim holds, oldest watermark first; those whose callback host is in `skipHosts` are left out.
   */
  claimDue(claim: Claim, version: number, limit: number, skipHosts: readonly string[]): Promise<Subscription[]>
  /** The earliest time after `now` when some owed subscription becomes claimable (backoff or another claim ends), or null. */
  nextWakeAt(version: number, now: number): Promise<number | null>
  /**
   * Records acknowledged deliveries in one transaction: a watermark only moves forward, the failure count resets,
   * the claim ends, and the topic's delivery counters move (deliveries, last delivery at `at`, delivered version).
   */
  delivered(items: { topic: string; callback: string; version: number }[], at: number): Promise<void>
  /**
   * Counts a failed attempt (delivery_failures) and ends the claim: schedules the next attempt, or removes the
   * subscription after `maxFailures` in a row, or at once on 410 Gone (counting the removal). 'absent' when the
   * subscription is no longer there (unsubscribed meanwhile).
   */
  failed(topic: string, callback: string, o: { nextAttemptAt: number; maxFailures: number; gone: boolean }): Promise<FailureOutcome>
  /** Ends this node's claims on these subscriptions without an attempt: they are owed as before (put back). */
  release(node: string, items: { topic: string; callback: string }[]): Promise<void>
  /** Ends this node's claims on intents without settling them (put back). */
  releaseIntent(node: string, id: number): Promise<void>
  /** Extends every claim this node holds (subscriptions and intents) to `claim.until`. */
  renewClaims(claim: Claim): Promise<void>
  /** Ends every claim this node holds: a stopping node hands its work back. */
  releaseAll(node: string): Promise<void>
  /** Removes expired subscriptions, counting each as an 'expired' removal of its topic; returns how many. */
  purgeExpired(now: number): Promise<number>
  /** Active subscriptions per topic, how many owe `version`, and the cluster-wide counters. */
  totals(version: number, now: number): Promise<HubTotals>
}

/** What an MCP session must keep so that any node can serve it. Times are ms since the epoch. */
export interface McpSessionRecord {
  id: string
  protocolVersion: string
  clientInfo: { name: string; version: string; [k: string]: unknown }
  clientCapabilities: Record<string, unknown>
  /** The least severe log level the client wants (logging/setLevel). */
  logLevel: string
  /** Resource URIs the client subscribed to. */
  subscriptions: string[]
  createdAt: number
  lastSeen: number
}

export interface McpSessionChange {
  logLevel?: string
  subscribe?: string
  unsubscribe?: string
}

/**
 * MCP sessions shared by every node. Reads may come from a node-local cache, which the adapter keeps right through
 * the change signal: a change or deletion made on one node is seen by the others as soon as they hear it.
 */
export interface McpSessionStore {
  /** Stores a new session unless `max` sessions are live already (checked atomically, cluster-wide). */
  create(record: McpSessionRecord, max: number): Promise<'created' | 'full'>
  get(id: string): Promise<McpSessionRecord | undefined>
  /** Records use of a session (callers throttle it: this is a write). */
  touch(id: string, now: number): Promise<void>
  /** Applies one change; false when the session is gone. */
  update(id: string, change: McpSessionChange): Promise<boolean>
  delete(id: string): Promise<boolean>
  /** Deletes sessions last seen before `before`; returns their ids. */
  expireIdle(before: number): Promise<string[]>
  count(): Promise<number>
}

/** Fixed-window counters shared by every node (the per-client subscribe rate). */
export interface RateStore {
  /** Counts one hit of `key` in the window of `windowMs` that contains `now`; returns the hits so far and when the window ends. */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>
}

/** A full copy of a store: what `migrate` moves and a backup holds. Rows as the store keeps them. */
export interface StoreDump {
  version: number
  changedAt: string
  business: Business | null
  businessUpdatedAt: string | null
  reviews: { review: StoredReview; updatedAt: string }[]
  subscriptions: (Subscription & { createdAt: number })[]
  /** Verifications still owed. */
  intents: (Intent & { createdAt: number })[]
}

export interface StoreOptions {
  /** PostgreSQL: connections in the pool. */
  poolSize?: number
  /** PostgreSQL: a statement running longer than this is cancelled. */
  statementTimeoutMs?: number
  /** How often the change signal is polled (SQLite), or polled as a safety net besides LISTEN (PostgreSQL: 5x this). */
  pollIntervalMs?: number
}

export type ImportRunOutcome = 'changed' | 'unchanged' | 'failed'

export interface Store {
  readonly kind: 'sqlite' | 'postgres'
  readonly subscriptions: SubscriptionStore
  readonly sessions: McpSessionStore
  readonly rates: RateStore
  /** Cheap: the current data version. */
  dataVersion(): Promise<number>
  /** Null when no business has been stored yet. */
  readPublished(): Promise<PublishedData | null>
  /** One transaction: either the whole batch lands or nothing changes. A moved data version is signalled to every node. */
  applyImport(batch: ImportBatch): Promise<ImportOutcome>
  /**
   * Calls `listener` whenever the data version may have moved, whoever moved it (another node, an import process):
   * SQLite polls; PostgreSQL listens (LISTEN/NOTIFY) and polls slowly as a safety net. Returns the unsubscribe.
   */
  watch(listener: () => void): () => void
  /** False while the database does not answer (the change signal or its safety poll failed last time). */
  readonly reachable: boolean
  /** When `key` was first recorded in this store (recorded as `now` if new): the same answer on every node. */
  firstSeen(key: string, now: Date): Promise<Date>
  /** Counts an import run (by any process) in the store, for the operators' metrics. */
  recordImport(outcome: ImportRunOutcome): Promise<void>
  /** Import runs so far, per outcome. */
  importRuns(): Promise<Partial<Record<ImportRunOutcome, number>>>
  /** Everything, read in one transaction. */
  dump(): Promise<StoreDump>
  /** Writes a dump in one transaction; refuses a store that holds a business or reviews unless `replace`. */
  restore(dump: StoreDump, o: { replace: boolean }): Promise<void>
  close(): Promise<void>
}

export class NoBusinessError extends Error {
  constructor() {
    super('the database holds no business yet: import a JSON file with a "business" object first')
  }
}

export class NotEmptyError extends Error {
  constructor(what: string) {
    super(`${what} already holds data: pass --replace to overwrite it`)
  }
}

/** One step of an adapter's schema, applied once and recorded by id. */
export interface Migration {
  id: number
  name: string
  sql: string
}
