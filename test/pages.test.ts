import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { dataset, plumberBusiness, review } from './helpers/fixtures.js'
import { get, request } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const html = (url: string, headers: Record<string, string> = {}) => get(url, { accept: BROWSER_ACCEPT, ...headers })

describe('the front page on the demo data', () => {
  let s: TestService
  before(async () => (s = await startTestService()))
  after(() => s.stop())

  test('is a complete HTML page about the business in the data, under 150 KB', async () => {
    const res = await html(`${s.url}/`)
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assert.ok(res.body.length < 150 * 1024, `page weighs ${res.body.length} bytes`)
    const business = (await get(`${s.url}/reviews.json`)).json().business
    const page = res.text
    assert.match(page, /^<!doctype html><html lang="en">/)
    assert.ok(page.includes(`<h1>${escapeHtml(business.name)}</h1>`))
    for (const fact of [business.telephone, business.address.street, ...business.service_areas]) assert.ok(page.includes(escapeHtml(fact)), fact)
    assert.doesNotMatch(page, /<script(?! type="application\/ld\+json")/, 'no script runs on the page')
    assert.doesNotMatch(page, /\b(?:src|href)="(?:https?:)?\/\/(?!reviews\.test)[^"]*\.(?:js|css|woff2?)"/, 'nothing is loaded from elsewhere')
  })

  test('shows the rating, both charts with titles, the FAQ with links to its reviews, and the newest reviews', async () => {
    const page = (await html(`${s.url}/`)).text
    const insights = (await get(`${s.url}/insights.json`)).json()
    const newest = (await get(`${s.url}/api/reviews/search?limit=10`)).json().reviews
    assert.equal((page.match(/<svg class="chart"[^>]* role="img" aria-labelledby="[^"]+"/g) ?? []).length, 2)
    assert.match(page, /<title id="stars-chart-title">Ratings by number of stars<\/title>/)
    for (const aspect of insights.aspects.filter((a: { mention_count: number }) => a.mention_count > 0)) assert.ok(page.includes(`>${aspect.label}</text>`), aspect.label)
    for (const f of insights.faq) {
      assert.ok(page.includes(escapeHtml(f.question)), f.question)
      assert.ok(page.includes(`href="/reviews/${f.review_ids[0]}"`), `FAQ "${f.question}" links its first review`)
    }
    for (const r of newest) assert.ok(page.includes(`id="review-${r.id}"`), `newest review ${r.id} is shown`)
    const replied = newest.find((r: { owner_reply: unknown }) => r.owner_reply)
    if (replied) assert.ok(page.includes(escapeHtml(replied.owner_reply.text.split('\n')[0].slice(0, 40))))
    assert.match(page, /href="\/reviews">Read all [\d,]+ reviews<\/a>/)
  })

  test('carries Link headers and head links for the API description, both feeds and the hub', async () => {
    const res = await html(`${s.url}/`)
    const link = String(res.headers.link)
    assert.ok(link.includes(`<${s.baseUrl}/openapi.json>; rel="service-desc"`))
    assert.ok(link.includes(`<${s.baseUrl}/api/feed.json>; rel="alternate"; type="application/feed+json"`))
    assert.ok(link.includes(`<${s.baseUrl}/feed.xml>; rel="alternate"; type="application/atom+xml"`))
    assert.ok(link.includes(`<${s.baseUrl}/api/websub/hub>; rel="hub"`))
    assert.match(res.text, new RegExp(`<link rel="alternate" type="application/feed\\+json" title="[^"]+" href="${s.baseUrl}/api/feed.json"/>`))
    assert.match(res.text, new RegExp(`<link rel="alternate" type="application/atom\\+xml" title="[^"]+" href="${s.baseUrl}/feed.xml"/>`))
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'; style-src 'sha256-/)
  })

  test('answers conditional GET, HEAD and compression like every other resource', async () => {
    const first = await html(`${s.url}/`)
    assert.equal((await html(`${s.url}/`, { 'if-none-match': String(first.headers.etag) })).status, 304)
    assert.equal((await html(`${s.url}/`, { 'if-modified-since': String(first.headers['last-modified']) })).status, 304)
    const head = await request('HEAD', `${s.url}/`, { accept: BROWSER_ACCEPT })
    assert.equal(head.status, 200)
    assert.equal(head.body.length, 0)
    const gz = await html(`${s.url}/`, { 'accept-encoding': 'gzip' })
    assert.equal(gz.headers['content-encoding'], 'gzip')
    assert.equal(gunzipSync(gz.body).toString(), first.text)
    assert.equal((await html(`${s.url}/?utm_source=x`)).headers.etag, first.headers.etag, 'tracking parameters do not make new pages')
  })
})

describe('the review list and permalinks', () => {
  let s: TestService
  const reviews = Array.from({ length: 45 }, (_, i) =>
    review({ id: `p${String(i).padStart(2, '0')}`, date: `2024-02-${String(1 + (i % 28)).padStart(2, '0')}`, text: i === 0 ? '<script>alert("x")</script> & fine' : `Review number ${i}.` })
  )
  before(async () => (s = await startTestService({ data: dataset(reviews) })))
  after(() => s.stop())

  test('lists every review, 20 to a page, newest first, with links between pages', async () => {
    const ids: string[] = []
    for (const page of [1, 2, 3]) {
      const res = await html(`${s.url}/reviews${page > 1 ? `?page=${page}` : ''}`)
      assert.equal(res.status, 200)
      ids.push(...[...res.text.matchAll(/<article class="review card" id="review-([^"]+)"/g)].map((m) => m[1]!))
      if (page < 3) assert.ok(res.text.includes(`href="/reviews?page=${page + 1}" rel="next"`))
    }
    const expected = (await get(`${s.url}/api/reviews/search?limit=100`)).json().reviews.map((r: { id: string }) => r.id)
    assert.deepEqual(ids, expected)
  })

  test('a bad page parameter is a 400 with issues; a page past the end is a 404', async () => {
    for (const q of ['page=0', 'page=abc', 'page=1.5', 'page=1&page=2', 'sort=old']) {
      const res = await get(`${s.url}/reviews?${q}`)
      assert.equal(res.status, 400, q)
      assert.ok(res.json().issues.length > 0, q)
    }
    assert.equal((await html(`${s.url}/reviews?page=4`)).status, 404)
  })

  test('a permalink is a page for browsers and the JSON record for API clients, varying on Accept', async () => {
    const feed = (await get(`${s.url}/api/feed.json`)).json()
    const item = feed.items[0]
    assert.equal(item.url, `${s.baseUrl}/reviews/${item.id.split('/').pop()}`)
    const path = new URL(item.url).pathname
    const page = await html(`${s.url}${path}`)
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8')
    assert.match(page.text, /<h1>Review by [^<]+<\/h1>/)
    assert.equal(page.headers.vary, 'Accept, Accept-Encoding')
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await get(`${s.url}${path}`, accept ? { accept } : {})
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', String(accept))
      assert.equal(res.json().id, path.split('/').pop())
      assert.equal(res.headers.vary, 'Accept, Accept-Encoding')
      assert.notEqual(res.headers.etag, page.headers.etag)
    }
    assert.equal((await html(`${s.url}/reviews/nope`)).status, 404)
  })

  test('hostile review text is shown as text, never as markup', async () => {
    const res = await html(`${s.url}/reviews/p00`)
    assert.ok(res.text.includes('&lt;script>alert(&quot;x&quot;)&lt;/script> &amp; fine') || res.text.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; fine'))
    assert.doesNotMatch(res.text, /<script>alert/)
  })
})

describe('a business that is not a funeral home', () => {
  let s: TestService
  const plumber = plumberBusiness()
  before(async () => {
    s = await startTestService({
      data: dataset(
        [
          review({ id: 'w1', date: '2024-05-01', author: 'Dana Ortiz', text: 'Gus arrived on time and fixed the water heater. Fair price.' }),
          review({ id: 'w2', date: '2024-05-02', rating: 2, text: 'They showed up late, and the leak came back a week later.', owner_reply: { text: 'We came back and fixed it free.', date: '2024-05-04' } }),
          review({ id: 'w3', date: '2024-05-03', text: 'Gaspard explained the quote and the repair held up.' })
        ],
        plumber
      )
    })
  })
  after(() => s.stop())

  test('renders its own name, facts, aspects and questions, and nothing of the demo funeral home', async () => {
    const page = (await html(`${s.url}/`)).text.replace(/<style>[\s\S]*?<\/style>/, '')
    for (const text of [plumber.name, plumber.description, '88 Foundry Road', 'Millbrook, WA 98001', 'Punctuality', 'Workmanship', 'Do they show up on time?', 'Dana Ortiz', 'We came back and fixed it free.']) {
      assert.ok(page.includes(escapeHtml(text)), text)
    }
    assert.match(page, /<th scope="row">Monday<\/th><td>7:00 AM – 7:00 PM<\/td>/)
    assert.match(page, /<th scope="row">Sunday<\/th><td>Closed<\/td>/)
    assert.doesNotMatch(page, /funeral|cremat|ashes|famil|Hollis|Quiet Oak|compassion/i)
  })
})

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
}

describe('errors for people', () => {
  let s: TestService
  before(async () => (s = await startTestService({ data: dataset([review({ id: 'e1' })]) })))
  after(() => s.stop())

  test('a browser gets a readable error page with the same status; API clients and API paths keep JSON', async () => {
    for (const [path, status] of [['/reviews/missing', 404], ['/no/such/page', 404], ['/reviews?page=0', 400]] as const) {
      const page = await html(`${s.url}${path}`)
      assert.equal(page.status, status, path)
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8', path)
      assert.match(page.text, /<h1>(Page not found|This request cannot be answered)<\/h1>/)
      assert.match(page.text, /href="\/">Go to the front page<\/a>/)
      const api = await get(`${s.url}${path}`)
      assert.equal(api.status, status)
      assert.equal(api.json().error, status === 404 ? 'not_found' : 'invalid_request')
    }
    const search = await html(`${s.url}/api/reviews/search?rating=9`)
    assert.equal(search.status, 400)
    assert.ok(search.json().issues.length)
    assert.equal((await html(`${s.url}/missing.json`)).headers['content-type'], 'application/json; charset=utf-8')
  })
})
