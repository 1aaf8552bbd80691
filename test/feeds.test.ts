import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { after, before, describe, test } from 'node:test'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { JsonFeed } from '../src/domain/index.js'
import { dataset, review } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'
import { runTool, writeTemp } from './helpers/tools.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv
const ATOM_RNC = fileURLToPath(new URL('./fixtures/atom.rnc', import.meta.url))
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/

/** Review text is user content: markup, entities, CDATA ends, control characters, lone surrogates, RTL and emoji. */
const HOSTILE = 'Tom & Jerry <script>alert("x")</script> ]]> &amp; \u0001\u0008\u000b\u001f \ud800 \uFFFE \u202e reversed 🙂 “quotes” \'apos\''

let s: TestService
let jsonFeed: any
let atom: string

before(async () => {
  const reviews = [
    ...Array.from({ length: 55 }, (_, i) =>
      review({ id: `n${String(i).padStart(3, '0')}`, date: `2024-02-${String(1 + (i % 28)).padStart(2, '0')}`, published_at: i % 2 ? '2024-02-03T10:15:00-08:00' : null, text: `Review number ${i}. Evie helped.` })
    ),
    review({
      id: 'hostile',
      author: 'Eve <evil> & "co"',
      date: '2024-12-31',
      text: HOSTILE,
      owner_reply: { text: 'Reply with <b>tags</b> & ampersands', date: '2025-01-02' }
    }),
    review({ id: 'silent', date: '2024-12-30', text: null, language: null })
  ]
  s = await startTestService({ data: dataset(reviews, { ...(await import('./helpers/fixtures.js')).business(), name: 'Quiet Oak & Sons <Funeral Home>' }) })
  jsonFeed = (await get(`${s.url}/api/feed.json`)).json()
  atom = (await get(`${s.url}/feed.xml`)).text
})
after(() => s.stop())

describe('JSON Feed 1.1', () => {
  test('validates against the JSON Feed 1.1 JSON Schema (npm jsonfeed-schema + Ajv)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false })
    addFormats(ajv)
    const validate = ajv.compile(createRequire(import.meta.url)('jsonfeed-schema/v1.1'))
    assert.ok(validate(jsonFeed), JSON.stringify(validate.errors, null, 2))
  })

  test('matches our own schema, holds the 50 newest reviews and advertises the hub', () => {
    JsonFeed.parse(jsonFeed)
    assert.equal(jsonFeed.version, 'https://jsonfeed.org/version/1.1')
    assert.equal(jsonFeed.items.length, 50)
    assert.equal(jsonFeed.items[0].id, `${s.baseUrl}/reviews/hostile`)
    assert.equal(jsonFeed.feed_url, `${s.baseUrl}/api/feed.json`)
    assert.deepEqual(jsonFeed.hubs, [{ type: 'WebSub', url: `${s.baseUrl}/api/websub/hub` }])
    assert.equal(new Set(jsonFeed.items.map((i: { id: string }) => i.id)).size, 50)
    for (const item of jsonFeed.items) {
      assert.match(item.date_published, RFC3339)
      assert.match(item.date_modified, RFC3339)
    }
  })

  test('hostile text stays text: escaped in content_html, verbatim in content_text', () => {
    const item = jsonFeed.items[0]
    assert.ok(item.content_text.startsWith('Tom & Jerry <script>'))
    assert.ok(!item.content_html.includes('<script>'))
    assert.ok(item.content_html.includes('&lt;script&gt;'))
    assert.ok(item.content_html.includes('&lt;b&gt;tags&lt;/b&gt;'))
  })

  test('a rating-only review still has content', () => {
    const item = jsonFeed.items.find((i: { id: string }) => i.id.endsWith('/silent'))
    assert.match(item.content_text, /Rated 5 out of 5 stars/)
  })
})

describe('Atom (RFC 4287)', () => {
  test('is well-formed XML (xmllint)', () => {
    const r = runTool('xmllint', ['--noout', writeTemp(s.dir, 'feed.xml', atom)])
    assert.equal(r.status, 0, r.output)
  })

  test('is valid against the RFC 4287 RELAX NG grammar (jing)', () => {
    const r = runTool('jing', ['-c', ATOM_RNC, writeTemp(s.dir, 'feed.xml', atom)])
    assert.equal(r.status, 0, r.output)
  })

  test('the validators do catch a broken feed (so the two checks above can fail)', () => {
    const broken = atom.replace('<updated>', '<updatedx>').replace('</updated>', '</updatedx>')
    assert.notEqual(runTool('jing', ['-c', ATOM_RNC, writeTemp(s.dir, 'broken.xml', broken)]).status, 0)
    assert.notEqual(runTool('xmllint', ['--noout', writeTemp(s.dir, 'bad.xml', atom.replace('&amp;', '&'))]).status, 0)
  })

  test('required elements, RFC 3339 dates with uppercase T and Z, unique absolute ids, author rule', () => {
    const entries = atom.split('<entry>').slice(1)
    assert.equal(entries.length, 50)
    const feedHead = atom.split('<entry>')[0]!
    for (const el of ['id', 'title', 'updated']) assert.equal(feedHead.match(new RegExp(`<${el}[ >]`, 'g'))?.length, 1, el)
    assert.match(feedHead, /<author><name>/)
    assert.ok(feedHead.includes(`<link rel="self" type="application/atom+xml" href="${s.baseUrl}/feed.xml"/>`))
    assert.ok(feedHead.includes(`<link rel="hub" href="${s.baseUrl}/api/websub/hub"/>`))
    const ids = entries.map((e) => e.match(/<id>([^<]+)<\/id>/)![1]!)
    assert.equal(new Set(ids).size, 50)
    for (const id of ids) assert.match(id, /^https?:\/\//)
    for (const d of atom.matchAll(/<(updated|published)>([^<]*)</g)) assert.match(d[2]!, RFC3339, d[0])
    for (const e of entries) {
      assert.equal(e.match(/<title /g)?.length, 1)
      assert.equal(e.match(/<updated>/g)?.length, 1)
      assert.ok(/<author>/.test(e) && /<content type="text">/.test(e))
    }
  })

  test('hostile text is escaped and XML-illegal characters are dropped', () => {
    const entry = atom.split('<entry>')[1]!
    assert.ok(entry.includes('Tom &amp; Jerry &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; &amp;amp;'), 'a literal &amp; stays literal')
    assert.ok(entry.includes('Eve &lt;evil&gt; &amp; &quot;co&quot;'))
    assert.ok(!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(atom))
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(atom), 'no lone high surrogate')
    assert.ok(entry.includes('🙂'), 'valid astral characters survive')
    assert.ok(atom.includes('Quiet Oak &amp; Sons &lt;Funeral Home&gt;'))
  })

  test('a real consumer parses it (Debian python3-feedparser)', () => {
    const r = runTool('/usr/bin/python3', [
      '-c',
      "import feedparser,sys; d=feedparser.parse(sys.argv[1]); print(d.version, d.bozo, len(d.entries)); sys.exit(0 if (not d.bozo and d.version=='atom10' and len(d.entries)==50) else 1)",
      writeTemp(s.dir, 'feed.xml', atom)
    ])
    assert.equal(r.status, 0, r.output)
  })
})
