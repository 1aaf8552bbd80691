import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import pg from 'pg'

/** The store the suites run against: SQLite unless TEST_STORE=postgres (scripts/test.mjs runs some suites twice). */
export const testStore = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite'

/**
 * A database of its own for one service or process: `sqlite:<dir>/<name>.db`, or with TEST_STORE=postgres a new
 * database in the cluster at TEST_POSTGRES_URL (started by scripts/test.mjs or scripts/postgres.mjs). The
 * PostgreSQL ones are dropped when the test process is done.
 */
export async function testDatabaseUrl(dir: string, name = 'reviews'): Promise<string> {
  if (testStore === 'sqlite') return `sqlite:${join(dir, `${name}.db`)}`
  return createPostgresDatabase()
}

const created: string[] = []

/** A new, empty PostgreSQL database (for the store contract test, which runs against both engines in one process). */
export async function createPostgresDatabase(): Promise<string> {
  const admin = process.env.TEST_POSTGRES_URL
  if (!admin) throw new Error('TEST_POSTGRES_URL is not set: run the tests through scripts/test.mjs or scripts/postgres.mjs')
  const name = `reviews_test_${process.pid}_${randomBytes(4).toString('hex')}`
  await asAdmin(admin, `CREATE DATABASE ${name}`)
  if (created.push(name) === 1) process.once('beforeExit', () => void dropCreated(admin))
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.href
}

/** FORCE ends the connections a still-running server process may hold. */
async function dropCreated(admin: string): Promise<void> {
  const names = created.splice(0)
  for (const name of names) await asAdmin(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
}

async function asAdmin(admin: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}
