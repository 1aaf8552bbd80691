import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { ImportDocument } from '../src/domain/index.js'
import { DEMO_FILE } from '../src/ingest/index.js'
import { buildMentionIndex } from '../src/mentions/index.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'

const demo = ImportDocument.parse(JSON.parse(readFileSync(DEMO_FILE, 'utf8')))
const b = demo.business!
const reviews = demo.reviews
const texts = reviews.flatMap((r) => (r.text ? [r.text] : []))

describe('the bundled demo funeral home', () => {
  test('a complete business file', () => {
    for (const key of ['name', 'description', 'url', 'telephone', 'email', 'category'] as const) assert.ok(b[key], key)
    assert.ok(b.address.street && b.address.locality && b.address.postal_code)
    assert.ok(b.hours.length >= 5)
    assert.ok(b.technicians.length >= 5 && b.technicians.every((t) => t.role && t.aliases.length > 0))
    assert.ok(b.services.length >= 7 && b.services.every((s) => s.id && s.aliases.length > 0))
    assert.ok(b.service_areas.length >= 5)
  })

  test('at least 300 reviews over at least 4 years, mostly 5 stars, at least 8% at 2 stars or fewer', () => {
    assert.ok(reviews.length >= 300)
    const dates = reviews.map((r) => r.date).sort()
    assert.ok(Date.parse(dates.at(-1)!) - Date.parse(dates[0]!) >= 4 * 365 * 86400_000)
    const share = (f: (r: (typeof reviews)[number]) => boolean) => reviews.filter(f).length / reviews.length
    assert.ok(share((r) => r.rating === 5) > 0.6)
    assert.ok(share((r) => r.rating <= 2) >= 0.08)
    const replies = share((r) => r.owner_reply !== null)
    assert.ok(replies > 0.25 && replies < 0.42, `owner replies on ${replies}`)
    assert.ok(reviews.some((r) => r.text === null), 'rating-only reviews')
    const unverified = reviews.filter((r) => !r.verified).length
    assert.ok(unverified > 0 && unverified < reviews.length * 0.05, 'a few unverified')
  })

  test('varied, untemplated text: lengths spread and no 8-word run shared by more than two reviews', () => {
    const words = texts.map((t) => t.split(/\s+/).length).sort((x, y) => x - y)
    assert.ok(words[0]! <= 5 && words.at(-1)! >= 150, `length range ${words[0]}..${words.at(-1)}`)
    const seen = new Map<string, Set<number>>()
    texts.forEach((t, i) => {
      const w = t.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, '').split(/\s+/)
      for (let k = 0; k + 8 <= w.length; k++) {
        const key = w.slice(k, k + 8).join(' ')
        seen.set(key, (seen.get(key) ?? new Set()).add(i))
      }
    })
    const repeated = [...seen].filter(([, ids]) => ids.size > 2).map(([k]) => k)
    assert.deepEqual(repeated, [])
  })

  test('staff are named by full name, first name, nickname and misspelling, and every one is detected', () => {
    const mentions = buildMentionIndex(b)
    const counts = new Map<string, number>()
    for (const t of texts) for (const name of mentions.detect(t).technicians) counts.set(name, (counts.get(name) ?? 0) + 1)
    for (const t of b.technicians) assert.ok((counts.get(t.name) ?? 0) >= 5, `${t.name} mentioned ${counts.get(t.name) ?? 0} times`)
    const all = texts.join('\n')
    assert.ok(/Dimitri Vane|Rosalind Achebe|Margaret Hollis/.test(all), 'full names')
    assert.ok(/\b(Peggy|Roz|Toby|Dimi|Bart|Inga)\b/.test(all), 'nicknames')
    assert.ok(/\b(Margret|Dimitry|Demetri|Rosalyn|Lindquist|Celest|Bartolomew|Ingred)\b/.test(all), 'misspellings')
  })
})

describe('seeding', () => {
  let s: TestService
  before(async () => {
    s = await startTestService()
  })
  after(() => s.stop())

  test('an empty database is filled with the demo at start, and only verified reviews are published', async () => {
    const doc = (await get(`${s.url}/reviews.json`)).json()
    assert.equal(doc.business.name, b.name)
    assert.equal(doc.reviews.length, reviews.filter((r) => r.verified).length)
    assert.equal(doc.aggregate_rating.review_count, doc.reviews.length)
    const dist = doc.aggregate_rating.distribution
    assert.equal(Object.values(dist).reduce((x: number, y) => x + (y as number), 0), doc.reviews.length)
  })

  test('a restart over the same database does not seed again or bump the version', async () => {
    const version = await s.service.store.dataVersion()
    const { seedDemoIfEmpty } = await import('../src/ingest/index.js')
    const outcome = await seedDemoIfEmpty(s.service.store)
    assert.equal(outcome.skipped, true)
    assert.equal(await s.service.store.dataVersion(), version)
  })
})
