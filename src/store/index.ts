/** Store: the only mutable shared state. Adapters hide the database; everything else sees `Store`. */
import { SqliteStore } from './sqlite/index.js'
import type { Store } from './types.js'

export type { Store, PublishedData, PublishedRecord, ImportBatch, ImportOutcome, Subscription, SubscriptionStore, Intent, FailureOutcome, NewSubscription } from './types.js'
export { NoBusinessError } from './types.js'

export class UnsupportedDatabaseError extends Error {}

/** Opens the database named by a DATABASE_URL (`sqlite:<path>`), creating and migrating it if needed. */
export async function openStore(databaseUrl: string): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return new SqliteStore(databaseUrl.slice('sqlite:'.length))
  throw new UnsupportedDatabaseError(`unsupported DATABASE_URL "${databaseUrl.replace(/\/\/[^@]*@/, '//***@')}": use sqlite:<path>`)
}
