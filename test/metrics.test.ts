import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { dataset, review, writeJson } from './helpers/fixtures.js'
import { freePort, get, request } from './helpers/http.js'
import { MCP_HEADERS, openSession, post } from './helpers/mcp.js'
import { scrape, seriesCount, valueOf } from './helpers/metrics.js'
import { runCli } from './helpers/processes.js'
import { startTestService, type TestService } from './helpers/service.js'
import { hubRequest, makeTestPki, sleep, Subscriber, waitFor, type TestPki } from './helpers/websub.js'

/**
 * Every metric family moved by real traffic (HTTP reads, an import by the CLI, WebSub to an HTTPS subscriber, MCP
 * tool calls and notifications), read from the /metrics listener as Prometheus would; and label sets that stay
 * bounded whatever paths, methods, tool names and callback hosts clients send.
 */
let dir: string
let pki: TestPki
let sub: Subscriber
let svc: TestService
let metricsUrl: string
let changes = 0

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'metrics-'))
  pki = makeTestPki(dir)
  sub = await new Subscriber().start(pki)
  const port = await freePort()
  svc = await startTestService({
    data: dataset([review({ id: 'm0', date: '2024-01-01', text: 'Evie was kind.' })]),
    env: { METRICS_PORT: String(port), WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true', WEBSUB_EXTRA_CA_FILE: pki.caFile, WEBSUB_RATE_PER_MIN: '10000' }
  })
  metricsUrl = `http://127.0.0.1:${port}/metrics`
})
after(async () => {
  await svc.stop()
  await sub.stop()
  rmSync(dir, { recursive: true, force: true })
})

const samples = async () => (await scrape(metricsUrl)).samples

/** Imports one more review with the CLI, as an operator would, and waits until the service serves it. */
async function importChange(): Promise<void> {
  const before = svc.service.holder.current.version
  const n = ++changes
  const r = runCli(['import', writeJson(dir, `change-${n}.json`, dataset([review({ id: `c${n}`, date: '2024-06-01', text: `Change ${n}.` })]))], { DATABASE_URL: svc.databaseUrl })
  assert.equal(r.status, 0, r.stderr)
  await waitFor('the new version', () => svc.service.holder.current.version > before)
}

describe('the listener', () => {
  test('/metrics in the Prometheus text format on its own port; nothing else there; not on the public port', async () => {
    const r = await scrape(metricsUrl)
    assert.match(r.contentType, /^text\/plain; version=0\.0\.4/)
    assert.ok(valueOf(r.samples, 'process_resident_memory_bytes') > 0, 'the runtime defaults')
    assert.equal((await get(metricsUrl.replace('/metrics', '/'))).status, 404)
    assert.equal((await request('POST', metricsUrl)).status, 404)
    assert.equal((await get(`${svc.url}/metrics`)).status, 404)
  })
})

