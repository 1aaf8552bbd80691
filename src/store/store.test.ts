/**
 * The Store contract, run against every adapter: SQLite always, PostgreSQL when TEST_POSTGRES_URL names a cluster
 * (scripts/test.mjs starts one; so does `node scripts/postgres.mjs node --import tsx --test src/store/store.test.ts`).
 * Two store instances on one database stand for two nodes.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { business as businessFixture, review as reviewFixture } from '../../test/helpers/fixtures.js'
import { createPostgresDatabase } from '../../test/helpers/database.js'
import type { Business, StoredReview } from '../domain/index.js'
import { openStore } from './index.js'
import { NoBusinessError, NotEmptyError, type Claim, type McpSessionRecord, type Store, type StoreDump } from './types.js'

interface Engine {
  name: 'sqlite' | 'postgres'
  /** A new empty database's URL. */
  database(): Promise<string>
}

const dir = mkdtempSync(join(tmpdir(), 'store-contract-'))
let files = 0
const ENGINES: Engine[] = [
  { name: 'sqlite', database: async () => `sqlite:${join(dir, `store-${++files}.db`)}` },
  ...(process.env.TEST_POSTGRES_URL ? [{ name: 'postgres' as const, database: createPostgresDatabase }] : [])
]

const opened: Store[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()))
})
after(() => rmSync(dir, { recursive: true, force: true }))

/** Opens stores on `url`; closed after each test. A short poll interval so SQLite's watch and PostgreSQL's safety poll are quick. */
async function open(url: string): Promise<Store> {
  const store = await openStore(url, { pollIntervalMs: 50 })
  opened.push(store)
  return store
}

/** Two "nodes" on one new database. */
async function twoNodes(engine: Engine): Promise<[Store, Store]> {
  const url = await engine.database()
  return [await open(url), await open(url)]
}

const business = (o: Record<string, unknown> = {}) => businessFixture(o) as unknown as Business
const review = (o: Record<string, unknown> = {}) => reviewFixture(o) as unknown as StoredReview
const NOW = '2025-03-01T10:00:00.000Z'
const LATER = '2025-03-02T10:00:00.000Z'

/** Retries `check` until it passes or `ms` run out (what other nodes hear arrives asynchronously). */
async function eventually(check: () => Promise<void>, ms = 2000): Promise<void> {
  const end = Date.now() + ms
  for (;;) {
    try {
      return await check()
    } catch (err) {
      if (Date.now() > end) throw err
      await sleep(20)
    }
  }
}

const claimOf = (node: string, now: number, leaseMs = 30_000): Claim => ({ node, now, until: now + leaseMs })
const HOUR = 3_600_000

function subscription(callback: string, o: { topic?: string; version?: number; now?: number; leaseSeconds?: number; maxPerHost?: number } = {}) {
  const now = o.now ?? Date.now()
  const leaseSeconds = o.leaseSeconds ?? 3600
  return {
    topic: o.topic ?? 'https://reviews.test/feed.xml',
    callback,
    secret: null,
    leaseSeconds,
    expiresAt: now + leaseSeconds * 1000,
    version: o.version ?? 0,
    maxPerHost: o.maxPerHost ?? 100
  }
}

function session(id: string, now = Date.now()): McpSessionRecord {
  return { id, protocolVersion: '2025-06-18', clientInfo: { name: 'test', version: '1' }, clientCapabilities: { roots: {} }, logLevel: 'debug', subscriptions: [], createdAt: now, lastSeen: now }
}

