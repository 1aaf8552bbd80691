import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { loadConfig } from '../src/config/index.js'
import { DEMO_FILE, importFile } from '../src/ingest/index.js'
import { startService } from '../src/main.js'
import { openStore, type StoreDump } from '../src/store/index.js'
import { createPostgresDatabase } from './helpers/database.js'
import { dataset, review, writeJson } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { runCli } from './helpers/processes.js'

/**
 * `migrate` (the way out of SQLite, and back) and `export` (a backup in the import format), run as a user would: the
 * CLI as its own process. A round trip SQLite -> PostgreSQL -> SQLite must give back every row as it was.
 */
let dir: string
let source: string
let original: StoreDump

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'migrate-'))
  source = `sqlite:${join(dir, 'source.db')}`
  const store = await openStore(source)
  try {
    await importFile(store, DEMO_FILE, { replace: false })
    // Rows of every kind: an unverified review, subscriptions mid-delivery (one backing off), a pending verification.
    await importFile(store, writeJson(dir, 'more.json', { reviews: [review({ id: 'hidden', verified: false, text: 'Not verified yet.' })] }), { replace: false })
    const now = Date.now()
    const subscription = { secret: 's3cret', leaseSeconds: 3600, expiresAt: now + 3_600_000, version: 1, maxPerHost: 10 }
    await store.subscriptions.subscribe({ topic: 'http://localhost:8080/feed.xml', callback: 'https://sub.example/a?x=1', ...subscription })
    await store.subscriptions.subscribe({ topic: 'http://localhost:8080/reviews.json', callback: 'https://sub.example/b', ...subscription, secret: null })
    await store.subscriptions.failed('http://localhost:8080/reviews.json', 'https://sub.example/b', { nextAttemptAt: now + 60_000, maxFailures: 3, gone: false })
    const claim = { node: 'test', now, until: now + 1000 }
    await store.subscriptions.addIntent({ mode: 'subscribe', topic: 'http://localhost:8080/api/feed.json', callback: 'https://sub.example/c', secret: null, leaseSeconds: 7200 }, claim)
    original = await store.dump()
  } finally {
    await store.close()
  }
})
after(() => rmSync(dir, { recursive: true, force: true }))

const migrate = (...args: string[]) => runCli(['migrate', ...args], {})

async function dumpOf(url: string): Promise<StoreDump> {
  const store = await openStore(url)
  try {
    return await store.dump()
  } finally {
    await store.close()
  }
}

test('SQLite -> PostgreSQL -> SQLite gives back every row: business, every review (unverified too), subscriptions with their watermarks and backoff, pending verifications, the data version', async () => {
  assert.ok(original.reviews.some((r) => !r.review.verified))
  assert.equal(original.subscriptions.length, 2)
  assert.equal(original.intents.length, 1)
  const postgres = await createPostgresDatabase()
  const there = migrate('--from', source, '--to', postgres)
  assert.equal(there.status, 0, there.stderr)
  assert.match(there.stdout, /migrated: the business, 337 reviews, 2 subscriptions and 1 pending verifications; data version 1/)
  assert.deepEqual(await dumpOf(postgres), original)
  const back = `sqlite:${join(dir, 'back.db')}`
  const again = migrate('--from', postgres, '--to', back)
  assert.equal(again.status, 0, again.stderr)
  assert.deepEqual(await dumpOf(back), original)
})

test('a migrated database is served with the same bytes and validators as the original', async () => {
  // Copies of the source: a service works on what its store holds (its hub settles the pending verification).
  const postgres = await createPostgresDatabase()
  const copy = `sqlite:${join(dir, 'copy.db')}`
  for (const target of [postgres, copy]) assert.equal(migrate('--from', source, '--to', target).status, 0)
  const served = []
  for (const databaseUrl of [copy, postgres]) {
    const service = await startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', BASE_URL: 'https://reviews.test', METRICS_PORT: '0' }))
    try {
      const r = await get(`http://127.0.0.1:${service.address.port}/reviews.json`)
      served.push({ etag: r.headers.etag, lastModified: r.headers['last-modified'], body: r.text })
    } finally {
      await service.stop()
    }
  }
  assert.deepEqual(served[1], served[0])
})

test('a target that holds data is refused and left as it was, unless --replace', async () => {
  const target = `sqlite:${join(dir, 'target.db')}`
  const store = await openStore(target)
  await importFile(store, writeJson(dir, 'other.json', dataset([review({ id: 'other', text: 'Another business.' })])), { replace: false })
  const before = await store.dump()
  await store.close()
  const refused = migrate('--from', source, '--to', target)
  assert.equal(refused.status, 1)
  assert.match(refused.stderr, /already holds data: pass --replace/)
  assert.deepEqual(await dumpOf(target), before, 'nothing written')
  const replaced = migrate('--from', source, '--to', target, '--replace')
  assert.equal(replaced.status, 0, replaced.stderr)
  assert.deepEqual(await dumpOf(target), original)
})

test('bad arguments are usage errors (exit 64) that say what is wrong', () => {
  for (const [args, message] of [
    [['--from', source], /--from <url> and --to <url>/],
    [['--from', source, '--to', source], /two different databases/],
    [['--from', 'mysql://x', '--to', source], /--from must be sqlite:<path> or postgres/],
    [['--from', source, '--to', source, '--fast'], /Unknown option '--fast'/]
  ] as const) {
    const r = migrate(...args)
    assert.equal(r.status, 64, r.stderr)
    assert.match(r.stderr, message)
  }
})

test('export writes every review (unverified too) and the business in the import format, and the file imports into an empty database as the same data', async () => {
  const file = join(dir, 'backup.json')
  const r = runCli(['export', file], { DATABASE_URL: source })
  assert.equal(r.status, 0, r.stderr)
  const exported = JSON.parse(readFileSync(file, 'utf8'))
  assert.equal(exported.reviews.length, original.reviews.length)
  const restored = `sqlite:${join(dir, 'restored.db')}`
  const imported = runCli(['import', file], { DATABASE_URL: restored })
  assert.equal(imported.status, 0, imported.stderr)
  const dump = await dumpOf(restored)
  assert.deepEqual(dump.business, original.business)
  assert.deepEqual(dump.reviews.map((x) => x.review), original.reviews.map((x) => x.review))
  const stdout = runCli(['export'], { DATABASE_URL: source })
  assert.deepEqual(JSON.parse(stdout.stdout), exported, 'without a file, the same document on standard output')
  const empty = runCli(['export'], { DATABASE_URL: `sqlite:${join(dir, 'empty.db')}` })
  assert.equal(empty.status, 1)
  assert.match(empty.stderr, /holds no business/)
})
