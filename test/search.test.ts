import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { dataset, review } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'

// Small, hand-made data: every filter has reviews that must match and reviews that must not.
const R = {
  evie: review({ id: 'a-evie', rating: 5, date: '2024-03-10', text: 'Evie was wonderful with the direct cremation.' }),
  bill: review({ id: 'a-bill', rating: 1, date: '2024-02-01', text: 'The BILL was wrong and Teddy never called back.' }),
  grace: review({ id: 'a-grace', rating: 4, date: '2023-12-24', text: 'Grace Whitfield led a beautiful graveside service in Elm Hollow.' }),
  cafe: review({ id: 'a-cafe', rating: 3, date: '2023-06-15', text: 'The Café across the street was closed; the service in Fairview was fine.' }),
  silent: review({ id: 'a-silent', rating: 2, date: '2022-01-01', text: null }),
  hidden: review({ id: 'a-hidden', rating: 5, date: '2024-04-01', text: 'Evie again, but this review is not verified.', verified: false }),
  sameDay: review({ id: 'b-sameday', rating: 5, date: '2024-03-10', text: 'Such grace and kindness from everyone.' }),
  both: review({ id: 'a-both', rating: 4, date: '2021-05-05', text: 'Evelyn Marsh and Theodore Quist handled the simple cremations.' }),
  misspelt: review({ id: 'a-misspelt', rating: 5, date: '2020-01-01', text: 'Evelin Marsh answered at midnight.' })
}
// 130 older reviews, so paging past 100 can be tested.
const filler = Array.from({ length: 130 }, (_, i) =>
  review({ id: `f${String(i).padStart(3, '0')}`, rating: 5, date: `2019-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`, text: `Filler review ${i}.` })
)
const published = [...Object.values(R), ...filler].filter((r) => r.verified)

let s: TestService
const search = async (qs: string) => get(`${s.url}/api/reviews/search${qs ? `?${qs}` : ''}`)
const ids = async (qs: string) => {
  const res = await search(qs)
  assert.equal(res.status, 200, res.text)
  return (res.json().reviews as { id: string }[]).map((r) => r.id)
}

before(async () => {
  s = await startTestService({ data: dataset([...Object.values(R), ...filler]) })
})
after(() => s.stop())

