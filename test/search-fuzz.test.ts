import assert from 'node:assert/strict'
import { Agent, request as httpRequest } from 'node:http'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { dataset, review } from './helpers/fixtures.js'
import { startTestService, type TestService } from './helpers/service.js'

let s: TestService
const agent = new Agent({ keepAlive: true, maxSockets: 8 })

before(async () => {
  const reviews = Array.from({ length: 80 }, (_, i) =>
    review({
      id: `z${String(i).padStart(3, '0')}`,
      rating: 1 + (i % 5),
      date: `202${i % 5}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      text: i % 7 === 0 ? null : `Crème brûlée ${i}: Evie and Teddy were kind; the graveside service was calm.`
    })
  )
  s = await startTestService({ data: dataset(reviews) })
})
after(async () => {
  agent.destroy()
  await s.stop()
})

function rawGet(path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    httpRequest(`${s.url}${path}`, { agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null })
      })
    })
      .on('error', reject)
      .end()
  })
}

const KEYS = ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'offset']
const value = fc.oneof(
  fc.integer({ min: -10, max: 200 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 })).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc.constantFrom('', ' ', 'evie', 'Teddy', 'graveside', 'crème', 'CREME', '%', '%zz', '&', '=', '__proto__', 'constructor', '1e3', '0x10', 'NaN', 'Infinity'),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 12 })
)
const key = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'RATING', 'limit[]', 'a.b') })
/** Percent-encodes whatever may not appear raw in a request target, but leaves % & = so malformed escapes get through. */
const loose = (v: string) => [...Buffer.from(v)].map((b) => (b > 0x20 && b < 0x7f && b !== 0x23 ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('')
const strict = (v: string) => loose(v).replace(/[%&=+]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
const queryString = fc
  .array(fc.tuple(key, value, fc.boolean()), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v, raw]) => (raw ? `${loose(k)}=${loose(v)}` : `${strict(k)}=${strict(v)}`)).join('&'))

/** Every review returned must satisfy the filters that were accepted (checked where the value is unambiguous). */
function checkPage(qs: string, body: any): void {
  const params = new URLSearchParams(qs.split('&').filter((p) => /^[a-z_]+=[\w.-]+$/.test(p)).join('&'))
  assert.deepEqual(Object.keys(body), ['matched', 'returned', 'limit', 'offset', 'next_offset', 'reviews'])
  assert.equal(body.returned, body.reviews.length)
  assert.ok(body.returned <= body.limit)
  for (const r of body.reviews) {
    if (params.has('rating')) assert.equal(r.rating, Number(params.get('rating')))
    if (params.has('min_rating')) assert.ok(r.rating >= Number(params.get('min_rating')))
    if (params.has('since')) assert.ok(r.date >= params.get('since')!)
    if (params.has('until')) assert.ok(r.date <= params.get('until')!)
  }
  const dates = body.reviews.map((r: { date: string }) => r.date)
  assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first')
}

test('thousands of random search query strings: never a 5xx; 400s carry issues; 200s honour the filters', async () => {
  let ok = 0
  let bad = 0
  await fc.assert(
    fc.asyncProperty(queryString, async (qs) => {
      const res = await rawGet(`/api/reviews/search?${qs}`)
      assert.ok(res.status === 200 || res.status === 400, `status ${res.status} for ?${qs}`)
      if (res.status === 400) {
        bad++
        assert.equal(res.body.error, 'invalid_request')
        assert.ok(Array.isArray(res.body.issues) && res.body.issues.length > 0)
        for (const i of res.body.issues) assert.ok(typeof i.code === 'string' && Array.isArray(i.path) && typeof i.message === 'string')
      } else {
        ok++
        checkPage(qs, res.body)
      }
    }),
    { numRuns: 3000 }
  )
  assert.ok(ok > 100 && bad > 100, `both outcomes exercised (200: ${ok}, 400: ${bad})`)
})

test('thousands of random since paths: 200 for real dates, 400 with issues otherwise, never a 5xx', async () => {
  const segment = fc.oneof(
    fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    fc.tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: -1, max: 13 }), fc.integer({ min: -1, max: 32 })).map(([y, m, d]) => `${y}-${m}-${d}`),
    fc.string({ minLength: 1, maxLength: 40 })
  )
  await fc.assert(
    fc.asyncProperty(segment, async (seg) => {
      const res = await rawGet(`/api/reviews/since/${encodeURIComponent(seg)}`)
      assert.ok([200, 400].includes(res.status), `status ${res.status} for ${seg}`)
      if (res.status === 200) {
        assert.equal(res.body.count, res.body.reviews.length)
        for (const r of res.body.reviews) assert.ok(r.date >= res.body.since)
      } else {
        assert.deepEqual(res.body.issues.map((i: { path: string[] }) => i.path), [['date']])
      }
    }),
    { numRuns: 1500 }
  )
})
