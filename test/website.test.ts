import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ConfigError, loadConfig } from '../src/config/index.js'
import { business, dataset, review } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'
import { runTool, writeTemp } from './helpers/tools.js'

/** The badge and the widget over HTTP: what they say, how they are served, and what they refuse. The browser test shows them embedded. */

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const LONG = `${'We were looked after from the first call to the last. '.repeat(8)}Thank you.`

const REVIEWS = [
  review({ id: 'w1', rating: 5, date: '2024-06-05', text: 'Nos trataron con mucho cariño y respeto en el peor momento de nuestra vida.', language: 'es' }),
  review({ id: 'w2', rating: 2, date: '2024-06-04', text: 'The paperwork took weeks.' }),
  review({ id: 'w3', rating: 4, date: '2024-06-03', text: LONG }),
  review({ id: 'w4', rating: 5, date: '2024-06-02', text: null }),
  review({ id: 'w5', rating: 3, date: '2024-06-01', text: 'Fine <b>really</b> & "fair".' })
]

describe('the badge and the widget', () => {
  let s: TestService
  let doc: { aggregate_rating: { rating_value: number; review_count: number }; business: { name: string; time_zone: string | null } }
  before(async () => {
    s = await startTestService({ data: dataset(REVIEWS) })
    doc = (await get(`${s.url}/reviews.json`)).json()
  })
  after(() => s.stop())

  test('the badge: well-formed SVG of a few hundred bytes, whose text is the rating and count of /reviews.json', async () => {
    const res = await get(`${s.url}/badge.svg`)
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'image/svg+xml')
    assert.ok(res.body.length < 1024, `${res.body.length} bytes`)
    assert.equal(runTool('xmllint', ['--noout', writeTemp(s.dir, 'badge.svg', res.body)]).status, 0, 'xmllint parses it')
    const texts = [...res.text.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])
    const { rating_value, review_count } = doc.aggregate_rating
    assert.deepEqual(texts, [rating_value.toFixed(1), '★★★★★', `${review_count} reviews`])
    assert.match(res.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="28" viewBox="0 0 \d+ 28" role="img" aria-labelledby="rb-t" aria-describedby="rb-d">/)
    assert.ok(res.text.includes(`<title id="rb-t">Quiet Oak Funeral Home: rated ${rating_value.toFixed(1)} out of 5</title>`))
    assert.ok(res.text.includes(`<desc id="rb-d">Average of ${review_count} verified reviews.</desc>`))
    assert.ok(String(res.headers['content-security-policy']).startsWith("default-src 'none'; style-src 'sha256-"))
  })

  test('light, dark and auto badges differ only in colour; an unknown theme or parameter is a 400 with every issue', async () => {
    const [light, dark, auto] = await Promise.all(['light', 'dark', 'auto'].map((t) => get(`${s.url}/badge.svg?theme=${t}`)))
    assert.equal(light!.text, (await get(`${s.url}/badge.svg`)).text, 'light is the default')
    assert.match(dark!.text, /fill="#1f1d1a"/)
    assert.match(auto!.text, /<style>@media\(prefers-color-scheme:dark\)\{/)
    const strip = (svg: string) => svg.replace(/<style>.*<\/style>/, '').replace(/ (?:fill|stroke|stop-color|class)="[^"]*"/g, '')
    assert.equal(strip(dark!.text), strip(light!.text))
    assert.equal(strip(auto!.text), strip(light!.text))
    const bad = await get(`${s.url}/badge.svg?theme=blue&size=2&theme=x`)
    assert.equal(bad.status, 400)
    assert.deepEqual(bad.json().issues.map((i: { path: string[] }) => i.path[0]).sort(), ['size', 'theme'])
  })

  test('both are cached and revalidated like every page: strong ETag, the data time as Last-Modified, 304, compression', async () => {
    const data = await get(`${s.url}/reviews.json`)
    for (const path of ['/badge.svg?theme=dark', '/embed?limit=2&theme=dark']) {
      const res = await get(`${s.url}${path}`)
      assert.match(String(res.headers.etag), /^"[^"]+"$/)
      assert.equal(res.headers['last-modified'], data.headers['last-modified'], 'Last-Modified is when the data changed, on every node')
      assert.equal(res.headers['cache-control'], 'public, max-age=60')
      assert.equal((await get(`${s.url}${path}`, { 'if-none-match': String(res.headers.etag) })).status, 304)
    }
    const gz = await get(`${s.url}/embed`, { 'accept-encoding': 'br' })
    assert.equal(gz.headers['content-encoding'], 'br')
  })

  test('the same bytes and validators from a second node on the same database', async () => {
    const other = await startTestService({ env: { DATABASE_URL: s.databaseUrl } })
    try {
      for (const path of ['/badge.svg', '/badge.svg?theme=auto', '/embed', '/embed?min_rating=4&theme=auto']) {
        const [a, b] = await Promise.all([get(`${s.url}${path}`), get(`${other.url}${path}`)])
        assert.equal(a.text, b.text, path)
        assert.equal(a.headers.etag, b.headers.etag, path)
        assert.equal(a.headers['last-modified'], b.headers['last-modified'], path)
      }
    } finally {
      await other.stop()
    }
  })

  test('the widget: the overall rating, the newest reviews linked to their permalinks in a new tab, no script, not indexed', async () => {
    const res = await get(`${s.url}/embed?limit=3`, { accept: BROWSER_ACCEPT })
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    const csp = String(res.headers['content-security-policy'])
    assert.match(csp, /^default-src 'none'; style-src 'sha256-[^']+' 'sha256-[^']+'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors \*$/)
    const page = res.text
    assert.doesNotMatch(page, /<script|<img|<link /)
    assert.match(page, /<meta name="robots" content="noindex"\/>/)
    assert.match(page, /<html lang="en" class="light">/)
    assert.ok(page.includes(`<span class="value">${doc.aggregate_rating.rating_value.toFixed(1)}</span>`))
    assert.ok(page.includes(`from ${doc.aggregate_rating.review_count} verified reviews`))
    assert.deepEqual([...page.matchAll(/<h3>/g)].length, 3)
    for (const id of ['w1', 'w2', 'w3']) assert.ok(page.includes(`<a href="${s.baseUrl}/reviews/${id}" target="_blank" rel="noopener">`), id)
    assert.doesNotMatch(page, /reviews\/w4/)
    const links = [...page.matchAll(/<a [^>]*>/g)].map((m) => m[0])
    assert.ok(links.every((a) => a.includes('target="_blank" rel="noopener"')), 'every link opens a new tab, without access to the frame')
    assert.match(page, /<p lang="es">Nos trataron/)
    assert.match(page, /We were looked after[^<]*…/, 'a long review is cut')
    assert.ok(page.length < 12_000, `${page.length} bytes`)
  })

  test('min_rating says what it filters, and the rating still counts every review; limit and theme apply', async () => {
    const page = (await get(`${s.url}/embed?min_rating=4&limit=10&theme=dark`)).text
    assert.match(page, /<h2>Newest reviews with 4 stars or more<\/h2>/)
    assert.deepEqual([...new Set([...page.matchAll(/reviews\/(w\d)"/g)].map((m) => m[1]))], ['w1', 'w3', 'w4'])
    assert.ok(page.includes(`from ${doc.aggregate_rating.review_count} verified reviews`))
    assert.match(page, /<html lang="en" class="dark">/)
    assert.ok(!page.includes('Fine'), 'the 3-star review is left out')
  })

  test('bad parameters: 400 with every issue, as JSON to programs and as a page, allowed in the frame, to browsers', async () => {
    const json = await get(`${s.url}/embed?limit=0&min_rating=6&theme=blue&colour=red&limit=2`)
    assert.equal(json.status, 400)
    assert.deepEqual(json.json().issues.map((i: { path: string[] }) => i.path[0]).sort(), ['colour', 'limit', 'min_rating', 'theme'])
    const html = await get(`${s.url}/embed?limit=20`, { accept: BROWSER_ACCEPT })
    assert.equal(html.status, 400)
    assert.equal(html.headers['content-type'], 'text/html; charset=utf-8')
    assert.match(String(html.headers['content-security-policy']), /frame-ancestors \*$/)
    assert.match(html.text, /must be an integer from 1 to 10/)
  })

  test('the business time zone is in reviews.json, null when the business states none, and documented', async () => {
    assert.equal(doc.business.time_zone, null)
    assert.ok('time_zone' in doc.business)
    const openapi = (await get(`${s.url}/openapi.json`)).json()
    assert.ok(openapi.components.schemas.Business.properties.time_zone)
    assert.ok(openapi.paths['/badge.svg'].get && openapi.paths['/embed'].get)
  })
})

describe('a widget limited to named sites', () => {
  test('frame-ancestors names this site and EMBED_ALLOWED_ORIGINS; a malformed origin stops the start', async () => {
    const s = await startTestService({ env: { EMBED_ALLOWED_ORIGINS: 'https://www.quiet-oak.example, http://localhost:8081/' } })
    try {
      const csp = String((await get(`${s.url}/embed`)).headers['content-security-policy'])
      assert.match(csp, /frame-ancestors 'self' https:\/\/www\.quiet-oak\.example http:\/\/localhost:8081$/)
      assert.match((await get(`${s.url}/developers`, { accept: BROWSER_ACCEPT })).text, /only these sites show the widget in a frame: <code>https:\/\/www\.quiet-oak\.example<\/code>/)
    } finally {
      await s.stop()
    }
    for (const bad of ['https://x.example/page', 'ftp://x.example', '*']) {
      assert.throws(() => loadConfig({ EMBED_ALLOWED_ORIGINS: bad }), (e: Error) => e instanceof ConfigError && /EMBED_ALLOWED_ORIGINS/.test(e.message), bad)
    }
  })

  test('a business with no reviews yet gets a badge and a widget that say so', async () => {
    const s = await startTestService({ data: dataset([], business({ time_zone: 'America/Chicago' })) })
    try {
      const badge = (await get(`${s.url}/badge.svg`)).text
      assert.match(badge, /<text[^>]*>No reviews yet<\/text>/)
      assert.doesNotMatch(badge, /★/)
      assert.match((await get(`${s.url}/embed`)).text, /No reviews have been published yet/)
      assert.equal((await get(`${s.url}/reviews.json`)).json().business.time_zone, 'America/Chicago')
    } finally {
      await s.stop()
    }
  })
})