describe('each family moves with real traffic', () => {
  test('HTTP: requests by route template, method and status, and the duration histogram', async () => {
    const before = await samples()
    for (let i = 0; i < 7; i++) assert.equal((await get(`${svc.url}/reviews/m0`)).status, 200)
    assert.equal((await get(`${svc.url}/reviews/no-such-review`)).status, 404)
    const after = await samples()
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels)
    assert.equal(delta('http_requests_total', { route: '/reviews/:id', method: 'GET', status: '200' }), 7)
    assert.equal(delta('http_requests_total', { route: '/reviews/:id', method: 'GET', status: '404' }), 1)
    assert.equal(delta('http_request_duration_seconds_count', { route: '/reviews/:id', method: 'GET' }), 8)
    assert.ok(delta('http_request_duration_seconds_sum', { route: '/reviews/:id', method: 'GET' }) > 0)
  })

  test('prebuilt bodies, which record their own answers, count every outcome: 200, 304, HEAD, 412, 400, and a body built on first request', async () => {
    const before = await samples()
    const etag = String((await get(`${svc.url}/reviews.json`)).headers.etag)
    assert.equal((await get(`${svc.url}/reviews.json`, { 'if-none-match': etag })).status, 304)
    assert.equal((await request('HEAD', `${svc.url}/reviews.json`)).status, 200)
    assert.equal((await get(`${svc.url}/reviews.json`, { 'if-match': '"other"' })).status, 412)
    assert.equal((await get(`${svc.url}/api/reviews/search?min_rating=9`)).status, 400)
    assert.equal((await get(`${svc.url}/developers/api/init.js`)).status, 200)
    const after = await samples()
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels)
    const counted = (route: string, method: string, status: string) => delta('http_requests_total', { route, method, status })
    assert.deepEqual(
      [counted('/reviews.json', 'GET', '200'), counted('/reviews.json', 'GET', '304'), counted('/reviews.json', 'HEAD', '200'), counted('/reviews.json', 'GET', '412')],
      [1, 1, 1, 1]
    )
    assert.equal(counted('/api/reviews/search', 'GET', '400'), 1)
    assert.equal(counted('/developers/api/init.js', 'GET', '200'), 1)
    assert.equal(delta('http_request_duration_seconds_count', { route: '/reviews.json', method: 'GET' }), 3)
    assert.ok(delta('http_request_duration_seconds_sum', { route: '/reviews.json', method: 'GET' }) > 0)
  })

  test('an import: runs counted by outcome, the data version and age, a snapshot build, store operations timed', async () => {
    const before = await samples()
    await importChange()
    const bad = runCli(['import', writeJson(dir, 'bad.json', { reviews: [{ id: 'x' }] })], { DATABASE_URL: svc.databaseUrl })
    assert.equal(bad.status, 1)
    const after = await samples()
    assert.equal(valueOf(after, 'reviews_imports_total', { outcome: 'changed' }) - valueOf(before, 'reviews_imports_total', { outcome: 'changed' }), 1)
    assert.equal(valueOf(after, 'reviews_imports_total', { outcome: 'failed' }) - valueOf(before, 'reviews_imports_total', { outcome: 'failed' }), 1)
    assert.equal(valueOf(after, 'reviews_data_version'), svc.service.holder.current.version)
    assert.ok(valueOf(after, 'reviews_data_age_seconds') < 30)
    assert.equal(valueOf(after, 'reviews_snapshot_build_duration_seconds_count') - valueOf(before, 'reviews_snapshot_build_duration_seconds_count'), 1)
    assert.ok(valueOf(after, 'reviews_store_query_duration_seconds_count', { operation: 'readPublished' }) > valueOf(before, 'reviews_store_query_duration_seconds_count', { operation: 'readPublished' }))
    assert.equal(valueOf(after, 'reviews_snapshot_build_failures_total'), 0)
  })

  test('WebSub: verifications, deliveries by topic and outcome, subscriptions by state, owed, fan-out time', async () => {
    const topic = `${svc.baseUrl}/api/feed.json`
    const paths = ['/metrics/ok-1', '/metrics/ok-2', '/metrics/failing']
    for (const path of paths) assert.equal((await hubRequest(`${svc.url}/api/websub/hub`, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': `${sub.url}${path}` })).status, 202)
    await waitFor('three verifications', async () => valueOf(await samples(), 'websub_verifications_total', { outcome: 'verified' }) === 3)
    sub.onDeliver = (d) => (d.path === '/metrics/failing' ? { status: 500 } : undefined)
    try {
      await importChange()
      await waitFor('two deliveries and a failure', async () => {
        const s = await samples()
        return valueOf(s, 'websub_deliveries_total', { topic: '/api/feed.json', outcome: 'success' }) === 2 && valueOf(s, 'websub_deliveries_total', { topic: '/api/feed.json', outcome: 'failure' }) >= 1
      })
      await sleep(300)
      const s = await samples()
      assert.equal(valueOf(s, 'websub_subscriptions', { topic: '/api/feed.json', state: 'active' }), 3)
      assert.equal(valueOf(s, 'websub_subscriptions', { topic: '/api/feed.json', state: 'owed' }), 1, 'the failing one still owes the version')
      assert.equal(valueOf(s, 'websub_subscriptions', { topic: '/api/feed.json', state: 'retrying' }), 1)
      assert.equal(valueOf(s, 'websub_owed_deliveries'), 1)
      assert.ok(Number.isNaN(valueOf(s, 'websub_fanout_seconds')), 'no fan-out time while a delivery is owed')
      await svc.service.store.subscriptions.unsubscribe(topic, `${sub.url}/metrics/failing`)
      // A scrape shares one store read for a quarter of a second.
      await waitFor('nothing owed', async () => valueOf(await samples(), 'websub_owed_deliveries') === 0, 2000)
      const done = await samples()
      const fanout = valueOf(done, 'websub_fanout_seconds')
      assert.ok(fanout > 0 && fanout < 30, `fan-out ${fanout} s`)
    } finally {
      sub.onDeliver = () => undefined
    }
  })

  test('MCP: sessions open, requests by method and outcome, tool calls by tool and outcome with durations, notifications', async () => {
    const before = await samples()
    const session = await openSession(svc.url)
    const call = (id: number, name: string) => post(svc.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: name === 'get_review' ? { id: 'nope' } : {} } }, { ...MCP_HEADERS, 'mcp-session-id': session })
    for (let id = 1; id <= 5; id++) assert.equal((await call(id, 'get_business')).status, 200)
    await call(6, 'get_review')
    await post(svc.url, { jsonrpc: '2.0', id: 7, method: 'no/such/method' }, { ...MCP_HEADERS, 'mcp-session-id': session })
    await post(svc.url, { jsonrpc: '2.0', id: 8, method: 'resources/subscribe', params: { uri: `${svc.baseUrl}/reviews.json` } }, { ...MCP_HEADERS, 'mcp-session-id': session })
    const stream = httpRequest(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session }, agent: false })
    stream.end()
    await new Promise((ok) => stream.once('response', ok))
    try {
      await importChange()
      await waitFor('the notifications', async () => valueOf(await samples(), 'mcp_notifications_sent_total', { type: 'resources/updated' }) - valueOf(before, 'mcp_notifications_sent_total', { type: 'resources/updated' }) === 1)
    } finally {
      stream.destroy()
    }
    const after = await samples()
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels)
    assert.equal(valueOf(after, 'mcp_sessions_open'), (await svc.service.store.sessions.count()))
    assert.ok(valueOf(after, 'mcp_sessions_open') >= 1)
    assert.equal(delta('mcp_tool_calls_total', { tool: 'get_business', outcome: 'ok' }), 5)
    assert.equal(delta('mcp_tool_calls_total', { tool: 'get_review', outcome: 'error' }), 1)
    assert.equal(delta('mcp_tool_call_duration_seconds_count', { tool: 'get_business' }), 5)
    assert.equal(delta('mcp_requests_total', { method: 'tools/call', outcome: 'result' }), 6, 'a tool error is a result')
    assert.equal(delta('mcp_requests_total', { method: 'other', outcome: 'error' }), 1)
    assert.equal(delta('mcp_requests_total', { method: 'initialize', outcome: 'result' }), 1)
    assert.equal(delta('mcp_notifications_sent_total', { type: 'message' }), 1)
  })
})

