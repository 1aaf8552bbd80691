import assert from 'node:assert/strict'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { after, before, describe, test } from 'node:test'
import { dataset, review } from './helpers/fixtures.js'
import { get, request } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'

let s: TestService
before(async () => {
  const reviews = Array.from({ length: 60 }, (_, i) =>
    review({ id: `r${String(i).padStart(3, '0')}`, date: `2024-0${1 + (i % 9)}-1${i % 10}`, text: `Review ${i}: Evie was kind and the direct cremation was handled well.` })
  )
  s = await startTestService({ data: dataset(reviews) })
})
after(() => s.stop())

/** Every GET resource of the read API and the pages, with its content type (and Vary, when it is not Accept-Encoding alone). */
const RESOURCES: [string, RegExp, string?][] = [
  ['/reviews.json', /^application\/json; charset=utf-8$/],
  ['/insights.json', /^application\/json; charset=utf-8$/],
  ['/api/feed.json', /^application\/feed\+json$/],
  ['/feed.xml', /^application\/atom\+xml$/],
  ['/openapi.json', /^application\/json; charset=utf-8$/],
  ['/api/reviews/search?rating=5&limit=50', /^application\/json; charset=utf-8$/],
  ['/api/reviews/since/2024-03-01', /^application\/json; charset=utf-8$/],
  ['/reviews/r001', /^application\/json; charset=utf-8$/, 'Accept, Accept-Encoding'],
  ['/', /^text\/html; charset=utf-8$/],
  ['/reviews?page=2', /^text\/html; charset=utf-8$/]
]

for (const [path, type, vary = 'Accept-Encoding'] of RESOURCES) {
  describe(`conditional GET, HEAD and compression: ${path}`, () => {
    const url = () => `${s.url}${path}`

    test('200 carries type, strong ETag, Last-Modified, Cache-Control, Vary and CORS', async () => {
      const res = await get(url())
      assert.equal(res.status, 200)
      assert.match(String(res.headers['content-type']), type)
      assert.match(String(res.headers.etag), /^"[^"]+"$/, 'strong ETag')
      assert.ok(!Number.isNaN(Date.parse(String(res.headers['last-modified']))))
      assert.equal(res.headers['cache-control'], 'public, max-age=60')
      assert.equal(res.headers.vary, vary)
      assert.equal(res.headers['access-control-allow-origin'], '*')
      assert.match(String(res.headers['access-control-expose-headers']), /ETag/)
      assert.equal(Number(res.headers['content-length']), res.body.length)
    })

    test('If-None-Match: exact, weak form, in a list, and * give 304 without a body', async () => {
      const { headers } = await get(url())
      for (const inm of [String(headers.etag), `W/${headers.etag}`, `"nope", ${headers.etag}`, '*']) {
        const res = await get(url(), { 'if-none-match': inm })
        assert.equal(res.status, 304, inm)
        assert.equal(res.body.length, 0)
        assert.equal(res.headers.etag, headers.etag)
        assert.equal(res.headers['last-modified'], headers['last-modified'])
        assert.equal(res.headers.vary, vary)
      }
      assert.equal((await get(url(), { 'if-none-match': '"something-else"' })).status, 200)
    })

    test('Cache-Control and Pragma in the request do not stop a 304: they speak to caches (what fetch() and a reload send)', async () => {
      const { headers } = await get(url())
      const etag = String(headers.etag)
      const cachings: Record<string, string>[] = [{ 'cache-control': 'no-cache', pragma: 'no-cache' }, { 'cache-control': 'max-age=0' }, { 'cache-control': 'no-store' }, { pragma: 'no-cache' }]
      for (const caching of cachings) {
        assert.equal((await get(url(), { ...caching, 'if-none-match': etag })).status, 304, JSON.stringify(caching))
        assert.equal((await get(url(), { ...caching, 'if-modified-since': String(headers['last-modified']) })).status, 304, JSON.stringify(caching))
        assert.equal((await get(url(), { ...caching, 'if-match': '"other"' })).status, 412, JSON.stringify(caching))
      }
    })

    test('If-Modified-Since: same or later gives 304, earlier or unparsable gives 200', async () => {
      const lm = String((await get(url())).headers['last-modified'])
      const at = (ms: number) => new Date(Date.parse(lm) + ms).toUTCString()
      assert.equal((await get(url(), { 'if-modified-since': lm })).status, 304)
      assert.equal((await get(url(), { 'if-modified-since': at(3600_000) })).status, 304)
      assert.equal((await get(url(), { 'if-modified-since': at(-1000) })).status, 200)
      assert.equal((await get(url(), { 'if-modified-since': 'not a date' })).status, 200)
      // Not HTTP-dates, though JavaScript's Date.parse reads a far future into each (RFC 9110 5.6.7, 13.1.3).
      for (const notHttpDate of ['2099', '2099-01-01', 'Thu Jan 01 2099 00:00:00 GMT+0000']) {
        assert.equal((await get(url(), { 'if-modified-since': notHttpDate })).status, 200, notHttpDate)
      }
    })

    test('If-None-Match takes precedence over If-Modified-Since', async () => {
      const { headers } = await get(url())
      const lm = String(headers['last-modified'])
      const old = new Date(Date.parse(lm) - 86400_000).toUTCString()
      assert.equal((await get(url(), { 'if-none-match': '"other"', 'if-modified-since': lm })).status, 200)
      assert.equal((await get(url(), { 'if-none-match': String(headers.etag), 'if-modified-since': old })).status, 304)
    })

    test('HEAD has the GET headers and no body; conditional HEAD gives 304', async () => {
      for (const enc of ['', 'gzip', 'br']) {
        const h: Record<string, string> = enc ? { 'accept-encoding': enc } : {}
        const g = await get(url(), h)
        const res = await request('HEAD', url(), h)
        assert.equal(res.status, 200)
        assert.equal(res.body.length, 0)
        for (const k of ['content-type', 'content-length', 'content-encoding', 'etag', 'last-modified', 'cache-control', 'vary', 'link']) {
          assert.equal(res.headers[k], g.headers[k], `${k} (${enc || 'identity'})`)
        }
        assert.equal((await request('HEAD', url(), { ...h, 'if-none-match': String(g.headers.etag) })).status, 304)
      }
    })

    test('gzip and brotli decode to the identity bytes, each with its own ETag', async () => {
      const plain = await get(url())
      const gz = await get(url(), { 'accept-encoding': 'gzip' })
      const br = await get(url(), { 'accept-encoding': 'br' })
      if (plain.body.length < 512) {
        // Too small to gain from compression: identity bytes whatever the client accepts.
        for (const res of [gz, br]) {
          assert.equal(res.headers['content-encoding'], undefined)
          assert.deepEqual(res.body, plain.body)
        }
        return
      }
      assert.equal(gz.headers['content-encoding'], 'gzip')
      assert.equal(br.headers['content-encoding'], 'br')
      assert.deepEqual(gunzipSync(gz.body), plain.body)
      assert.deepEqual(brotliDecompressSync(br.body), plain.body)
      assert.equal(new Set([plain.headers.etag, gz.headers.etag, br.headers.etag]).size, 3)
      // A tag of the gzip variant does not validate the identity variant.
      assert.equal((await get(url(), { 'if-none-match': String(gz.headers.etag) })).status, 200)
      assert.equal((await get(url(), { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) })).status, 304)
    })
  })
}

