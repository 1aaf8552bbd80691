import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { startPostgres, stopOnExit } from '../../scripts/postgres.mjs'
import { postmasterPid } from './host.js'

export interface BenchPostgres {
  /** A new, empty database in the cluster: its URL. */
  database(name: string): Promise<string>
  /** The postmaster's pid when the cluster runs on this machine (its CPU is the benchmark's, not other load). */
  pids(): number[]
  stop(): void
}

/**
 * The cluster at TEST_POSTGRES_URL when set (`node scripts/postgres.mjs npm run bench:...`), else a throwaway one of
 * our own (fsync off: the numbers are the service's, not the disk's). Each run gets a database of its own.
 */
export async function benchPostgres(): Promise<BenchPostgres> {
  const given = process.env.TEST_POSTGRES_URL
  const cluster = given ? undefined : await startPostgres()
  const stop = cluster ? stopOnExit(cluster) : () => {}
  const admin = given ?? cluster!.url
  const port = Number(new URL(admin).port || 5432)
  return {
    stop,
    pids: () => {
      const pid = postmasterPid(port)
      return pid === undefined ? [] : [pid]
    },
    database: async (name) => {
      const db = `bench_${name}_${randomBytes(3).toString('hex')}`
      const client = new pg.Client({ connectionString: admin })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${db}`)
      } finally {
        await client.end()
      }
      const url = new URL(admin)
      url.pathname = `/${db}`
      return url.href
    }
  }
}
