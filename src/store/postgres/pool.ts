import pg from 'pg'

export interface Settings {
  poolSize: number
  statementTimeoutMs: number
  pollIntervalMs: number
}

const INT8 = 20

/**
 * pg returns int8 as a string so no precision is lost; ours are ms timestamps, versions and counts, all far below
 * 2^53, so numbers. Set per pool (not pg.types.setTypeParser) so no other pg user in the process is affected.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8 ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser
}

/**
 * Statements that read or write every review (imports, restores, the snapshot read) may run longer than the
 * request-path limit; they get this much, or the configured limit if that is longer.
 */
const BULK_STATEMENT_TIMEOUT_MS = 120_000

/** A session that sits in an open transaction this long (a hung node) is ended, so its locks go with it. */
const IDLE_IN_TRANSACTION_MS = 60_000

/**
 * Connection settings for every connection of a store. TLS comes from the URL, parsed by pg 8 itself: sslmode=disable
 * is plain TCP; prefer, require, verify-ca and verify-full all mean TLS with the server's certificate and host name
 * checked (against Node's CA list, or the file named by `sslrootcert`), with no fallback to plain TCP (pg warns once
 * that prefer/require/verify-ca will take libpq's weaker meanings in pg 9); no-verify is TLS without any check;
 * `uselibpqcompat=true` asks for libpq's meanings now. Parameters in the URL (application_name, options,
 * statement_timeout...) override these.
 */
export function connectionConfig(url: string, statementTimeoutMs: number): pg.ClientConfig {
  return {
    connectionString: url,
    application_name: 'reviews-service',
    statement_timeout: statementTimeoutMs,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    // Probes an idle connection (the LISTEN one always is) after 10 s instead of the OS default of two hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    connectionTimeoutMillis: 10_000,
    types
  }
}

export function bulkTimeoutMs(statementTimeoutMs: number): number {
  return Math.max(BULK_STATEMENT_TIMEOUT_MS, statementTimeoutMs)
}

/**
 * Failures after which running the work again is safe, with how many attempts each gets: a deadlock or a
 * serialisation failure (PostgreSQL rolled the transaction back), and a connection the server ended (admin_shutdown,
 * as on a restart: what ran on it did not commit). The last reaches a statement when the pool hands out an idle
 * connection the server ended before the pool had noticed; the pool drops it and the next attempt gets another, so
 * after a restart every idle connection of the pool may fail once.
 */
const ATTEMPTS = new Map([
  ['40P01', 3],
  ['40001', 3],
  ['57P01', 64]
])

export type Queryable = Pick<pg.PoolClient, 'query'>

/**
 * Runs `work` in one transaction (`begin` may ask for an isolation level), retried as retrying() says. `work` must
 * not have side effects outside the database.
 */
export async function transaction<T>(pool: pg.Pool, work: (c: Queryable) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  return retrying(async () => {
    const client = await pool.connect()
    let broken: Error | undefined
    try {
      await client.query(begin)
      const result = await work(client)
      await client.query('COMMIT')
      return result
    } catch (err) {
      // A failed ROLLBACK means the connection is gone: the pool must not hand it out again.
      await client.query('ROLLBACK').catch((e: Error) => (broken = e))
      throw err
    } finally {
      client.release(broken)
    }
  })
}

/** One statement on a pooled connection, run again as retrying() says. */
export async function statement<R extends pg.QueryResultRow>(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
  return retrying(() => pool.query<R>(sql, params))
}

/**
 * Runs `attempt` again after a failure listed in ATTEMPTS: it was rolled back whole, so running it again is
 * safe. Writers lock subscription and intent rows before counter rows, which makes deadlocks rare; rows locked in
 * different orders within one table can still meet.
 */
async function retrying<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt()
    } catch (err) {
      if (n >= (ATTEMPTS.get((err as { code?: string }).code ?? '') ?? 1)) throw err
    }
  }
}

/**
 * First keys of the advisory locks taken inside transactions (pg_advisory_xact_lock(class, key)); the two-key form
 * never collides with the one-key migration lock.
 */
export const LOCK_CLASS = { sessionCount: 1, callbackHost: 2, intentKey: 3 } as const

/** Reads that must see one consistent state (several statements, one snapshot). */
export const READ_SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'
