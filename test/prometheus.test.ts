import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { dataset, review } from './helpers/fixtures.js'
import { freePort, get } from './helpers/http.js'
import { INITIALIZE, MCP_HEADERS, post } from './helpers/mcp.js'
import { scrape } from './helpers/metrics.js'
import { runCli, startServerProcess, type ServerProcess } from './helpers/processes.js'
import { hubRequest, makeTestPki, Subscriber, waitFor, type TestPki } from './helpers/websub.js'

/**
 * A real Prometheus (the Debian package) scrapes a node running WORKERS=2 on loopback: one scrape of the node gives
 * both workers' metrics together, and the values in Prometheus are exactly what this test's own traffic produced.
 * promtool lints the exposition. Every request here opens a new connection, so both workers take a share.
 */
const TOOL_CALLS = 12
const READS = 9

let dir: string
let pki: TestPki
let sub: Subscriber
let server: ServerProcess
let prometheus: ChildProcess
let promUrl: string
let metricsUrl: string

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prometheus-'))
  pki = makeTestPki(dir)
  sub = await new Subscriber().start(pki)
  const metricsPort = await freePort()
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
  const seed = join(dir, 'seed.json')
  writeFileSync(seed, JSON.stringify(dataset([review({ id: 'p0', date: '2024-01-01', text: 'Evie was kind.' })])))
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'reviews.db')}`,
    BASE_URL: 'https://reviews.test',
    WORKERS: '2',
    METRICS_PORT: String(metricsPort),
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_EXTRA_CA_FILE: pki.caFile
  }
  assert.equal(runCli(['import', seed], env).status, 0)
  server = await startServerProcess(env, { until: 'all workers serving' })
  await waitFor('the metrics listener', () => server.logs.some((l) => l.msg === 'metrics of every worker at /metrics'))
  prometheus = await startPrometheus(metricsPort)
})
after(async () => {
  prometheus?.kill('SIGKILL')
  await server?.stop()
  await sub.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function startPrometheus(metricsPort: number): Promise<ChildProcess> {
  const config = join(dir, 'prometheus.yml')
  writeFileSync(config, `global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n  - job_name: reviews\n    static_configs:\n      - targets: ['127.0.0.1:${metricsPort}']\n`)
  const port = await freePort()
  promUrl = `http://127.0.0.1:${port}`
  const child = spawn('prometheus', [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], {
    stdio: ['ignore', 'ignore', 'pipe']
  })
  let stderr = ''
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()))
  await waitFor('Prometheus to be ready', async () => (await get(`${promUrl}/-/ready`).catch(() => ({ status: 0 }))).status === 200, 20_000).catch((err: Error) => {
    throw new Error(`${err.message}\n${stderr}`)
  })
  return child
}

/** The value Prometheus holds now for a PromQL expression with one result (NaN when none). */
async function query(expr: string): Promise<number> {
  const r = await get(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`)
  const body = r.json()
  assert.equal(body.status, 'success', r.text)
  const result = body.data.result as { value: [number, string] }[]
  return result.length === 1 ? Number(result[0]!.value[1]) : Number.NaN
}

/** Waits for Prometheus to have scraped a value that makes `check` true. */
async function settles(expr: string, check: (v: number) => boolean): Promise<number> {
  let last = Number.NaN
  await waitFor(`${expr} in Prometheus (last: ${last})`, async () => check((last = await query(expr))), 15_000)
  return last
}

test('Prometheus scrapes the node: up is 1, and requests, snapshot, WebSub and MCP series hold what this test did, summed over both workers', async () => {
  assert.equal(await settles('up{job="reviews"}', (v) => v === 1), 1)
  for (let i = 0; i < READS; i++) assert.equal((await get(`${server.url}/api/feed.json`)).status, 200)
  const init = await post(server.url, INITIALIZE)
  const session = String(init.headers['mcp-session-id'])
  for (let id = 1; id <= TOOL_CALLS; id++) {
    const r = await post(server.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_faq', arguments: {} } }, { ...MCP_HEADERS, 'mcp-session-id': session })
    assert.equal(r.status, 200)
  }
  assert.equal((await hubRequest(`${server.url}/api/websub/hub`, { 'hub.mode': 'subscribe', 'hub.topic': 'https://reviews.test/feed.xml', 'hub.callback': `${sub.url}/prom` })).status, 202)
  await waitFor('the verification', () => sub.verificationsOf('/prom').length === 1)

  assert.equal(await settles('sum(http_requests_total{route="/api/feed.json",method="GET",status="200"})', (v) => v === READS), READS)
  assert.equal(await settles('sum(mcp_tool_calls_total{tool="get_faq",outcome="ok"})', (v) => v === TOOL_CALLS), TOOL_CALLS)
  assert.equal(await settles('sum(mcp_tool_call_duration_seconds_count{tool="get_faq"})', (v) => v === TOOL_CALLS), TOOL_CALLS)
  assert.equal(await settles('mcp_sessions_open', (v) => v === 1), 1, 'a cluster-wide gauge is taken once, not summed over the workers')
  assert.equal(await settles('reviews_data_version', (v) => v === 1), 1)
  assert.equal(await settles('websub_subscriptions{topic="/feed.xml",state="active"}', (v) => v === 1), 1)
  assert.equal(await settles('sum(websub_verifications_total{outcome="verified"})', (v) => v === 1), 1)
  assert.ok((await settles('sum(reviews_snapshot_build_duration_seconds_count)', (v) => v >= 2)) >= 2, 'each worker built its snapshot')
  assert.ok((await query('sum(reviews_store_query_duration_seconds_count{operation="readPublished"})')) >= 2)
})

test('promtool check metrics: no finding about the service\'s own metrics', async () => {
  const { text } = await scrape(metricsUrl)
  const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
  const findings = `${lint.stdout}${lint.stderr}`.split('\n').filter(Boolean)
  const ours = findings.filter((line) => /^(http_|reviews_|websub_|mcp_)/.test(line.trim()))
  assert.deepEqual(ours, [], findings.join('\n'))
  // prom-client's own default gauges named *_total are the only findings allowed.
  for (const line of findings) assert.match(line, /^(nodejs_|process_)\S+ non-counter metrics should not have "_total" suffix$/, line)
})

test('one scrape of the node counts both workers: requests over many connections all appear', async () => {
  const before = await scrape(metricsUrl)
  const count = (samples: typeof before.samples) => samples.filter((s) => s.name === 'http_requests_total' && s.labels.route === '/robots.txt').reduce((n, s) => n + s.value, 0)
  for (let i = 0; i < 10; i++) {
    await new Promise<void>((ok, fail) => httpRequest(`${server.url}/robots.txt`, { agent: false }, (res) => res.resume().on('end', ok)).on('error', fail).end())
  }
  await waitFor('both workers served some', () => new Set(server.logs.filter((l) => l.msg === 'serving').map((l) => l.pid)).size === 2)
  assert.equal(count((await scrape(metricsUrl)).samples) - count(before.samples), 10)
})