for (const engine of ENGINES) {
  describe(`store contract (${engine.name})`, () => {
    describe('imports', () => {
      test('the version moves only when published data changes; unverified reviews are kept but not published', async () => {
        const [store] = await twoNodes(engine)
        assert.equal(await store.readPublished(), null)
        const a = review({ id: 'a' })
        const hidden = review({ id: 'h', verified: false })
        const first = await store.applyImport({ business: business(), reviews: [a, hidden], replace: false, now: NOW })
        assert.deepEqual(first, { version: 1, changed: true, skipped: false, businessChanged: true, added: 2, updated: 0, removed: 0, unchanged: 0, spared: 0 })
        const again = await store.applyImport({ business: business(), reviews: [a, hidden], replace: false, now: LATER })
        assert.deepEqual(again, { version: 1, changed: false, skipped: false, businessChanged: false, added: 0, updated: 0, removed: 0, unchanged: 2, spared: 0 })
        const unverifiedEdit = await store.applyImport({ reviews: [{ ...hidden, text: 'Edited.' }], replace: false, now: LATER })
        assert.equal(unverifiedEdit.changed, false)
        assert.equal(unverifiedEdit.updated, 1)
        assert.equal(await store.dataVersion(), 1)
        const data = await store.readPublished()
        assert.equal(data!.version, 1)
        assert.equal(data!.changedAt, NOW)
        assert.deepEqual(data!.business, business())
        assert.deepEqual(data!.reviews, [{ review: a, updatedAt: NOW }])
        const edit = await store.applyImport({ reviews: [{ ...a, text: 'Changed.' }], replace: false, now: LATER })
        assert.deepEqual([edit.version, edit.changed], [2, true])
        assert.equal((await store.readPublished())!.changedAt, LATER)
      })

      test('replace removes absent reviews; removing only unverified ones leaves the version', async () => {
        const [store] = await twoNodes(engine)
        const [a, b, hidden] = [review({ id: 'a' }), review({ id: 'b' }), review({ id: 'h', verified: false })]
        await store.applyImport({ business: business(), reviews: [a, b, hidden], replace: false, now: NOW })
        const dropHidden = await store.applyImport({ reviews: [a, b], replace: true, now: LATER })
        assert.deepEqual([dropHidden.removed, dropHidden.changed, dropHidden.version], [1, false, 1])
        const dropB = await store.applyImport({ reviews: [a], replace: true, now: LATER })
        assert.deepEqual([dropB.removed, dropB.changed, dropB.version], [1, true, 2])
        assert.deepEqual((await store.readPublished())!.reviews.map((r) => r.review.id), ['a'])
      })

      test('replace limited to some sources removes only their absent reviews, and leaves the others as they are now', async () => {
        const [store, other] = await twoNodes(engine)
        const [g1, g2, yelp] = [review({ id: 'g1', source: 'google' }), review({ id: 'g2', source: 'google' }), review({ id: 'y1', source: 'yelp' })]
        await store.applyImport({ business: business(), reviews: [g1, g2, yelp], replace: false, now: NOW })
        // Another node edits the Yelp review; the Google import that follows must not undo it.
        await other.applyImport({ reviews: [{ ...yelp, text: 'Edited on Yelp.' }], replace: false, now: LATER })
        const outcome = await store.applyImport({ reviews: [g1], replace: true, replaceSources: ['google'], now: LATER })
        assert.deepEqual([outcome.removed, outcome.spared, outcome.unchanged], [1, 1, 1])
        const stored = (await store.readPublished())!.reviews.map((r) => r.review)
        assert.deepEqual(stored.map((r) => r.id).sort(), ['g1', 'y1'])
        assert.equal(stored.find((r) => r.id === 'y1')!.text, 'Edited on Yelp.')
      })

      test('a first import without a business is refused; onlyIfEmpty skips a store that has one', async () => {
        const [store] = await twoNodes(engine)
        await assert.rejects(store.applyImport({ reviews: [review()], replace: false, now: NOW }), NoBusinessError)
        assert.equal(await store.dataVersion(), 0)
        await store.applyImport({ business: business(), reviews: [], replace: false, now: NOW })
        const seeded = await store.applyImport({ business: business({ name: 'Other' }), reviews: [review()], replace: false, onlyIfEmpty: true, now: LATER })
        assert.deepEqual(seeded, { version: 1, changed: false, skipped: true, businessChanged: false, added: 0, updated: 0, removed: 0, unchanged: 0, spared: 0 })
      })

      test('nodes seeding an empty database at the same moment load the data exactly once', async () => {
        const url = await engine.database()
        const nodes = await Promise.all([open(url), open(url), open(url)])
        const batch = { business: business(), reviews: [review(), review()], replace: false, onlyIfEmpty: true, now: NOW }
        const outcomes = await Promise.all(nodes.map((n) => n.applyImport(batch)))
        assert.equal(outcomes.filter((o) => !o.skipped).length, 1)
        assert.equal(await nodes[0]!.dataVersion(), 1)
      })

      test('watch: a node hears an import made through another node', async () => {
        const [a, b] = await twoNodes(engine)
        let heard = 0
        const stop = b.watch(() => heard++)
        await sleep(150)
        const started = Date.now()
        await a.applyImport({ business: business(), reviews: [review()], replace: false, now: NOW })
        await eventually(async () => assert.ok(heard > 0, 'not heard'))
        assert.ok(Date.now() - started < 2000)
        assert.equal(await b.dataVersion(), 1)
        assert.equal(b.reachable, true)
        stop()
      })
    })

    describe('WebSub subscriptions', () => {
      test('subscribe creates, a renewal keeps the watermark and failures, a renewal after expiry starts afresh', async () => {
        const [store] = await twoNodes(engine)
        const cb = 'https://sub.example/a'
        assert.equal(await store.subscriptions.subscribe(subscription(cb, { version: 1 })), 'created')
        assert.equal(await store.subscriptions.failed('https://reviews.test/feed.xml', cb, { nextAttemptAt: 1, maxFailures: 5, gone: false }), 'retry')
        assert.equal(await store.subscriptions.subscribe(subscription(cb, { version: 7 })), 'renewed')
        let [s] = await store.subscriptions.claimDue(claimOf('n1', Date.now()), 9, 10, [])
        assert.deepEqual([s!.deliveredVersion, s!.failures], [1, 1])
        await store.subscriptions.releaseAll('n1')
        // Expired a long time ago: the renewal is a new subscription.
        const past = Date.now() - 10 * HOUR
        await store.subscriptions.subscribe(subscription('https://sub.example/b', { version: 1, now: past }))
        assert.equal(await store.subscriptions.subscribe(subscription('https://sub.example/b', { version: 5 })), 'created')
        ;[s] = (await store.subscriptions.claimDue(claimOf('n1', Date.now()), 9, 10, [])).filter((x) => x.callback.endsWith('/b'))
        assert.deepEqual([s!.deliveredVersion, s!.failures, s!.nextAttemptAt], [5, 0, null])
      })

      test('the per-host cap holds under concurrent subscribes from two nodes', async () => {
        const [a, b] = await twoNodes(engine)
        const attempts = Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).subscriptions.subscribe(subscription(`https://busy.example/${i}`, { maxPerHost: 3 })))
        const outcomes = await Promise.all(attempts)
        assert.equal(outcomes.filter((o) => o === 'created').length, 3)
        assert.equal(outcomes.filter((o) => o === 'host_full').length, 9)
        assert.equal(await a.subscriptions.countForHost('busy.example', { topic: '', callback: '' }, Date.now()), 3)
        // A renewal of one of them is not refused by the cap.
        const kept = (await b.subscriptions.claimDue(claimOf('x', Date.now()), 1, 10, []))[0]!
        assert.equal(await a.subscriptions.subscribe(subscription(kept.callback, { maxPerHost: 3 })), 'renewed')
      })

      test('two nodes claiming at once never get the same subscription, and together get every one', async () => {
        const [a, b] = await twoNodes(engine)
        for (let i = 0; i < 60; i++) await a.subscriptions.subscribe(subscription(`https://h${i % 7}.example/${i}`, { topic: `https://reviews.test/t${i % 3}` }))
        const now = Date.now()
        const take = async (store: Store, node: string) => {
          const got: string[] = []
          for (;;) {
            const batch = await store.subscriptions.claimDue(claimOf(node, now), 1, 7, [])
            if (batch.length === 0) return got
            got.push(...batch.map((s) => `${s.topic} ${s.callback}`))
          }
        }
        const [fromA, fromB] = await Promise.all([take(a, 'a'), take(b, 'b')])
        const all = [...fromA, ...fromB]
        assert.equal(new Set(all).size, all.length, 'a subscription claimed twice')
        assert.equal(all.length, 60)
      })

      test('claims come oldest watermark first, leave out skipped hosts, and carry the row', async () => {
        const [store] = await twoNodes(engine)
        await store.subscriptions.subscribe(subscription('https://b.example/1', { version: 2 }))
        await store.subscriptions.subscribe(subscription('https://a.example/1', { version: 2 }))
        await store.subscriptions.subscribe(subscription('https://c.example/1', { version: 1 }))
        await store.subscriptions.subscribe(subscription('https://skip.example/1', { version: 0 }))
        const got = await store.subscriptions.claimDue(claimOf('n', Date.now()), 3, 10, ['skip.example'])
        assert.deepEqual(
          got.map((s) => [s.callback, s.deliveredVersion]),
          [['https://c.example/1', 1], ['https://a.example/1', 2], ['https://b.example/1', 2]]
        )
        assert.equal(got[0]!.topic, 'https://reviews.test/feed.xml')
        assert.equal(got[0]!.leaseSeconds, 3600)
      })

      test('claims: a live one keeps others off, an expired one is taken over; release, renew and releaseAll', async () => {
        const [a, b] = await twoNodes(engine)
        const topic = 'https://reviews.test/feed.xml'
        await a.subscriptions.subscribe(subscription('https://one.example/x'))
        const t = Date.now()
        assert.equal((await a.subscriptions.claimDue({ node: 'a', now: t, until: t + 1000 }, 1, 10, [])).length, 1)
        assert.equal((await b.subscriptions.claimDue(claimOf('b', t + 500), 1, 10, [])).length, 0)
        assert.equal(await b.subscriptions.nextWakeAt(1, t + 500), t + 1000)
        // Renewed by its holder: still held past the old end.
        await a.subscriptions.renewClaims({ node: 'a', now: t + 500, until: t + 5000 })
        assert.equal((await b.subscriptions.claimDue(claimOf('b', t + 2000), 1, 10, [])).length, 0)
        // Ran out (the holder died): taken over.
        assert.equal((await b.subscriptions.claimDue(claimOf('b', t + 5000), 1, 10, [])).length, 1)
        // Only the holder's release counts.
        await a.subscriptions.release('a', [{ topic, callback: 'https://one.example/x' }])
        assert.equal((await a.subscriptions.claimDue(claimOf('a', t + 6000), 1, 10, [])).length, 0)
        await b.subscriptions.release('b', [{ topic, callback: 'https://one.example/x' }])
        assert.equal((await a.subscriptions.claimDue(claimOf('a', t + 6000), 1, 10, [])).length, 1)
        await a.subscriptions.releaseAll('a')
        assert.equal((await b.subscriptions.claimDue(claimOf('b', t + 6000), 1, 10, [])).length, 1)
      })

      test('delivered: watermarks only move forward, the claim ends, and the topic counters move', async () => {
        const [store] = await twoNodes(engine)
        const topic = 'https://reviews.test/feed.xml'
        await store.subscriptions.subscribe(subscription('https://d.example/1'))
        await store.subscriptions.subscribe(subscription('https://d.example/2'))
        const now = Date.now()
        await store.subscriptions.claimDue(claimOf('n', now), 5, 10, [])
        await store.subscriptions.failed(topic, 'https://d.example/2', { nextAttemptAt: now - 1, maxFailures: 5, gone: false })
        await store.subscriptions.delivered(
          [
            { topic, callback: 'https://d.example/1', version: 5 },
            { topic, callback: 'https://d.example/2', version: 4 }
          ],
          now
        )
        await store.subscriptions.delivered([{ topic, callback: 'https://d.example/1', version: 3 }], now + 10)
        const owed = await store.subscriptions.claimDue(claimOf('m', now), 6, 10, [])
        assert.deepEqual(
          owed.map((s) => [s.callback, s.deliveredVersion, s.failures, s.nextAttemptAt]),
          [['https://d.example/2', 4, 0, null], ['https://d.example/1', 5, 0, null]]
        )
        const totals = await store.subscriptions.totals(6, now)
        assert.deepEqual(totals.counters[topic]!.counts, { verifications_succeeded: 0, verifications_failed: 0, deliveries: 3, delivery_failures: 1 })
        assert.equal(totals.counters[topic]!.lastDeliveryAt, now + 10)
        assert.equal(totals.counters[topic]!.deliveredVersion, 5)
        assert.deepEqual([totals.active, totals.owed], [{ [topic]: 2 }, 2])
      })

      test('failed: backoff (seen by claimDue and nextWakeAt), removal after maxFailures, 410 Gone, absent', async () => {
        const [store] = await twoNodes(engine)
        const topic = 'https://reviews.test/feed.xml'
        await store.subscriptions.subscribe(subscription('https://f.example/1'))
        await store.subscriptions.subscribe(subscription('https://f.example/gone'))
        const now = Date.now()
        const retryAt = now + 60_000
        assert.equal(await store.subscriptions.failed(topic, 'https://f.example/1', { nextAttemptAt: retryAt, maxFailures: 2, gone: false }), 'retry')
        assert.deepEqual((await store.subscriptions.claimDue(claimOf('n', now), 1, 10, [])).map((s) => s.callback), ['https://f.example/gone'])
        await store.subscriptions.releaseAll('n')
        assert.equal(await store.subscriptions.nextWakeAt(1, now), retryAt)
        const [late] = await store.subscriptions.claimDue(claimOf('n', retryAt), 1, 10, [])
        assert.equal(late!.callback, 'https://f.example/1')
        assert.equal(late!.failures, 1)
        assert.equal(await store.subscriptions.failed(topic, 'https://f.example/1', { nextAttemptAt: retryAt, maxFailures: 2, gone: false }), 'removed')
        assert.equal(await store.subscriptions.failed(topic, 'https://f.example/gone', { nextAttemptAt: retryAt, maxFailures: 2, gone: true }), 'gone')
        assert.equal(await store.subscriptions.failed(topic, 'https://f.example/gone', { nextAttemptAt: retryAt, maxFailures: 2, gone: true }), 'absent')
        assert.equal(await store.subscriptions.failed(topic, 'https://f.example/none', { nextAttemptAt: retryAt, maxFailures: 2, gone: false }), 'absent')
        const c = (await store.subscriptions.totals(1, now)).counters[topic]!
        assert.equal(c.counts.delivery_failures, 5)
        assert.deepEqual(c.removals, { failures: 1, gone: 1, expired: 0, unsubscribed: 0 })
        assert.equal(await store.subscriptions.nextWakeAt(1, now), null)
      })

      test('unsubscribe and purgeExpired remove and count', async () => {
        const [store] = await twoNodes(engine)
        const topic = 'https://reviews.test/feed.xml'
        const now = Date.now()
        await store.subscriptions.subscribe(subscription('https://u.example/1'))
        await store.subscriptions.subscribe(subscription('https://u.example/old', { now: now - 10 * HOUR }))
        await store.subscriptions.subscribe(subscription('https://u.example/old2', { now: now - 10 * HOUR }))
        assert.equal(await store.subscriptions.unsubscribe(topic, 'https://u.example/1'), true)
        assert.equal(await store.subscriptions.unsubscribe(topic, 'https://u.example/1'), false)
        assert.equal(await store.subscriptions.purgeExpired(now), 2)
        assert.equal(await store.subscriptions.purgeExpired(now), 0)
        const totals = await store.subscriptions.totals(0, now)
        assert.deepEqual(totals.counters[topic]!.removals, { failures: 0, gone: 0, expired: 2, unsubscribed: 1 })
        assert.deepEqual(totals.active, {})
        assert.ok(Math.abs(totals.since - now) < 60_000, `since ${totals.since}`)
      })

      test('intents: only the oldest of a (topic, callback) is claimed, on any node; settling one frees the next', async () => {
        const [a, b] = await twoNodes(engine)
        const intent = (mode: 'subscribe' | 'unsubscribe', callback: string) => ({ mode, topic: 'https://reviews.test/feed.xml', callback, secret: null, leaseSeconds: 3600 })
        const now = Date.now()
        const first = await a.subscriptions.addIntent(intent('subscribe', 'https://i.example/1'), claimOf('a', now))
        const second = await b.subscriptions.addIntent(intent('unsubscribe', 'https://i.example/1'), claimOf('b', now))
        const other = await b.subscriptions.addIntent(intent('subscribe', 'https://i.example/2'), { node: 'b', now, until: now + 100 })
        assert.deepEqual([first.claimed, second.claimed, other.claimed], [true, false, true])
        assert.ok(first.id < second.id)
        // Nothing free: the first is held, the second waits behind it, the other is held until now + 100.
        assert.deepEqual(await b.subscriptions.claimIntents(claimOf('b', now), 10), [])
        const [taken] = await a.subscriptions.claimIntents(claimOf('a', now + 100), 10)
        assert.deepEqual(taken, { id: other.id, ...intent('subscribe', 'https://i.example/2') })
        await a.subscriptions.finishIntent({ id: first.id, ...intent('subscribe', 'https://i.example/1') }, true)
        const [next] = await b.subscriptions.claimIntents(claimOf('b', now), 10)
        assert.equal(next!.id, second.id)
        assert.equal(next!.mode, 'unsubscribe')
        await b.subscriptions.releaseIntent('b', second.id)
        assert.deepEqual((await a.subscriptions.claimIntents(claimOf('a', now), 10)).map((i) => i.id), [second.id])
        await a.subscriptions.finishIntent(next!, false)
        const counts = (await a.subscriptions.totals(0, now)).counters['https://reviews.test/feed.xml']!.counts
        assert.deepEqual([counts.verifications_succeeded, counts.verifications_failed], [1, 1])
      })

      test('intents added for one (topic, callback) by two nodes at once: exactly one is claimed', async () => {
        const [a, b] = await twoNodes(engine)
        const intent = { mode: 'subscribe' as const, topic: 'https://reviews.test/feed.xml', callback: 'https://race.example/1', secret: null, leaseSeconds: 3600 }
        const now = Date.now()
        const added = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).subscriptions.addIntent(intent, claimOf(`n${i}`, now))))
        assert.equal(added.filter((x) => x.claimed).length, 1)
        const oldest = Math.min(...added.map((x) => x.id))
        assert.equal(added.find((x) => x.claimed)!.id, oldest)
      })
    })

    describe('MCP sessions', () => {
      test('create respects the cap across nodes at once', async () => {
        const [a, b] = await twoNodes(engine)
        const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).sessions.create(session(`s${i}`), 5)))
        assert.equal(outcomes.filter((o) => o === 'created').length, 5)
        assert.equal(await b.sessions.count(), 5)
      })

      test('a change or deletion on one node is seen by another that has the session cached', async () => {
        const [a, b] = await twoNodes(engine)
        b.watch(() => {})
        await a.sessions.create(session('s1'), 10)
        assert.equal((await b.sessions.get('s1'))!.logLevel, 'debug')
        assert.equal(await a.sessions.update('s1', { logLevel: 'warning', subscribe: 'reviews://b' }), true)
        assert.equal(await a.sessions.update('s1', { subscribe: 'reviews://a' }), true)
        assert.equal(await a.sessions.update('s1', { subscribe: 'reviews://a' }), true)
        await eventually(async () => {
          const seen = await b.sessions.get('s1')
          assert.deepEqual([seen!.logLevel, seen!.subscriptions], ['warning', ['reviews://a', 'reviews://b']])
        })
        assert.equal(await b.sessions.update('s1', { unsubscribe: 'reviews://b' }), true)
        await eventually(async () => assert.deepEqual((await a.sessions.get('s1'))!.subscriptions, ['reviews://a']))
        assert.equal(await a.sessions.delete('s1'), true)
        assert.equal(await a.sessions.delete('s1'), false)
        assert.equal(await a.sessions.update('s1', { logLevel: 'info' }), false)
        await eventually(async () => assert.equal(await b.sessions.get('s1'), undefined))
      })

      test("a record handed out is the caller's own: changing it changes nothing a later read sees", async () => {
        const [a] = await twoNodes(engine)
        const t = Date.now()
        await a.sessions.create(session('s1', t), 10)
        const first = (await a.sessions.get('s1'))!
        first.logLevel = 'error'
        first.subscriptions.push('reviews://changed')
        assert.deepEqual(await a.sessions.get('s1'), session('s1', t))
      })

      test('touch records use; expireIdle removes idle sessions on every node', async () => {
        const [a, b] = await twoNodes(engine)
        const t = Date.now()
        await a.sessions.create(session('old', t - 10_000), 10)
        await a.sessions.create(session('used', t - 10_000), 10)
        assert.ok(await b.sessions.get('old'))
        await b.sessions.touch('used', t)
        assert.equal((await b.sessions.get('used'))!.lastSeen, t)
        assert.deepEqual(await a.sessions.expireIdle(t - 5000), ['old'])
        await eventually(async () => assert.equal(await b.sessions.get('old'), undefined))
        assert.equal(await a.sessions.count(), 1)
        const kept = (await a.sessions.get('used'))!
        assert.deepEqual(kept, { ...session('used', t - 10_000), lastSeen: t })
      })
    })

    test('rates: fixed windows shared by nodes, starting over when one ends', async () => {
      const [a, b] = await twoNodes(engine)
      const t = 1_000_000
      assert.deepEqual(await a.rates.hit('client', 60_000, t), { count: 1, resetAt: t + 60_000 })
      assert.deepEqual(await b.rates.hit('client', 60_000, t + 10), { count: 2, resetAt: t + 60_000 })
      assert.deepEqual(await a.rates.hit('other', 60_000, t + 20), { count: 1, resetAt: t + 60_020 })
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).rates.hit('client', 60_000, t + 30)))
      assert.deepEqual(burst.map((r) => r.count).sort((x, y) => x - y), [3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
      assert.deepEqual(await b.rates.hit('client', 60_000, t + 60_000), { count: 1, resetAt: t + 120_000 })
    })

    test('firstSeen: the first time recorded wins, the same on every node', async () => {
      const [a, b] = await twoNodes(engine)
      const first = new Date('2025-01-01T00:00:00.000Z')
      const raced = await Promise.all([a.firstSeen('k', first), b.firstSeen('k', new Date('2025-02-01T00:00:00.000Z'))])
      assert.equal(raced[0].getTime(), raced[1].getTime())
      assert.equal((await b.firstSeen('k', new Date())).getTime(), raced[0].getTime())
      assert.equal((await a.firstSeen('new', first)).getTime(), first.getTime())
    })

    test('dump and restore: a round trip keeps every row; a store with data is refused unless replace', async () => {
      const [source] = await twoNodes(engine)
      await fill(source)
      const dumped = await source.dump()
      assert.equal(dumped.reviews.length, 3)
      assert.equal(dumped.subscriptions.length, 2)
      assert.equal(dumped.intents.length, 2)
      const [target, watcher] = await twoNodes(engine)
      let heard = 0
      watcher.watch(() => heard++)
      // SQLite's watch compares with what its first poll read: a change before that poll would go unnoticed.
      await sleep(150)
      await target.restore(dumped, { replace: false })
      assert.deepEqual(await target.dump(), dumped)
      const published = async (s: Store) => {
        const data = (await s.readPublished())!
        return { ...data, reviews: data.reviews.sort((x, y) => (x.review.id < y.review.id ? -1 : 1)) }
      }
      assert.deepEqual(await published(target), await published(source))
      await eventually(async () => assert.ok(heard > 0, 'restore not signalled'))
      await assert.rejects(target.restore(dumped, { replace: false }), NotEmptyError)
      await target.applyImport({ reviews: [review({ id: 'extra' })], replace: false, now: LATER })
      await target.restore(dumped, { replace: true })
      assert.deepEqual(await target.dump(), dumped)
      const next = await target.subscriptions.addIntent(
        { mode: 'subscribe', topic: 'https://reviews.test/feed.xml', callback: 'https://new.example/', secret: null, leaseSeconds: 60 },
        claimOf('n', Date.now())
      )
      assert.ok(next.id > Math.max(...dumped.intents.map((i) => i.id)), 'intent ids restart after the restored ones')
    })
  })
}

