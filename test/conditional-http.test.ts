import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, afterEach, before, beforeEach, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { Agent, cacheStores, fetch as undiciFetch, interceptors, type Dispatcher } from 'undici'
import { importFile } from '../src/ingest/index.js'
import { dataset, review, writeJson } from './helpers/fixtures.js'
import { getRoutes } from './helpers/routes.js'
import { startTestService, type TestService } from './helpers/service.js'

/**
 * Conditional requests as real clients make them. The Fetch standard has every fetch() with a conditional header
 * also send `Cache-Control: no-cache` and `Pragma: no-cache`, and a browser's reload sends `Cache-Control: max-age=0`;
 * both are instructions to caches, and the origin still evaluates the preconditions (RFC 9110 section 13.2.2).
 */

const reviews = Array.from({ length: 30 }, (_, i) =>
  review({ id: `c${String(i).padStart(2, '0')}`, date: `2024-0${1 + (i % 9)}-1${i % 10}`, text: `Review ${i}: Evie was kind and the service was calm.` })
)

let s: TestService
before(async () => {
  s = await startTestService({ data: dataset(reviews) })
})
after(() => s.stop())

/** Values for the routes' parameters. */
const PARAMETERS: Record<string, string> = { ':id': 'c01', ':date': '2024-03-01' }

/** GET routes without validators, each with the reason; every other GET route must answer conditional requests. */
const WITHOUT_VALIDATORS: Record<string, string> = {
  '/api/websub/stats': 'live counters, sent with Cache-Control: no-store',
  '/mcp': "the MCP server's event stream",
  '/sitemaps/:n.xml': 'exists only past 50,000 URLs; served by the same pageRoute as /sitemap.xml'
}

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

function withValidators(): string[] {
  return getRoutes(s.service.app)
    .filter((route) => !(route in WITHOUT_VALIDATORS))
    .map((route) => route.replace(/:\w+/g, (p) => PARAMETERS[p] ?? assert.fail(`no example value for ${p} in ${route}`)))
}