describe('bounded labels', () => {
  test('random paths, methods, MCP methods and tool names, and callback hosts add no series beyond the fixed sets', async () => {
    const session = await openSession(svc.url)
    const segment = fc.stringMatching(/^[a-zA-Z0-9._~-]{1,12}$/)
    const paths = fc.sample(fc.array(segment, { minLength: 1, maxLength: 4 }).map((p) => `/${p.join('/')}`), { seed: 15, numRuns: 150 })
    const words = fc.sample(fc.string({ minLength: 1, maxLength: 20 }), { seed: 16, numRuns: 60 })
    const hosts = fc.sample(fc.domain(), { seed: 17, numRuns: 40 })
    for (const path of paths) await request(['GET', 'DELETE', 'PATCH'][path.length % 3]!, `${svc.url}${path}?q=${encodeURIComponent(path)}`)
    for (const [i, word] of words.entries()) {
      const headers = { ...MCP_HEADERS, 'mcp-session-id': session }
      await post(svc.url, { jsonrpc: '2.0', id: i, method: word }, headers)
      await post(svc.url, { jsonrpc: '2.0', id: 1000 + i, method: 'tools/call', params: { name: word, arguments: {} } }, headers)
    }
    for (const host of hosts) await hubRequest(`${svc.url}/api/websub/hub`, { 'hub.mode': 'subscribe', 'hub.topic': `${svc.baseUrl}/feed.xml`, 'hub.callback': `https://${host}/cb?token=secret` })
    const s = await samples()
    const values = (name: string, label: string) => new Set(s.filter((x) => x.name === name).map((x) => x.labels[label]))
    const routes = values('http_requests_total', 'route')
    for (const path of paths) assert.ok(!routes.has(path), `${path} became a label`)
    assert.ok(routes.size <= 40, `routes: ${[...routes].join(', ')}`)
    for (const word of words) {
      assert.ok(!values('mcp_requests_total', 'method').has(word) || ['ping', 'initialize'].includes(word), `method ${word} became a label`)
      assert.ok(!values('mcp_tool_calls_total', 'tool').has(word), `tool ${word} became a label`)
    }
    const everyLabel = new Set(s.flatMap((x) => Object.values(x.labels)))
    for (const host of hosts) assert.ok(![...everyLabel].some((v) => v.includes(host)), `${host} became a label`)
    assert.ok(seriesCount(s, 'http_requests_total') <= routes.size * 7 * 8)
    assert.ok(seriesCount(s, 'mcp_requests_total') <= 13 * 2)
    assert.ok(seriesCount(s, 'mcp_tool_calls_total') <= 10 * 2)
  })
})