/** A store with something in every table a dump holds, including awkward values (unicode, nulls, a backoff). */
async function fill(store: Store): Promise<void> {
  await store.applyImport({ business: business({ name: 'Crème & “Quotes” Ltd' }), reviews: [review({ id: 'z', text: 'Ünïcode ✓ "quoted" \\ back' }), review({ id: 'a' })], replace: false, now: NOW })
  await store.applyImport({ reviews: [review({ id: 'm', verified: false, text: null })], replace: false, now: LATER })
  const topic = 'https://reviews.test/feed.xml'
  const now = Date.now()
  await store.subscriptions.subscribe({ ...subscription('https://s.example/1?x=1&y=2', { version: 1 }), secret: 's3cret' })
  await store.subscriptions.subscribe(subscription('https://s.example/2', { version: 1 }))
  await store.subscriptions.failed(topic, 'https://s.example/2', { nextAttemptAt: now + 1000, maxFailures: 5, gone: false })
  await store.subscriptions.addIntent({ mode: 'subscribe', topic, callback: 'https://s.example/3', secret: null, leaseSeconds: 60 }, claimOf('n', now))
  await store.subscriptions.addIntent({ mode: 'unsubscribe', topic, callback: 'https://s.example/3', secret: 'x', leaseSeconds: 60 }, claimOf('n', now))
}

