import type { Database } from 'better-sqlite3'
import type { Business, StoredReview } from '../../domain/index.js'
import { NotEmptyError, type StoreDump } from '../types.js'
import { callbackHost } from '../websub-rows.js'

/** Everything `migrate` moves, read in one transaction. */
export function dumpSqlite(db: Database): StoreDump {
  return db.transaction((): StoreDump => {
    const meta = db.prepare('SELECT version, changed_at FROM data_version WHERE id = 1').get() as { version: number; changed_at: string }
    const business = db.prepare('SELECT doc, updated_at FROM business WHERE id = 1').get() as { doc: string; updated_at: string } | undefined
    const reviews = db.prepare('SELECT doc, updated_at FROM reviews ORDER BY id').all() as { doc: string; updated_at: string }[]
    return {
      version: meta.version,
      changedAt: meta.changed_at,
      business: business ? (JSON.parse(business.doc) as Business) : null,
      businessUpdatedAt: business?.updated_at ?? null,
      reviews: reviews.map((r) => ({ review: JSON.parse(r.doc) as StoredReview, updatedAt: r.updated_at })),
      subscriptions: db
        .prepare(
          `SELECT topic, callback, secret, lease_seconds AS leaseSeconds, expires_at AS expiresAt, delivered_version AS deliveredVersion,
             failures, next_attempt_at AS nextAttemptAt, created_at AS createdAt
           FROM websub_subscriptions ORDER BY topic, callback`
        )
        .all() as StoreDump['subscriptions'],
      intents: db
        .prepare('SELECT id, mode, topic, callback, secret, lease_seconds AS leaseSeconds, created_at AS createdAt FROM websub_intents ORDER BY id')
        .all() as StoreDump['intents']
    }
  })()
}

/** Writes a dump in one transaction: the target ends up holding exactly its rows, or nothing changes. */
export function restoreSqlite(db: Database, dump: StoreDump, o: { replace: boolean }, canonical: (value: unknown) => string): void {
  db.transaction(() => {
    const holds = db.prepare('SELECT (SELECT COUNT(*) FROM business) + (SELECT COUNT(*) FROM reviews)').pluck().get() as number
    if (holds > 0 && !o.replace) throw new NotEmptyError('the target database')
    for (const table of ['business', 'reviews', 'websub_subscriptions', 'websub_intents']) db.prepare(`DELETE FROM ${table}`).run()
    db.prepare('UPDATE data_version SET version = ?, changed_at = ? WHERE id = 1').run(dump.version, dump.changedAt)
    if (dump.business) db.prepare('INSERT INTO business (id, doc, updated_at) VALUES (1, ?, ?)').run(canonical(dump.business), dump.businessUpdatedAt ?? dump.changedAt)
    const review = db.prepare('INSERT INTO reviews (id, doc, verified, date, updated_at) VALUES (?, ?, ?, ?, ?)')
    for (const r of dump.reviews) review.run(r.review.id, canonical(r.review), r.review.verified ? 1 : 0, r.review.date, r.updatedAt)
    const subscription = db.prepare(
      `INSERT INTO websub_subscriptions (topic, callback, callback_host, secret, lease_seconds, expires_at, delivered_version, failures, next_attempt_at, created_at)
       VALUES (@topic, @callback, @host, @secret, @leaseSeconds, @expiresAt, @deliveredVersion, @failures, @nextAttemptAt, @createdAt)`
    )
    for (const s of dump.subscriptions) subscription.run({ ...s, host: callbackHost(s.callback) })
    const intent = db.prepare(
      'INSERT INTO websub_intents (id, mode, topic, callback, secret, lease_seconds, created_at) VALUES (@id, @mode, @topic, @callback, @secret, @leaseSeconds, @createdAt)'
    )
    for (const i of dump.intents) intent.run(i)
  }).immediate()
}
