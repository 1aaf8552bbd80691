import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, beforeEach, describe, test } from 'node:test'
import { openStore } from '../src/store/index.js'
import { testDatabaseUrl } from './helpers/database.js'
import { business, dataset, review, writeJson } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { runCli, startServerProcess } from './helpers/processes.js'

let dir: string
let env: Record<string, string>
let n = 0

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'reviews-import-'))
})
after(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(async () => {
  env = { DATABASE_URL: await testDatabaseUrl(dir, `db-${++n}`) }
})

async function state() {
  const store = await openStore(env.DATABASE_URL!)
  try {
    const data = await store.readPublished()
    return { version: await store.dataVersion(), ids: data ? data.reviews.map((r) => r.review.id).sort() : [], data }
  } finally {
    await store.close()
  }
}

const j1 = review({ id: 'j1', rating: 5, date: '2024-01-02', text: 'Evie was kind.' })
const j2 = review({ id: 'j2', rating: 4, date: '2024-01-03', text: 'Good.' })
const j3 = review({ id: 'j3', rating: 1, date: '2024-01-04', text: 'Not verified yet.', verified: false })
const base = [j1, j2, j3]

const CSV_HEADER = 'id,author,author_avatar_url,rating,date,published_at,text,source,source_url,owner_reply_text,owner_reply_date,verified,language'

describe('import CLI (real processes)', () => {
  test('JSON in the reviews.json shape: business and reviews land; unverified ones are kept but not published', async () => {
    const r = runCli(['import', writeJson(dir, 'a.json', dataset(base))], env)
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /imported: 3 added, 0 updated, 0 removed, 0 unchanged, business updated; data version is now 1/)
    const s = await state()
    assert.equal(s.version, 1)
    assert.deepEqual(s.ids, ['j1', 'j2'])
    assert.equal(s.data!.business.name, business().name)
  })

  test('a published reviews.json (computed fields included) imports as-is', async () => {
    const published = { version: '1.0', generated_at: '2024-01-01T00:00:00Z', aggregate_rating: { rating_value: 5 }, business: business(), reviews: [{ ...j1, updated_at: '2020-01-01T00:00:00Z', mentions: { technicians: ['x'] } }] }
    assert.equal(runCli(['import', writeJson(dir, 'p.json', published)], env).status, 0)
    assert.deepEqual((await state()).ids, ['j1'])
  })

  test('importing the same file twice changes nothing: no version bump, same updated_at', async () => {
    const file = writeJson(dir, 'same.json', dataset(base))
    runCli(['import', file], env)
    const first = await state()
    const again = runCli(['import', file], env)
    assert.equal(again.status, 0)
    assert.match(again.stdout, /nothing published changed \(0 added, 0 updated, 0 removed, 3 unchanged\); data version stays 1/)
    const second = await state()
    assert.equal(second.version, first.version)
    assert.deepEqual(second.data!.reviews.map((r) => r.updatedAt), first.data!.reviews.map((r) => r.updatedAt))
  })

  test('a change to an unverified review alone does not bump the version; publishing it does', async () => {
    runCli(['import', writeJson(dir, 'u1.json', dataset(base))], env)
    runCli(['import', writeJson(dir, 'u2.json', dataset([{ ...j3, text: 'Edited, still unverified.' }]))], env)
    assert.equal((await state()).version, 1)
    runCli(['import', writeJson(dir, 'u3.json', dataset([{ ...j3, verified: true }]))], env)
    const s = await state()
    assert.equal(s.version, 2)
    assert.deepEqual(s.ids, ['j1', 'j2', 'j3'])
  })

  test('without --replace reviews absent from the file stay; with --replace they go', async () => {
    runCli(['import', writeJson(dir, 'r1.json', dataset(base))], env)
    const onlyOne = writeJson(dir, 'r2.json', dataset([j1]))
    assert.match(runCli(['import', onlyOne], env).stdout, /nothing published changed/)
    assert.deepEqual((await state()).ids, ['j1', 'j2'])
    const r = runCli(['import', onlyOne, '--replace'], env)
    assert.match(r.stdout, /0 added, 0 updated, 2 removed, 1 unchanged/)
    assert.deepEqual((await state()).ids, ['j1'])
  })

  test('CSV adds and updates reviews of the stored business', async () => {
    runCli(['import', writeJson(dir, 'c0.json', dataset(base))], env)
    const csv = [
      CSV_HEADER,
      'j2,Author 2,,3,2024-01-03,,"Changed my mind, ""mostly"" fine.",google,,,,true,en',
      'c1,Ana,,5,2024-02-01,2024-02-01T10:00:00-08:00,"Teddy, thank you.\nTwo lines.",facebook,https://example.org/r/c1,Thank you Ana,2024-02-03,yes,',
      'c2,Bo,,2,2024-02-02,,,yelp,,,,1,'
    ].join('\n')
    const file = join(dir, 'c.csv')
    writeFileSync(file, csv)
    const r = runCli(['import', file], env)
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /2 added, 1 updated/)
    const s = await state()
    const byId = new Map(s.data!.reviews.map((x) => [x.review.id, x.review]))
    assert.equal(byId.get('j2')!.rating, 3)
    assert.equal(byId.get('j2')!.text, 'Changed my mind, "mostly" fine.')
    assert.deepEqual(byId.get('c1')!.owner_reply, { text: 'Thank you Ana', date: '2024-02-03' })
    assert.equal(byId.get('c1')!.text, 'Teddy, thank you.\nTwo lines.')
    assert.equal(byId.get('c2')!.text, null)
    assert.equal(byId.get('c2')!.language, null)
  })

  test('a bad CSV changes nothing and names every bad row and field', async () => {
    runCli(['import', writeJson(dir, 'b0.json', dataset(base))], env)
    const before = await state()
    const csv = [
      CSV_HEADER,
      'ok1,Fine,,5,2024-03-01,,Good,google,,,,true,en',
      'bad1,Rating,,6,2024-03-01,,x,google,,,,true,en',
      'bad2,,,4.5,2024-02-30,,x,google,not-a-url,,,maybe,en',
      'bad3,Reply,,5,2024-03-01,,x,google,,Thanks,,true,english!'
    ].join('\n')
    const file = join(dir, 'bad.csv')
    writeFileSync(file, csv)
    const r = runCli(['import', file], env)
    assert.equal(r.status, 1)
    for (const expected of [
      /row 3, field rating/,
      /row 4, field author/,
      /row 4, field rating/,
      /row 4, field date/,
      /row 4, field source_url/,
      /row 4, field verified/,
      /row 5, field owner_reply_date/,
      /row 5, field language/,
      /nothing was imported/
    ]) {
      assert.match(r.stderr, expected)
    }
    assert.doesNotMatch(r.stderr, /row 2/)
    assert.deepEqual(await state(), before)
  })

  test('CSV header problems are reported before any row', async () => {
    runCli(['import', writeJson(dir, 'h0.json', dataset(base))], env)
    const file = join(dir, 'header.csv')
    writeFileSync(file, 'id,author,ratng,date,source\nx,y,5,2024-01-01,google\n')
    const r = runCli(['import', file], env)
    assert.equal(r.status, 1)
    assert.match(r.stderr, /unknown column "ratng"/)
    assert.match(r.stderr, /missing required column "rating"/)
    assert.match(r.stderr, /missing required column "verified"/)
  })

  test('a bad JSON file changes nothing and lists every problem with the review id', async () => {
    runCli(['import', writeJson(dir, 'g0.json', dataset(base))], env)
    const before = await state()
    const bad = dataset([j1, review({ id: 'x1', rating: 0 }), review({ id: 'x2', date: 'soon', verified: 'yes' }), j1])
    const r = runCli(['import', writeJson(dir, 'bad.json', bad)], env)
    assert.equal(r.status, 1)
    assert.match(r.stderr, /reviews\[1\] \(id "x1"\)\.rating/)
    assert.match(r.stderr, /reviews\[2\] \(id "x2"\)\.date/)
    assert.match(r.stderr, /reviews\[2\] \(id "x2"\)\.verified/)
    assert.deepEqual(await state(), before)
    const dup = runCli(['import', writeJson(dir, 'dup.json', dataset([j1, j1]))], env)
    assert.match(dup.stderr, /review id "j1" appears more than once/)
    const syntax = join(dir, 'syntax.json')
    writeFileSync(syntax, '{"business": ')
    assert.match(runCli(['import', syntax], env).stderr, /not valid JSON/)
    assert.deepEqual(await state(), before)
  })

  test('CSV into a database without a business is refused; a missing file and bad usage are clear errors', async () => {
    const file = join(dir, 'lonely.csv')
    writeFileSync(file, `${CSV_HEADER}\nz,Z,,5,2024-01-01,,ok,google,,,,true,en\n`)
    const r = runCli(['import', file], env)
    assert.equal(r.status, 1)
    assert.match(r.stderr, /holds no business yet/)
    assert.match(runCli(['import', join(dir, 'missing.json')], env).stderr, /cannot read the file: ENOENT/)
    const usage = runCli(['import'], env)
    assert.equal(usage.status, 64)
    assert.match(usage.stderr, /usage:/)
    assert.equal(runCli(['import', 'a', 'b'], env).status, 64)
    assert.equal(runCli(['import', 'a', '--bogus'], env).status, 64)
  })
})