if (process.env.TEST_POSTGRES_URL) {
  describe('PostgreSQL: the change signal survives a lost connection', () => {
    async function asAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
      const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL })
      await admin.connect()
      try {
        return await work(admin)
      } finally {
        await admin.end()
      }
    }

    /**
     * A login role of its own for one node, so the test can keep that node out while another writes: a node that
     * reconnects within milliseconds would otherwise make "changed while it was away" a race.
     */
    async function nodeRole(url: string): Promise<{ url: string; allowLogin(allowed: boolean): Promise<void> }> {
      const role = `node_${Math.random().toString(36).slice(2, 10)}`
      await asAdmin((admin) => admin.query(`CREATE ROLE ${role} LOGIN`))
      const own = new pg.Client({ connectionString: url })
      await own.connect()
      await own.query(`GRANT ALL ON SCHEMA public TO ${role}; GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}; GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`)
      await own.end()
      const roleUrl = new URL(url)
      roleUrl.username = role
      return { url: roleUrl.href, allowLogin: (allowed) => asAdmin((admin) => admin.query(`ALTER ROLE ${role} ${allowed ? 'LOGIN' : 'NOLOGIN'}`)).then(() => {}) }
    }

    /** Ends the server side of every connection to `url`'s database, as a server restart would. */
    const cutConnections = (url: string): Promise<number> =>
      asAdmin(async (admin) => {
        const { rows } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
          [new URL(url).pathname.slice(1)]
        )
        return rows.length
      })

    test('a statement that gets a pooled connection the server ended is run again on another', async () => {
      const url = await createPostgresDatabase()
      const a = await open(url)
      await Promise.all([a.dataVersion(), a.dataVersion(), a.dataVersion()])
      // psql runs while this process waits, so the pool cannot notice before the next statement takes a connection.
      const sql = `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '${new URL(url).pathname.slice(1)}' AND pid <> pg_backend_pid()`
      assert.ok(Number(execFileSync('psql', [process.env.TEST_POSTGRES_URL!, '-qAtc', sql], { encoding: 'utf8' })) >= 2)
      assert.equal(typeof (await a.dataVersion()), 'number')
      assert.equal(await a.sessions.get('nobody'), undefined)
    })

    test('a node whose connections were cut reconnects, hears what changed meanwhile, and drops its session cache', async () => {
      const url = await createPostgresDatabase()
      const a = await open(url)
      const roleOfB = await nodeRole(url)
      const b = await open(roleOfB.url)
      let heard = 0
      b.watch(() => heard++)
      await a.sessions.create(session('s'), 10)
      await b.sessions.get('s')
      await roleOfB.allowLogin(false)
      assert.ok((await cutConnections(url)) >= 2, 'both listeners and the pools')
      await eventually(async () => assert.equal(b.reachable, false))
      // Made while b cannot connect: no NOTIFY reaches it. A's pool may still hold connections that were cut before
      // it noticed: a statement that gets one is run again on another, so these go through at once.
      assert.equal(await a.sessions.update('s', { logLevel: 'error' }), true)
      await a.applyImport({ business: business(), reviews: [review()], replace: false, now: NOW })
      const heardWhileAway = heard
      await roleOfB.allowLogin(true)
      await eventually(async () => assert.equal(b.reachable, true), 10_000)
      await eventually(async () => assert.ok(heard > heardWhileAway, 'the change made while disconnected was not signalled'))
      assert.equal((await b.sessions.get('s'))!.logLevel, 'error')
      // And it listens again.
      const before = heard
      await a.applyImport({ reviews: [review()], replace: false, now: LATER })
      await eventually(async () => assert.ok(heard > before, 'not heard after the reconnect'))
    })
  })
}

if (ENGINES.length === 2) {
  test('dumps move between engines unchanged: SQLite → PostgreSQL → SQLite', async () => {
    const [sqlite, postgres] = ENGINES as [Engine, Engine]
    const [source] = await twoNodes(sqlite)
    await fill(source)
    const original: StoreDump = await source.dump()
    const [pg] = await twoNodes(postgres)
    await pg.restore(original, { replace: false })
    assert.deepEqual(await pg.dump(), original)
    const [back] = await twoNodes(sqlite)
    await back.restore(await pg.dump(), { replace: false })
    assert.deepEqual(await back.dump(), original)
  })
}