describe('every resource with validators, revalidated by fetch()', () => {
  test('the routes come from the app, and each exception is still a route', () => {
    const routes = getRoutes(s.service.app)
    assert.ok(routes.includes('/reviews.json') && routes.includes('/') && routes.includes('/api/reviews/since/:date'), routes.join(' '))
    for (const route of Object.keys(WITHOUT_VALIDATORS)) assert.ok(routes.includes(route), `${route} is no longer a route`)
    assert.ok(withValidators().length >= 14)
  })

  test("Node's fetch sends Cache-Control: no-cache and Pragma: no-cache with a conditional request", async () => {
    const seen = await headersFetchSends({ 'if-none-match': '"x"' })
    assert.equal(seen['cache-control'], 'no-cache')
    assert.equal(seen.pragma, 'no-cache')
    assert.equal((await headersFetchSends({ 'if-none-match': '"x"' }, 'no-cache'))['cache-control'], 'max-age=0', 'cache: "no-cache" is a reload')
  })

  for (const accept of ['*/*', BROWSER_ACCEPT]) {
    test(`304 to If-None-Match and If-Modified-Since, whatever Cache-Control and Pragma say (Accept: ${accept.slice(0, 9)})`, async () => {
      for (const path of withValidators()) {
        const url = `${s.url}${path}`
        const first = await fetch(url, { headers: { accept } })
        assert.equal(first.status, 200, path)
        await first.arrayBuffer()
        const etag = first.headers.get('etag')!
        const lastModified = first.headers.get('last-modified')!
        assert.match(etag, /^"[^"]+"$/, path)
        const revalidations: [string, RequestInit][] = [
          ['If-None-Match (fetch adds no-cache)', { headers: { accept, 'if-none-match': etag } }],
          ['If-None-Match, no-cache spelled out', { headers: { accept, 'if-none-match': etag, 'cache-control': 'no-cache', pragma: 'no-cache' } }],
          ['If-None-Match, reload (max-age=0)', { cache: 'no-cache', headers: { accept, 'if-none-match': etag } }],
          ['If-None-Match, weak, in a list', { headers: { accept, 'if-none-match': `"other", W/${etag}` } }],
          ['If-Modified-Since (fetch adds no-cache)', { headers: { accept, 'if-modified-since': lastModified } }],
          ['HEAD with If-None-Match', { method: 'HEAD', headers: { accept, 'if-none-match': etag } }]
        ]
        for (const [name, init] of revalidations) {
          const res = await fetch(url, init)
          assert.equal(res.status, 304, `${path}: ${name}`)
          assert.equal(res.headers.get('etag'), etag, `${path}: ${name}`)
          assert.equal((await res.arrayBuffer()).byteLength, 0)
        }
      }
    })
  }

  test('If-Match and If-Unmodified-Since: 200 while they hold, 412 as JSON when they do not', async () => {
    for (const path of withValidators()) {
      const url = `${s.url}${path}`
      const first = await fetch(url)
      await first.arrayBuffer()
      const etag = first.headers.get('etag')!
      const before = new Date(Date.parse(first.headers.get('last-modified')!) - 1000).toUTCString()
      const holds = await fetch(url, { headers: { 'if-match': etag, 'if-unmodified-since': first.headers.get('last-modified')! } })
      assert.equal(holds.status, 200, path)
      await holds.arrayBuffer()
      const failing: Record<string, string>[] = [{ 'if-match': '"not-this"' }, { 'if-match': `W/${etag}` }, { 'if-unmodified-since': before }, { 'if-match': '"not-this"', 'if-none-match': etag }]
      for (const headers of failing) {
        const res = await fetch(url, { headers })
        assert.equal(res.status, 412, `${path} ${JSON.stringify(headers)}`)
        assert.equal(res.headers.get('cache-control'), 'no-store')
        assert.equal(((await res.json()) as { error: string }).error, 'precondition_failed')
      }
    }
  })

  test('a changed resource answers 200 with its new body to the old ETag', async () => {
    const url = `${s.url}/reviews.json`
    const old = await fetch(url)
    const oldBody = await old.text()
    await importReview('c99')
    const res = await fetch(url, { headers: { 'if-none-match': old.headers.get('etag')! } })
    assert.equal(res.status, 200)
    assert.notEqual(await res.text(), oldBody)
  })
})

describe("undici's HTTP cache", () => {
  // Long enough for an import to reach the running service (a poll of 100 ms plus a snapshot build) on a busy machine.
  const FRESH_MS = 1500
  const path = '/api/feed.json'
  let client: ReturnType<typeof cachingClient>
  /** A GET through the cache: what the caller gets. */
  const get = async (init: Parameters<typeof undiciFetch>[1] = {}) => {
    const res = await undiciFetch(`${s.url}${path}`, { ...init, dispatcher: client.dispatcher })
    return { status: res.status, body: await res.text() }
  }
  // A new cache for each test: undici (7.30) drops an entry after a 304 that carries Cache-Control, which RFC 9110
  // section 15.4.5 has us send (nodejs/undici#5505), so the request after a revalidation is a full one.
  beforeEach(() => {
    client = cachingClient(path, FRESH_MS)
  })
  afterEach(() => client.close())

  test('serves a stored response while fresh, and revalidates it with a 304 once stale', async () => {
    const first = await get()
    assert.deepEqual(client.wire.splice(0), [{ status: 200, conditional: false }])
    assert.deepEqual(await get(), first)
    assert.deepEqual(client.wire.splice(0), [], 'fresh: served without asking')
    await sleep(FRESH_MS + 50)
    assert.deepEqual(await get(), first)
    assert.deepEqual(client.wire.splice(0), [{ status: 304, conditional: true }], 'stale: revalidated, the stored body served')
  })

  test('a request with Cache-Control: no-cache is revalidated, and the 304 serves the stored body', async () => {
    const first = await get()
    client.wire.splice(0)
    assert.deepEqual(await get({ headers: { 'cache-control': 'no-cache' } }), first)
    assert.deepEqual(client.wire.splice(0), [{ status: 304, conditional: true, cacheControl: 'no-cache' }])
  })

  test('picks up new content after an import once the stored response is stale', async () => {
    const first = await get()
    await importReview('c98')
    assert.deepEqual(await get(), first, 'still fresh: the stored response, though the data has changed')
    await sleep(FRESH_MS + 50)
    client.wire.splice(0)
    const changed = await get()
    assert.match(changed.body, /c98/)
    assert.deepEqual(client.wire.splice(0), [{ status: 200, conditional: true }], 'stale: revalidated, the new body served')
    assert.deepEqual(await get(), changed)
    assert.deepEqual(client.wire.splice(0), [], 'and stored')
  })
})