describe('a running server picks up an import made by another process', () => {
  test('within 2 seconds, with new ETags and the new review in search and feeds', async () => {
    runCli(['import', writeJson(dir, 'live0.json', dataset(base))], env)
    const server = await startServerProcess({ ...env, POLL_INTERVAL_MS: '250' })
    try {
      const before = await get(`${server.url}/reviews.json`)
      assert.equal(before.json().reviews.length, 2)
      const r = runCli(['import', writeJson(dir, 'live1.json', dataset([...base, review({ id: 'live', date: '2025-01-01', text: 'Arrived while serving.' })]))], env)
      assert.equal(r.status, 0, r.stderr)
      const imported = Date.now()
      let seenAfter = Infinity
      while (Date.now() - imported < 5000) {
        const now = await get(`${server.url}/api/reviews/search?query=arrived`)
        if (now.json().matched === 1) {
          seenAfter = Date.now() - imported
          break
        }
        await new Promise((res) => setTimeout(res, 50))
      }
      assert.ok(seenAfter < 2000, `seen after ${seenAfter} ms`)
      const after = await get(`${server.url}/reviews.json`)
      assert.notEqual(after.headers.etag, before.headers.etag)
      assert.equal(after.json().reviews[0].id, 'live')
      assert.equal((await get(`${server.url}/api/feed.json`)).json().items[0].id.endsWith('/reviews/live'), true)
      assert.equal((await get(`${server.url}/reviews.json`, { 'if-none-match': String(before.headers.etag) })).status, 200)
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0, 'SIGTERM drains and exits cleanly')
    }
  })
})
