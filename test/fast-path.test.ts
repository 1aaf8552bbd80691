import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { freePort, get } from './helpers/http.js'
import { scrape, valueOf } from './helpers/metrics.js'
import { exchange, requestHead, responses, withoutPerResponseValues } from './helpers/raw-http.js'
import { startTestService, type TestService } from './helpers/service.js'

/**
 * The front door answers the routes that depend on their path alone (datasets, feeds, the OpenAPI document, pages
 * without parameters) itself, before node:http (src/http/fast-path.ts). Whatever it answers must be byte for byte what
 * node:http and the app answer, but for the Date and the request id; and whatever it does not answer must reach them
 * intact, wherever in a connection it comes.
 *
 * node:http's answer is had by adding a field the fast path never takes and no route reads: a value with a byte past
 * ASCII (obs-text, which RFC 9112 lets a server accept and node:http does), so the whole connection goes to node:http.
 */
const TO_NODE_HTTP = 'X-Via: caf\u00e9'

let svc: TestService
let metricsPort: number

before(async () => {
  metricsPort = await freePort()
  svc = await startTestService({ env: { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' } })
})
after(() => svc.stop())

const PATH_ROUTES = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml', '/openapi.json', '/', '/developers', '/developers/api', '/developers/api/init.js', '/llms.txt', '/robots.txt', '/sitemap.xml']
const ENCODINGS = [[], ['Accept-Encoding: gzip'], ['Accept-Encoding: br;q=1, gzip;q=0.5'], ['Accept-Encoding: gzip;q=0, identity']]
const closing = (path: string) => requestHead(`GET ${path} HTTP/1.1`, 'Host: reviews.test', 'Connection: close')

/** The answers to `requests` (then a closing one) on one connection, with the per-response values blanked. */
async function answers(requests: string[], methods: string[]): Promise<string> {
  const bytes = await exchange(svc.url, [requests.join('') + closing('/robots.txt')])
  assert.equal(responses(bytes, [...methods, 'GET']).length, methods.length + 1, 'every request answered')
  return withoutPerResponseValues(bytes)
}

test('every route that depends on its path alone gets the same bytes from the fast path as from node:http and the app', async () => {
  for (const path of PATH_ROUTES) {
    for (const encoding of ENCODINGS) {
      const first = await get(`${svc.url}${path}`, Object.fromEntries(encoding.map((f) => f.split(': ') as [string, string])))
      assert.equal(first.status, 200, path)
      const conditions = [[], [`If-None-Match: ${first.headers.etag}`], [`If-Modified-Since: ${first.headers['last-modified']}`], ['If-None-Match: "other"'], ['If-Match: "other"'], [`If-Match: ${first.headers.etag}`]]
      const requests = ['GET', 'HEAD'].flatMap((method) => conditions.map((c) => ({ method, fields: ['Host: reviews.test', ...encoding, ...c] })))
      const fast = await answers(requests.map((r) => requestHead(`${r.method} ${path} HTTP/1.1`, ...r.fields)), requests.map((r) => r.method))
      const slow = await answers(requests.map((r) => requestHead(`${r.method} ${path} HTTP/1.1`, ...r.fields, TO_NODE_HTTP)), requests.map((r) => r.method))
      assert.equal(fast, slow, `${path} ${encoding.join()}`)
      const statuses = responses(Buffer.from(fast, 'latin1'), requests.map((r) => r.method)).map((r) => r.status)
      assert.deepEqual(statuses.slice(0, 6), [200, 304, 304, 200, 412, 200], `${path}: the conditions meant what they say`)
    }
  }
})

/** Requests of every kind: for the fast path, for the app, conditional, HEAD, with a body, malformed. */
const POOL = [
  requestHead('GET /reviews.json HTTP/1.1', 'Host: reviews.test', 'Accept-Encoding: gzip'),
  requestHead('HEAD /feed.xml HTTP/1.1', 'Host: reviews.test'),
  requestHead('GET /api/feed.json HTTP/1.1', 'Host: reviews.test', 'If-Modified-Since: Sun, 06 Nov 2050 08:49:37 GMT'),
  requestHead('GET /insights.json HTTP/1.1', 'Host: reviews.test', 'X-Request-Id: fixed-id-1', 'Accept-Encoding: br'),
  requestHead('GET /reviews.json?pretty=1 HTTP/1.1', 'Host: reviews.test'),
  requestHead('GET /api/reviews/search?query=kind&limit=2 HTTP/1.1', 'Host: reviews.test', 'Accept-Encoding: gzip'),
  requestHead('GET /nowhere HTTP/1.1', 'Host: reviews.test'),
  requestHead('OPTIONS /reviews.json HTTP/1.1', 'Host: reviews.test', 'Origin: https://a.example', 'Access-Control-Request-Method: GET'),
  `${requestHead('POST /mcp HTTP/1.1', 'Host: reviews.test', 'Content-Type: application/json', 'Accept: application/json, text/event-stream', 'Content-Length: 2')}{}`,
  requestHead('GET /robots.txt HTTP/1.1', 'Host: reviews.test', 'Connection: keep-alive')
]
/** Requests node:http refuses with 400 (a smuggling attempt, garbage), closing the connection. */
const MALFORMED = ['GET /reviews.json HTTP/1.1\r\nHost: reviews.test\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'NONSENSE\r\n\r\n']

/** Splits `bytes` at the given fractions of its length (each part a separate write). */
function cut(bytes: string, at: number[]): string[] {
  const points = [...new Set(at.map((f) => Math.floor(f * bytes.length)))].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b)
  return [0, ...points].map((p, i) => bytes.slice(p, points[i] ?? bytes.length))
}

test('any sequence of requests, cut anywhere across reads, gets what node:http alone answers to it', async () => {
  const methodOf = (r: string) => r.split(' ', 1)[0]!
  await fc.assert(
    fc.asyncProperty(
      fc.option(fc.constantFrom(...MALFORMED), { nil: undefined }),
      fc.array(fc.integer({ min: 0, max: POOL.length - 1 }), { minLength: 1, maxLength: 8 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
      async (malformed, picks, cuts) => {
        // A malformed request comes first or not at all: node:http writes its 400 only when no answer is in flight on
        // the connection, so behind pipelined requests its own answer depends on its timing. The next test covers it.
        const requests = [...(malformed ? [malformed] : []), ...picks.map((i) => POOL[i]!), closing('/robots.txt')]
        const fast = await exchange(svc.url, cut(requests.join(''), cuts), { gapMs: 5 })
        // The reference: the first request carries the field that sends the whole connection to node:http.
        const slow = await exchange(svc.url, [requests[0]!.replace('\r\n', `\r\n${TO_NODE_HTTP}\r\n`) + requests.slice(1).join('')])
        assert.equal(withoutPerResponseValues(fast), withoutPerResponseValues(slow))
        assert.equal(responses(fast, requests.map(methodOf)).length, malformed ? 1 : requests.length, 'every request answered (a malformed one first: only its 400)')
      }
    ),
    { numRuns: 60 }
  )
})

test('a malformed request after answered ones gets the 400 node:http gives when it answered them itself, and the connection closes', async () => {
  const ok = requestHead('GET /reviews.json HTTP/1.1', 'Host: reviews.test')
  for (const malformed of MALFORMED) {
    const fast = responses(await exchange(svc.url, [ok + ok + malformed + ok]), ['GET', 'GET', 'GET', 'GET'])
    const slow = responses(await exchange(svc.url, [ok.replace('\r\n', `\r\n${TO_NODE_HTTP}\r\n`), ok, malformed, ok], { gapMs: 100 }), ['GET', 'GET', 'GET', 'GET'])
    assert.deepEqual(fast.map((r) => r.status), [200, 200, 400])
    assert.deepEqual(slow.map((r) => r.status), [200, 200, 400])
  }
})

test('answers of the fast path are counted in the request metrics like any other, HEAD as HEAD', async () => {
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
  const first = await get(`${svc.url}/reviews.json`, { 'Accept-Encoding': 'gzip' })
  const count = async (method: string, status: string) => valueOf((await scrape(metricsUrl)).samples, 'http_requests_total', { route: '/reviews.json', method, status })
  const before = { get304: await count('GET', '304'), head200: await count('HEAD', '200') }
  const conditional = requestHead('GET /reviews.json HTTP/1.1', 'Host: reviews.test', 'Accept-Encoding: gzip', `If-None-Match: ${first.headers.etag}`)
  const head = requestHead('HEAD /reviews.json HTTP/1.1', 'Host: reviews.test')
  await answers([conditional, conditional, conditional, head], ['GET', 'GET', 'GET', 'HEAD'])
  assert.equal(await count('GET', '304'), before.get304 + 3)
  assert.equal(await count('HEAD', '200'), before.head200 + 1)
})

test('the request id a client sends is kept when it looks like one, else one is made', async () => {
  const bytes = await exchange(svc.url, [
    requestHead('GET /feed.xml HTTP/1.1', 'Host: reviews.test', 'X-Request-Id: trace-42') + requestHead('GET /feed.xml HTTP/1.1', 'Host: reviews.test', 'X-Request-Id: not an id!') + closing('/feed.xml')
  ])
  const ids = responses(bytes, ['GET', 'GET', 'GET']).map((r) => r.fields.find((f) => f.startsWith('x-request-id: '))!.slice(14))
  assert.equal(ids[0], 'trace-42')
  assert.match(ids[1]!, /^[0-9a-f]{12}-[0-9a-z]+$/)
  assert.notEqual(ids[1], ids[2])
})

test('a client that sends faster than it reads gets every answer, in order', async () => {
  const request = requestHead('GET /reviews.json HTTP/1.1', 'Host: reviews.test')
  const n = 200
  const bytes = await exchange(svc.url, [request.repeat(n) + closing('/robots.txt')], { timeoutMs: 30_000 })
  const all = responses(bytes, Array(n + 1).fill('GET'))
  assert.equal(all.length, n + 1)
  assert.ok(all.slice(0, n).every((r) => r.status === 200 && r.body.length === all[0]!.body.length))
})
