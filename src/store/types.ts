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

export interface Store {
  readonly kind: 'sqlite' | 'postgres'
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
