import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { dataset, plumberBusiness, review } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'
import { runTool, writeTemp } from './helpers/tools.js'

/** The sitemaps.org protocol, narrowed to what we promise: every entry has an absolute loc and a lastmod. */
const SITEMAP_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  targetNamespace="http://www.sitemaps.org/schemas/sitemap/0.9" elementFormDefault="qualified">
  <xs:simpleType name="loc">
    <xs:restriction base="xs:anyURI"><xs:maxLength value="2048"/><xs:pattern value="https?://.+"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="lastmod"><xs:union memberTypes="xs:date xs:dateTime"/></xs:simpleType>
  <xs:complexType name="entry">
    <xs:sequence><xs:element name="loc" type="loc"/><xs:element name="lastmod" type="lastmod"/></xs:sequence>
  </xs:complexType>
  <xs:element name="urlset">
    <xs:complexType><xs:sequence><xs:element name="url" type="entry" maxOccurs="50000"/></xs:sequence></xs:complexType>
  </xs:element>
  <xs:element name="sitemapindex">
    <xs:complexType><xs:sequence><xs:element name="sitemap" type="entry" maxOccurs="50000"/></xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>
`
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const HOSTILE = '</script><script>alert(1)</script> Tom & Jerry'

interface Entry {
  loc: string
  lastmod: string
}

/** The <url> or <sitemap> entries of a sitemap file, with the XML escapes undone. */
function entries(xml: string, element: 'url' | 'sitemap'): Entry[] {
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&')
  const pattern = new RegExp(`<${element}><loc>([^<]*)</loc><lastmod>([^<]*)</lastmod></${element}>`, 'g')
  return [...xml.matchAll(pattern)].map((m) => ({ loc: unescape(m[1]!), lastmod: m[2]! }))
}

function assertValidSitemap(s: TestService, name: string, xml: string): void {
  const r = runTool('xmllint', ['--noout', '--schema', writeTemp(s.dir, 'sitemap.xsd', SITEMAP_XSD), writeTemp(s.dir, name, xml)])
  assert.equal(r.status, 0, r.output)
}

/** Where the test server answers for a public URL: BASE_URL swapped for the loopback address. */
function onTestServer(s: TestService, url: string): string {
  assert.ok(url.startsWith(`${s.baseUrl}/`), `${url} lies under BASE_URL ${s.baseUrl}`)
  return `${s.url}${url.slice(s.baseUrl.length)}`
}

describe('llms.txt, robots.txt, sitemap.xml and the JSON-LD of a small business', () => {
  // A BASE_URL with a path and an "&": every URL must keep the prefix, and XML must escape it.
  const baseUrl = 'https://reviews.test/r&d'
  const reviews = [
    review({ id: 'newest', date: '2024-06-30', text: HOSTILE, owner_reply: { text: 'Thank you.', date: '2024-07-01' } }),
    review({ id: 'silent', date: '2024-06-29', rating: 3, text: null }),
    ...Array.from({ length: 43 }, (_, i) => review({ id: `d${String(i).padStart(2, '0')}`, date: `2024-05-${String(1 + (i % 28)).padStart(2, '0')}` }))
  ]
  let s: TestService
  let published: any
  before(async () => {
    s = await startTestService({ data: dataset(reviews), env: { BASE_URL: baseUrl } })
    published = (await get(`${s.url}/reviews.json`)).json()
  })
  after(() => s.stop())

  test('llms.txt is Markdown text about the business in the data, with its freshness', async () => {
    const res = await get(`${s.url}/llms.txt`)
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    const text = res.text
    assert.ok(text.startsWith(`# ${published.business.name}\n\n> `), 'an H1 with the name, then the one-line summary')
    assert.ok(text.includes(`${published.aggregate_rating.review_count} reviews, ${published.aggregate_rating.rating_value.toFixed(1)} out of 5`))
    assert.ok(text.includes(`Last updated: ${new Date(published.generated_at).toISOString()} (data version `))
    assert.ok(text.includes(`${published.reviews.length} verified reviews, dated ${published.reviews.at(-1).date} to ${published.reviews[0].date}`))
    assert.doesNotMatch(text, /\[[^\]]*\](?!\()/, 'no bracketed citations outside links')
    for (const section of ['## Data', '## MCP and updates', '## Pages', '## Optional']) assert.ok(text.includes(`\n${section}\n`), section)
  })

  test('every URL in llms.txt is absolute under BASE_URL, and each GET resource answers 200', async () => {
    const text = (await get(`${s.url}/llms.txt`)).text
    const urls = [...text.matchAll(/https?:\/\/[^\s)`,]+/g)].map((m) => m[0])
    for (const url of urls) assert.ok(url.startsWith(`${baseUrl}/`), `${url} is under BASE_URL`)
    assert.doesNotMatch(text, /\]\((?!https?:)/, 'no relative link')
    const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!)
    const postOnly = [`${baseUrl}/mcp`, `${baseUrl}/api/websub/hub`]
    for (const url of postOnly) assert.ok(links.includes(url), `${url} is listed`)
    for (const url of links.filter((u) => !postOnly.includes(u))) {
      assert.equal((await get(onTestServer(s, url))).status, 200, url)
    }
  })

  test('robots.txt lets everyone crawl but the POST endpoints, and points to the sitemap', async () => {
    const res = await get(`${s.url}/robots.txt`)
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(res.text, ['User-agent: *', 'Disallow: /r&d/mcp', 'Disallow: /r&d/api/websub/hub', 'Allow: /', '', `Sitemap: ${baseUrl}/sitemap.xml`, ''].join('\n'))
  })

  test('sitemap.xml is a valid urlset of every page and every review permalink once, with lastmod', async () => {
    const res = await get(`${s.url}/sitemap.xml`)
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8')
    assertValidSitemap(s, 'sitemap.xml', res.text)
    assert.ok(res.text.includes('https://reviews.test/r&amp;d/'), 'URLs are XML-escaped')
    const listed = entries(res.text, 'url')
    const changedAt = new Date(published.generated_at).toISOString()
    const pages = ['/', '/reviews', '/reviews?page=2', '/reviews?page=3', '/developers', '/developers/api'].map((p) => ({ loc: `${baseUrl}${p}`, lastmod: changedAt }))
    const permalinks = published.reviews.map((r: { id: string; updated_at: string }) => ({ loc: `${baseUrl}/reviews/${r.id}`, lastmod: r.updated_at }))
    assert.deepEqual(sortByLoc(listed), sortByLoc([...pages, ...permalinks]))
  })

  test('a sitemap that fits one file has no chunk files; a chunk name that is no number is a JSON 404', async () => {
    for (const path of ['/sitemaps/1.xml', '/sitemaps/0.xml', '/sitemaps/01.xml', '/sitemaps/x.xml', '/sitemaps/1.5.xml']) {
      const res = await get(`${s.url}${path}`, { accept: BROWSER_ACCEPT })
      assert.equal(res.status, 404, path)
      assert.equal(res.json().error, 'not_found', path)
    }
  })

  test('llms.txt, robots.txt and sitemap.xml answer conditional GET with 304', async () => {
    for (const path of ['/llms.txt', '/robots.txt', '/sitemap.xml']) {
      const first = await get(`${s.url}${path}`)
      assert.ok(first.headers.etag && first.headers['last-modified'], path)
      assert.equal((await get(`${s.url}${path}`, { 'if-none-match': String(first.headers.etag) })).status, 304, path)
      assert.equal((await get(`${s.url}${path}`, { 'if-modified-since': String(first.headers['last-modified']) })).status, 304, path)
    }
  })

  test('the front page embeds LocalBusiness JSON-LD with its rating and newest reviews, hostile text intact', async () => {
    const page = (await get(`${s.url}/`, { accept: BROWSER_ACCEPT })).text
    const scripts = [...page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)]
    assert.equal(scripts.length, 1, 'one JSON-LD block')
    const ld = JSON.parse(scripts[0]![1]!)
    assert.equal(ld['@context'], 'https://schema.org')
    assert.equal(ld['@type'], 'LocalBusiness')
    assert.equal(ld.name, published.business.name)
    assert.equal(ld.address.streetAddress, published.business.address.street)
    assert.equal(ld.aggregateRating.ratingValue, published.aggregate_rating.rating_value)
    assert.equal(ld.aggregateRating.reviewCount, published.aggregate_rating.review_count)
    assert.ok(ld.review.length > 0)
    for (const r of ld.review) {
      assert.ok(r.author.name && r.reviewRating.ratingValue && r.datePublished, JSON.stringify(r))
      assert.ok(r.url.startsWith(`${baseUrl}/reviews/`))
    }
    assert.equal(ld.review[0].reviewBody, HOSTILE)
  })
})

describe('a business with no reviews yet', () => {
  let s: TestService
  before(async () => (s = await startTestService({ data: dataset([], plumberBusiness()) })))
  after(() => s.stop())

  test('llms.txt says so, about this business, and the sitemap lists the pages alone', async () => {
    const text = (await get(`${s.url}/llms.txt`)).text
    assert.ok(text.startsWith('# Copper Pipe Plumbing\n\n> Verified customer reviews of Copper Pipe Plumbing (Plumber; Millbrook, WA)'))
    assert.ok(text.includes(': no reviews yet.\n'))
    assert.ok(text.includes('- Reviews: none published yet\n'))
    assert.doesNotMatch(text, /funeral|Quiet Oak/i)
    const sitemap = (await get(`${s.url}/sitemap.xml`)).text
    assertValidSitemap(s, 'sitemap.xml', sitemap)
    assert.deepEqual(
      entries(sitemap, 'url').map((e) => e.loc),
      ['/', '/reviews', '/developers', '/developers/api'].map((p) => `${s.baseUrl}${p}`)
    )
  })
})

describe('a sitemap of more than 50,000 URLs', () => {
  const count = 50_100
  let s: TestService
  before(async () => {
    const reviews = Array.from({ length: count }, (_, i) => review({ id: `b${i}`, date: '2024-01-01', text: null }))
    s = await startTestService({ data: dataset(reviews) })
  })
  after(() => s.stop())

  test('becomes a sitemap index whose files, each within the limit, together list every URL once', async () => {
    const index = (await get(`${s.url}/sitemap.xml`)).text
    assertValidSitemap(s, 'index.xml', index)
    const files = entries(index, 'sitemap')
    assert.deepEqual(
      files.map((f) => f.loc),
      [`${s.baseUrl}/sitemaps/1.xml`, `${s.baseUrl}/sitemaps/2.xml`]
    )
    const listed: Entry[] = []
    for (const [i, file] of files.entries()) {
      const res = await get(onTestServer(s, file.loc))
      assert.equal(res.status, 200)
      assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8')
      assertValidSitemap(s, `chunk-${i + 1}.xml`, res.text)
      const chunk = entries(res.text, 'url')
      assert.ok(chunk.length <= 50_000 && res.body.length <= 52_428_800)
      assert.equal(file.lastmod, chunk.map((e) => e.lastmod).reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b)), 'the index gives each file its latest lastmod')
      listed.push(...chunk)
    }
    const locs = new Set(listed.map((e) => e.loc))
    assert.equal(locs.size, listed.length, 'no URL twice')
    const listPages = Array.from({ length: Math.ceil(count / 20) }, (_, i) => (i ? `/reviews?page=${i + 1}` : '/reviews'))
    const expected = [...Array.from({ length: count }, (_, i) => `/reviews/b${i}`), '/', ...listPages, '/developers', '/developers/api']
    assert.deepEqual(
      expected.filter((path) => !locs.has(`${s.baseUrl}${path}`)),
      [],
      'every URL is listed'
    )
    assert.equal(locs.size, expected.length)
    assert.equal((await get(`${s.url}/sitemaps/3.xml`)).status, 404)
  })
})

function sortByLoc(list: Entry[]): Entry[] {
  return [...list].sort((a, b) => a.loc.localeCompare(b.loc))
}
