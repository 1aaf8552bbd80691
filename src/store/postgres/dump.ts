import type pg from 'pg'
import type { Business, StoredReview } from '../../domain/index.js'
import { canonicalJson } from '../changes.js'
import { NotEmptyError, type StoreDump } from '../types.js'
import { READ_SNAPSHOT, transaction, type Queryable } from './pool.js'
import { signalVersion, writeBusiness, writeReviews } from './published.js'
import { callbackHost, toSubscription, type SubscriptionRow } from '../websub-rows.js'

/** Everything a dump holds, from one snapshot; rows in byte order of their keys so dumps compare across engines. */
export async function dump(pool: pg.Pool, bulkTimeoutMs: number): Promise<StoreDump> {
  return transaction(
    pool,
    async (c) => {
      await c.query(`SET LOCAL statement_timeout = ${bulkTimeoutMs}`)
      const meta = (await c.query<{ version: number; changed_at: string }>('SELECT version, changed_at FROM data_version WHERE id = 1')).rows[0]!
      const business = (await c.query<{ doc: string; updated_at: string }>('SELECT doc, updated_at FROM business WHERE id = 1')).rows[0]
      const reviews = await c.query<{ doc: string; updated_at: string }>('SELECT doc, updated_at FROM reviews ORDER BY id COLLATE "C"')
      const subscriptions = await c.query<SubscriptionRow & { created_at: number }>('SELECT * FROM websub_subscriptions ORDER BY topic COLLATE "C", callback COLLATE "C"')
      const intents = await c.query<StoreDump['intents'][number]>(
        'SELECT id, mode, topic, callback, secret, lease_seconds AS "leaseSeconds", created_at AS "createdAt" FROM websub_intents ORDER BY id'
      )
      return {
        version: meta.version,
        changedAt: meta.changed_at,
        business: business ? (JSON.parse(business.doc) as Business) : null,
        businessUpdatedAt: business?.updated_at ?? null,
        reviews: reviews.rows.map((r) => ({ review: JSON.parse(r.doc) as StoredReview, updatedAt: r.updated_at })),
        subscriptions: subscriptions.rows.map((r) => ({ ...toSubscription(r), createdAt: r.created_at })),
        intents: intents.rows
      }
    },
    READ_SNAPSHOT
  )
}

/**
 * Writes a dump in one transaction, as SQLite's restore: the target ends up holding exactly its rows (update times,
 * watermarks, data version as given, nothing claimed), or nothing changes. The new version is signalled so running
 * nodes load it.
 */
export async function restore(pool: pg.Pool, d: StoreDump, o: { replace: boolean }, bulkTimeoutMs: number): Promise<void> {
  await transaction(pool, async (c) => {
    await c.query(`SET LOCAL statement_timeout = ${bulkTimeoutMs}`)
    // Waits for an import under way, and keeps the next one out until this commits.
    await c.query('SELECT version FROM data_version WHERE id = 1 FOR UPDATE')
    if (!o.replace && (await holdsData(c))) throw new NotEmptyError('the target database')
    await c.query('DELETE FROM business; DELETE FROM reviews; DELETE FROM websub_subscriptions; DELETE FROM websub_intents')
    if (d.business) await writeBusiness(c, canonicalJson(d.business), d.businessUpdatedAt ?? d.changedAt)
    await writeReviews(
      c,
      d.reviews.map((r) => ({ id: r.review.id, doc: canonicalJson(r.review), verified: r.review.verified, date: r.review.date, updatedAt: r.updatedAt }))
    )
    await writeSubscriptions(c, d.subscriptions)
    await writeIntents(c, d.intents)
    await c.query('UPDATE data_version SET version = $1, changed_at = $2 WHERE id = 1', [d.version, d.changedAt])
    await signalVersion(c, d.version)
  })
}

async function holdsData(c: Queryable): Promise<boolean> {
  const { rows } = await c.query<{ held: boolean }>('SELECT EXISTS (SELECT 1 FROM business) OR EXISTS (SELECT 1 FROM reviews) AS held')
  return rows[0]!.held
}

async function writeSubscriptions(c: Queryable, subscriptions: StoreDump['subscriptions']): Promise<void> {
  const column = <K extends keyof StoreDump['subscriptions'][number]>(k: K) => subscriptions.map((s) => s[k])
  await c.query(
    `INSERT INTO websub_subscriptions (topic, callback, callback_host, secret, lease_seconds, expires_at, delivered_version, failures, next_attempt_at, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::bigint[], $7::bigint[], $8::integer[], $9::bigint[], $10::bigint[])`,
    [
      column('topic'),
      column('callback'),
      subscriptions.map((s) => callbackHost(s.callback)),
      column('secret'),
      column('leaseSeconds'),
      column('expiresAt'),
      column('deliveredVersion'),
      column('failures'),
      column('nextAttemptAt'),
      column('createdAt')
    ]
  )
}

/** Intents keep their ids (their order is the order they take effect in); new ones are numbered after them. */
async function writeIntents(c: Queryable, intents: StoreDump['intents']): Promise<void> {
  const column = <K extends keyof StoreDump['intents'][number]>(k: K) => intents.map((i) => i[k])
  await c.query(
    `INSERT INTO websub_intents (id, mode, topic, callback, secret, lease_seconds, created_at)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::bigint[])`,
    [column('id'), column('mode'), column('topic'), column('callback'), column('secret'), column('leaseSeconds'), column('createdAt')]
  )
  // The next id comes after every restored one, and never goes back (an id is not handed out twice).
  await c.query(
    `SELECT setval(seq, GREATEST(COALESCE((SELECT max(id) FROM websub_intents), 0) + 1, nextval(seq)), false)
     FROM pg_get_serial_sequence('websub_intents', 'id') AS seq`
  )
}