/** What one conditional fetch() puts on the wire, seen by a server that only echoes it. */
async function headersFetchSends(headers: Record<string, string>, cache?: RequestCache): Promise<IncomingHttpHeaders> {
  const echo = createServer((req, res) => res.end(JSON.stringify(req.headers)))
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
  try {
    const res = await fetch(`http://127.0.0.1:${(echo.address() as AddressInfo).port}/`, { headers, ...(cache ? { cache } : {}) })
    return (await res.json()) as IncomingHttpHeaders
  } finally {
    echo.close()
  }
}

interface WireExchange {
  status: number
  conditional: boolean
  cacheControl?: string
}

/**
 * undici's cache interceptor on an Agent, with a record of the exchanges that reached this service. Its store keeps
 * entries fresh for `freshMs` instead of the 60 s the responses allow, so "stale" happens in test time; everything
 * else (when to revalidate, with which validators, what to do with 200 or 304) is the interceptor's own.
 */
function cachingClient(path: string, freshMs: number) {
  class ShortLivedStore extends cacheStores.MemoryCacheStore {
    override createWriteStream(...[key, value]: Parameters<InstanceType<typeof cacheStores.MemoryCacheStore>['createWriteStream']>) {
      return super.createWriteStream(key, { ...value, staleAt: Math.min(value.staleAt, Date.now() + freshMs) })
    }
  }
  const wire: WireExchange[] = []
  // Between the cache and the connection: what the cache sends to the server and what comes back. (The server's own
  // 'request' events would miss the answers its front door gives without node:http.)
  const onWire: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    if (opts.path !== path) return dispatch(opts, handler)
    const sent = fieldsOf(opts.headers)
    return dispatch(opts, {
      ...handler,
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onResponseStart: (controller, status, headers, message) => {
        const exchange: WireExchange = { status, conditional: sent['if-none-match'] !== undefined }
        if (sent['cache-control']) exchange.cacheControl = sent['cache-control']
        wire.push(exchange)
        return handler.onResponseStart?.(controller, status, headers, message)
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, err) => handler.onResponseError?.(controller, err)
    })
  }
  const agent = new Agent()
  return {
    dispatcher: agent.compose(onWire, interceptors.cache({ store: new ShortLivedStore() })),
    wire,
    close: () => agent.close()
  }
}

/** Request fields as undici's dispatch options give them here (fetch: a flat list; the cache: an object), by lower-case name. */
function fieldsOf(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const list = Array.isArray(headers) ? (headers as string[]) : Object.entries(headers ?? {}).flat()
  const out: Record<string, string> = {}
  for (let i = 0; i < list.length; i += 2) if (list[i + 1] !== undefined) out[String(list[i]).toLowerCase()] = String(list[i + 1])
  return out
}

/** Adds one review through the ingest path; resolves when the running service serves the new data version. */
async function importReview(id: string): Promise<void> {
  const version = s.service.holder.current.version
  const file = writeJson(s.dir, `${id}.json`, dataset([review({ id, date: '2024-09-30', text: `Review ${id}: added later.` })]))
  await importFile(s.service.store, file, { replace: false })
  while (s.service.holder.current.version === version) await sleep(20)
}