describe('request ids and access lines', () => {
  test('X-Request-Id: one that looks like an id is kept, anything else is replaced by a new unique one', async () => {
    assert.equal((await get(`${svc.url}/reviews.json`, { 'x-request-id': 'trace-0af7651916cd43dd' })).headers['x-request-id'], 'trace-0af7651916cd43dd')
    const made = new Set<string>()
    for (const bad of ['', 'has space', 'x'.repeat(129), 'semi;colon', '<script>']) {
      const id = String((await get(`${svc.url}/reviews.json`, { 'x-request-id': bad })).headers['x-request-id'])
      assert.notEqual(id, bad)
      assert.match(id, /^[A-Za-z0-9._:-]{1,128}$/)
      made.add(id)
    }
    made.add(String((await get(`${svc.url}/healthz`)).headers['x-request-id']))
    assert.equal(made.size, 6, 'every made id is new')
  })

  test('every kind of answer carries it: prebuilt bytes, a 304, a computed body, an error, the MCP endpoint and its refusals', async () => {
    const id = (n: number) => ({ 'x-request-id': `kind-${n}` })
    const etag = String((await get(`${svc.url}/feed.xml`)).headers.etag)
    const session = await openSession(svc.url)
    const answers = [
      await get(`${svc.url}/feed.xml`, id(1)),
      await get(`${svc.url}/feed.xml`, { ...id(2), 'if-none-match': etag }),
      await get(`${svc.url}/api/reviews/search?query=kind`, id(3)),
      await get(`${svc.url}/api/reviews/search?min_rating=9`, id(4)),
      await get(`${svc.url}/no/such/page`, id(5)),
      await post(svc.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { ...MCP_HEADERS, ...id(6), 'mcp-session-id': session }),
      await post(svc.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { ...MCP_HEADERS, ...id(7), 'mcp-session-id': 'no-such-session' }),
      await post(svc.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, { ...MCP_HEADERS, ...id(8), accept: 'text/html' }),
      await request('OPTIONS', `${svc.url}/mcp`, id(9))
    ]
    assert.deepEqual(answers.map((a) => a.status), [200, 304, 200, 400, 404, 200, 404, 406, 204])
    answers.forEach((a, i) => assert.equal(a.headers['x-request-id'], `kind-${i + 1}`, `answer ${i + 1} (${a.status})`))
  })
})

