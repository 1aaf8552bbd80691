/** Store: the only mutable shared state. Adapters hide the database; everything else sees `Store`. */
import { openPostgresStore } from './postgres/index.js'
import { SqliteStore } from './sqlite/index.js'
import type { Store, StoreOptions } from './types.js'

export type {
  Store,
  StoreOptions,
  StoreDump,
  PublishedData,
  PublishedRecord,
  ImportBatch,
  ImportOutcome,
  Subscription,
  SubscriptionStore,
  Intent,
  FailureOutcome,
  NewSubscription,
  Claim,
  HubTotals,
  TopicCounters,
  McpSessionRecord,
  McpSessionStore,
  RateStore,
  ImportRunOutcome
} from './types.js'
export { NoBusinessError, NotEmptyError } from './types.js'

export class UnsupportedDatabaseError extends Error {}

/**
 * Opens the database named by a DATABASE_URL (`sqlite:<path>`, or `postgres://` / `postgresql://` for a database
 * shared by several nodes), creating and migrating it if needed.
 */
export async function openStore(databaseUrl: string, options: StoreOptions = {}): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return new SqliteStore(databaseUrl.slice('sqlite:'.length), options)
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgresStore(databaseUrl, options)
  throw new UnsupportedDatabaseError(`unsupported DATABASE_URL "${databaseUrl.replace(/\/\/[^@]*@/, '//***@')}": use sqlite:<path> or postgres://...`)
}