describe('search envelope and order', () => {
  test('defaults: 20 newest first, date then id descending; unverified reviews never appear', async () => {
    const res = await search('')
    const body = res.json()
    assert.equal(body.matched, published.length)
    assert.equal(body.returned, 20)
    assert.equal(body.limit, 20)
    assert.equal(body.offset, 0)
    assert.equal(body.next_offset, 20)
    assert.deepEqual(Object.keys(body), ['matched', 'returned', 'limit', 'offset', 'next_offset', 'reviews'])
    assert.deepEqual(body.reviews.slice(0, 3).map((r: { id: string }) => r.id), ['b-sameday', 'a-evie', 'a-bill'])
    assert.ok(!body.reviews.some((r: { id: string }) => r.id === 'a-hidden'))
  })

  test('records carry every documented field, mentions and updated_at', async () => {
    const [first] = (await search('query=wonderful')).json().reviews
    assert.deepEqual(Object.keys(first), [
      'id', 'author', 'author_avatar_url', 'rating', 'date', 'published_at', 'text', 'source', 'source_url', 'owner_reply',
      'verified', 'language', 'updated_at', 'mentions'
    ])
    assert.deepEqual(first.mentions, { technicians: ['Evelyn Marsh'], services: ['direct-cremation'], service_areas: [] })
    assert.match(first.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
  })
})

describe('each parameter alone', () => {
  test('rating is exact', async () => assert.deepEqual(await ids('rating=1'), ['a-bill']))
  test('min_rating is inclusive and may be fractional', async () => {
    assert.deepEqual((await ids('min_rating=4&limit=100')).filter((id) => id.startsWith('a') || id.startsWith('b')), ['b-sameday', 'a-evie', 'a-grace', 'a-both', 'a-misspelt'])
    assert.ok(!(await ids('min_rating=4.5&limit=100')).includes('a-grace'))
  })
  test('since is inclusive', async () => assert.deepEqual(await ids('since=2024-02-01'), ['b-sameday', 'a-evie', 'a-bill']))
  test('until is inclusive', async () => assert.deepEqual((await ids('until=2022-01-01&limit=3')), ['a-silent', 'a-both', 'a-misspelt']))
  test('query is a case-insensitive substring', async () => assert.deepEqual(await ids('query=bill'), ['a-bill']))
  test('query ignores accents both ways', async () => {
    assert.deepEqual(await ids('query=cafe'), ['a-cafe'])
    assert.deepEqual(await ids(`query=${encodeURIComponent('CAFÉ')}`), ['a-cafe'])
  })
  test('query never matches a rating-only review', async () => assert.deepEqual(await ids('query=null'), []))
  test('mentions_technician accepts alias, full name, unique surname and misspelt mentions in text', async () => {
    const expected = ['a-evie', 'a-both', 'a-misspelt']
    for (const name of ['evie', 'Evelyn Marsh', 'EVELYN', 'Marsh']) assert.deepEqual(await ids(`mentions_technician=${encodeURIComponent(name)}`), expected, name)
  })
  test('a name that is also a word only counts when capitalised in the text', async () => {
    assert.deepEqual(await ids('mentions_technician=grace'), ['a-grace'])
  })
  test('mentions_service accepts id, name and alias, plurals included', async () => {
    for (const v of ['direct-cremation', 'Direct Cremation', 'simple cremation']) {
      assert.deepEqual(await ids(`mentions_service=${encodeURIComponent(v)}`), ['a-evie', 'a-both'], v)
    }
    assert.deepEqual(await ids('mentions_service=graveside'), ['a-grace'])
  })
  test('an unknown technician or service is 200 with no reviews', async () => {
    for (const qs of ['mentions_technician=Nobody%20Here', 'mentions_service=embalming']) {
      const res = await search(qs)
      assert.equal(res.status, 200)
      assert.deepEqual(res.json(), { matched: 0, returned: 0, limit: 20, offset: 0, next_offset: null, reviews: [] })
    }
  })
  test('limit caps the page', async () => {
    const body = (await search('limit=1')).json()
    assert.equal(body.returned, 1)
    assert.equal(body.next_offset, 1)
  })
})

describe('parameters combined (AND)', () => {
  test('rating + technician + since', async () => assert.deepEqual(await ids('rating=5&mentions_technician=evie&since=2024-01-01'), ['a-evie']))
  test('technician + service', async () => assert.deepEqual(await ids('mentions_technician=Teddy&mentions_service=direct-cremation'), ['a-both']))
  test('min_rating + query + until', async () => assert.deepEqual(await ids('min_rating=4&query=grace&until=2024-01-31'), ['a-grace']))
  test('since + until window with rating', async () => assert.deepEqual(await ids('since=2023-01-01&until=2023-12-31&rating=3'), ['a-cafe']))
  test('rating and min_rating together', async () => assert.deepEqual(await ids('rating=4&min_rating=4&since=2021-01-01'), ['a-grace', 'a-both']))
  test('contradictory filters give an empty page', async () => assert.deepEqual(await ids('rating=1&min_rating=2'), []))
})

describe('paging', () => {
  test('offset pages past 100 and next_offset is null on the last page', async () => {
    const first = (await search('limit=100')).json()
    assert.equal(first.returned, 100)
    assert.equal(first.next_offset, 100)
    const second = (await search('limit=100&offset=100')).json()
    assert.equal(second.returned, published.length - 100)
    assert.equal(second.next_offset, null)
    const all = [...first.reviews, ...second.reviews].map((r: { id: string }) => r.id)
    assert.equal(new Set(all).size, published.length)
  })
  test('an offset past the end gives an empty last page', async () => {
    const body = (await search('offset=5000')).json()
    assert.deepEqual([body.matched, body.returned, body.next_offset, body.reviews.length], [published.length, 0, null, 0])
  })
})

describe('400 for every invalid input', () => {
  const cases: [string, string][] = [
    ['rating=0', 'rating'], ['rating=6', 'rating'], ['rating=2.5', 'rating'], ['rating=abc', 'rating'], ['rating=', 'rating'],
    ['rating=1e0', 'rating'], ['rating=%205', 'rating'],
    ['min_rating=0.5', 'min_rating'], ['min_rating=5.01', 'min_rating'], ['min_rating=four', 'min_rating'],
    ['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=1.5', 'limit'], ['limit=-3', 'limit'],
    ['offset=-1', 'offset'], ['offset=x', 'offset'], ['offset=1000001', 'offset'],
    ['since=2025-02-30', 'since'], ['since=2025-2-3', 'since'], ['since=yesterday', 'since'], ['until=2024-13-01', 'until'],
    ['since=2024-05-01&until=2024-04-30', 'until'],
    ['query=', 'query'], ['query=%20%20', 'query'], [`query=${'x'.repeat(201)}`, 'query'],
    ['mentions_technician=', 'mentions_technician'], ['mentions_service=', 'mentions_service'],
    ['colour=blue', 'colour'], ['rating=5&rating=4', 'rating'], ['RATING=5', 'RATING']
  ]
  for (const [qs, path] of cases) {
    test(`${qs.slice(0, 60)} -> issue at ${path}`, async () => {
      const res = await search(qs)
      assert.equal(res.status, 400)
      assert.match(String(res.headers['content-type']), /^application\/json/)
      const body = res.json()
      assert.equal(body.error, 'invalid_request')
      assert.equal(typeof body.message, 'string')
      assert.ok(body.issues.some((i: { path: string[] }) => i.path[0] === path), JSON.stringify(body.issues))
      for (const i of body.issues) assert.deepEqual(Object.keys(i).sort(), ['code', 'message', 'path'])
    })
  }

  test('every problem of one request is reported', async () => {
    const body = (await search('rating=9&limit=0&since=2024-02-31&bogus=1')).json()
    assert.deepEqual(body.issues.map((i: { path: string[] }) => i.path[0]).sort(), ['bogus', 'limit', 'rating', 'since'])
  })
})

describe('reviews since a day', () => {
  test('returns { since, count, reviews } with date >= since, newest first', async () => {
    const res = await get(`${s.url}/api/reviews/since/2024-01-01`)
    assert.equal(res.status, 200)
    assert.deepEqual(res.json(), {
      since: '2024-01-01',
      count: 3,
      reviews: (await search('since=2024-01-01')).json().reviews
    })
  })
  test('a future date gives an empty list', async () => {
    assert.deepEqual((await get(`${s.url}/api/reviews/since/2999-01-01`)).json(), { since: '2999-01-01', count: 0, reviews: [] })
  })
  for (const bad of ['2025-02-30', '2024-1-01', 'today', '20240101', '2024-01-01T00:00:00Z']) {
    test(`malformed or impossible date ${bad} -> 400 with issues`, async () => {
      const res = await get(`${s.url}/api/reviews/since/${encodeURIComponent(bad)}`)
      assert.equal(res.status, 400)
      assert.deepEqual(res.json().issues.map((i: { path: string[] }) => i.path), [['date']])
    })
  }
  test('query parameters are not accepted, and a bad date is reported with them', async () => {
    const res = await get(`${s.url}/api/reviews/since/2024-01-01?limit=5`)
    assert.equal(res.status, 400)
    assert.deepEqual(res.json().issues.map((i: { path: string[] }) => i.path), [['limit']])
    const both = await get(`${s.url}/api/reviews/since/2024-02-30?limit=5`)
    assert.deepEqual(both.json().issues.map((i: { path: string[] }) => i.path), [['limit'], ['date']])
  })
})

describe('one review', () => {
  test('by id, and 404 for unknown or unverified ids', async () => {
    const res = await get(`${s.url}/reviews/a-evie`)
    assert.equal(res.status, 200)
    assert.equal(res.json().id, 'a-evie')
    for (const id of ['nope', 'a-hidden']) {
      const miss = await get(`${s.url}/reviews/${id}`)
      assert.equal(miss.status, 404)
      assert.equal(miss.json().error, 'not_found')
    }
  })
})