describe('content negotiation of encodings', () => {
  const enc = async (ae: string) => (await get(`${s.url}/reviews.json`, { 'accept-encoding': ae })).headers['content-encoding']
  test('brotli is preferred, q-values are honoured, unknown codings fall back to identity', async () => {
    assert.equal(await enc('gzip, deflate, br'), 'br')
    assert.equal(await enc('br;q=0.5, gzip;q=1'), 'gzip')
    assert.equal(await enc('deflate'), undefined)
    assert.equal(await enc('identity'), undefined)
    assert.equal(await enc('br;q=0, gzip;q=0'), undefined)
  })
})

describe('WebSub discovery on the three topics', () => {
  for (const [path, topic] of [['/reviews.json', '/reviews.json'], ['/api/feed.json', '/api/feed.json'], ['/feed.xml', '/feed.xml']]) {
    test(`${path} links the hub and itself`, async () => {
      for (const method of ['GET', 'HEAD']) {
        const res = await request(method, `${s.url}${path}`)
        assert.equal(res.headers.link, `<${s.baseUrl}/api/websub/hub>; rel="hub", <${s.baseUrl}${topic}>; rel="self"`)
      }
    })
  }
  test('non-topic resources carry no Link header', async () => {
    assert.equal((await get(`${s.url}/api/reviews/search`)).headers.link, undefined)
  })
})

describe('CORS', () => {
  test('preflight for a conditional GET is allowed', async () => {
    const res = await request('OPTIONS', `${s.url}/api/reviews/search?rating=5`, {
      origin: 'https://example.org',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'if-none-match'
    })
    assert.equal(res.status, 204)
    assert.equal(res.headers['access-control-allow-origin'], '*')
    assert.match(String(res.headers['access-control-allow-methods']), /GET/)
    for (const field of ['If-None-Match', 'If-Modified-Since', 'If-Match', 'If-Unmodified-Since', 'Cache-Control', 'Pragma']) {
      assert.ok(String(res.headers['access-control-allow-headers']).split(', ').includes(field), field)
    }
  })
  test('errors carry CORS too', async () => {
    for (const path of ['/api/reviews/search?rating=9', '/missing']) {
      assert.equal((await get(`${s.url}${path}`)).headers['access-control-allow-origin'], '*')
    }
  })
})

describe('errors are JSON', () => {
  test('unknown path -> 404 not_found', async () => {
    const res = await get(`${s.url}/nothing/here?x=1`)
    assert.equal(res.status, 404)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assert.deepEqual(Object.keys(res.json()), ['error', 'message'])
    assert.equal(res.json().error, 'not_found')
  })
  test('unsupported method on a resource -> 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await request(method, `${s.url}/reviews.json`)
      assert.equal(res.status, 405, method)
      assert.equal(res.json().error, 'method_not_allowed')
      assert.deepEqual(String(res.headers.allow).split(', ').sort(), ['GET', 'HEAD', 'OPTIONS'])
    }
    assert.equal((await request('DELETE', `${s.url}/reviews/r001`)).status, 405)
  })
  test('an oversized body -> 413 payload_too_large', async () => {
    const res = await request('POST', `${s.url}/reviews.json`, { 'content-type': 'application/json' }, Buffer.alloc(2 * 1024 * 1024, 32))
    assert.equal(res.status, 413)
    assert.equal(res.json().error, 'payload_too_large')
  })
})
