import type pg from 'pg'
import type { ImportRunOutcome, RateStore } from '../types.js'
import { statement } from './pool.js'

/** How often a node clears windows that have ended (one row per client key would otherwise stay forever). */
const SWEEP_EVERY_MS = 60_000

/** Fixed windows counted in one upsert per hit, so hits from every node add up without a read-modify-write. */
export class PostgresRates implements RateStore {
  private lastSweep = 0

  constructor(private readonly pool: pg.Pool) {}

  async hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }> {
    await this.sweep(windowMs, now)
    // As SQLite: a window opens at the first hit, and a row whose window has ended starts over at 1.
    const { rows } = await statement<{ count: number; window_start: number }>(
      this.pool,
      `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN r.window_start + $3 <= $2 THEN 1 ELSE r.count + 1 END,
         window_start = CASE WHEN r.window_start + $3 <= $2 THEN $2 ELSE r.window_start END
       RETURNING count, window_start`,
      [key, now, windowMs]
    )
    return { count: rows[0]!.count, resetAt: rows[0]!.window_start + windowMs }
  }

  /** Not on every hit as SQLite does: here a sweep is a round trip, and one a minute per node keeps the table small. */
  private async sweep(windowMs: number, now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return
    this.lastSweep = now
    await statement(this.pool, 'DELETE FROM rate_limits WHERE window_start + $1 <= $2', [windowMs, now])
  }
}

/** When `key` was first recorded: insert-if-absent and read back in one statement, the same answer on every node. */
export async function firstSeen(pool: pg.Pool, key: string, now: Date): Promise<Date> {
  for (let attempt = 1; ; attempt++) {
    const { rows } = await statement<{ at: number }>(
      pool,
      `WITH added AS (INSERT INTO first_seen (key, at) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING at)
       SELECT at FROM added UNION ALL SELECT at FROM first_seen WHERE key = $1`,
      [key, now.getTime()]
    )
    // Empty only when another node inserted the key after this statement's snapshot was taken: now it is visible.
    if (rows[0]) return new Date(rows[0].at)
    if (attempt === 3) throw new Error(`first_seen: no row for ${key}`)
  }
}

export async function recordImport(pool: pg.Pool, outcome: ImportRunOutcome): Promise<void> {
  await statement(
    pool,
    'INSERT INTO import_runs AS r (outcome, count, last_at) VALUES ($1, 1, $2) ON CONFLICT (outcome) DO UPDATE SET count = r.count + 1, last_at = excluded.last_at',
    [outcome, Date.now()]
  )
}

export async function importRuns(pool: pg.Pool): Promise<Partial<Record<ImportRunOutcome, number>>> {
  const { rows } = await statement<{ outcome: ImportRunOutcome; count: number }>(pool, 'SELECT outcome, count FROM import_runs')
  return Object.fromEntries(rows.map((r) => [r.outcome, Number(r.count)]))
}
