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
 * WebSub state. Every write is one statement or one synchronous transaction, so concurrent requests for the same
 * topic cannot lose each other's updates (no read-modify-write across an await).
 */
export interface SubscriptionStore {
  addIntent(intent: Omit<Intent, 'id'>): Promise<number>
  removeIntent(id: number): Promise<void>
  /** Intents left by a previous run, oldest first. */
  pendingIntents(): Promise<Intent[]>
  /**
   * A verified subscribe: a new subscription owes nothing yet; a renewal keeps its watermark and failure count. A new
   * one is refused when its callback host already has `maxPerHost` active subscriptions.
   */
  subscribe(s: NewSubscription): Promise<'created' | 'renewed' | 'host_full'>
  unsubscribe(topic: string, callback: string): Promise<boolean>
  /** Active subscriptions whose callback is on this host, the given (topic, callback) left out. */
  countForHost(host: string, except: { topic: string; callback: string }, now: number): Promise<number>
  /**
   * Active subscriptions that have not received `version` and may be tried now, oldest watermark first; those whose
   * callback host is in `skipHosts` are left out.
   */
  due(version: number, now: number, limit: number, skipHosts: readonly string[]): Promise<Subscription[]>
  /** When the next backed-off delivery may be tried, or null. */
  nextRetryAt(version: number, now: number): Promise<number | null>
  /** Records acknowledged deliveries in one transaction; a watermark only moves forward. */
  delivered(items: { topic: string; callback: string; version: number }[]): Promise<void>
  /**
   * Counts a failed attempt: schedules the next one, or removes the subscription after `maxFailures` in a row, or at
   * once on 410 Gone. 'absent' when the subscription is no longer there (unsubscribed meanwhile).
   */
  failed(topic: string, callback: string, o: { nextAttemptAt: number; maxFailures: number; gone: boolean }): Promise<FailureOutcome>
  /** Removes expired subscriptions; returns their topics (one entry per subscription). */
  purgeExpired(now: number): Promise<string[]>
  /** Active subscriptions per topic, and how many of them are owed `version`. */
  counts(version: number, now: number): Promise<{ byTopic: Record<string, number>; owed: number }>
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres'
  readonly subscriptions: SubscriptionStore
  /** Cheap: the current data version, polled to notice writes by other processes. */
  dataVersion(): Promise<number>
  /** Null when no business has been stored yet. */
  readPublished(): Promise<PublishedData | null>
  /** One transaction: either the whole batch lands or nothing changes. */
  applyImport(batch: ImportBatch): Promise<ImportOutcome>
  close(): Promise<void>
}

export class NoBusinessError extends Error {
  constructor() {
    super('the database holds no business yet: import a JSON file with a "business" object first')
  }
}
