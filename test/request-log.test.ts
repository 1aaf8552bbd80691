import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { get } from './helpers/http.js'
import { exchange, requestHead, responses } from './helpers/raw-http.js'
import { startServerProcess, type ServerProcess } from './helpers/processes.js'
import { hubRequest, makeTestPki, sleep, Subscriber, waitFor, type TestPki } from './helpers/websub.js'

/**
 * At LOG_LEVEL=info a sample of requests gets an access line (one in LOG_REQUEST_SAMPLE, at most
 * LOG_REQUEST_MAX_PER_SECOND a second), with what an access line needs and nothing more; callback URLs in the hub's lines
 * lose their query string.
 */
let dir: string
let pki: TestPki
let sub: Subscriber
let server: ServerProcess

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'request-log-'))
  pki = makeTestPki(dir)
  sub = await new Subscriber().start(pki)
  server = await startServerProcess({
    DATABASE_URL: `sqlite:${join(dir, 'reviews.db')}`,
    LOG_LEVEL: 'info',
    LOG_REQUEST_SAMPLE: '10',
    BASE_URL: 'https://reviews.test',
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_EXTRA_CA_FILE: pki.caFile
  })
})
after(async () => {
  await server.stop()
  await sub.stop()
  rmSync(dir, { recursive: true, force: true })
})

const accessLines = (from: number, of = server) => of.logs.slice(from).filter((l) => l.msg === 'request')

test('one request in LOG_REQUEST_SAMPLE gets a line: request id, route template, method, status, duration, bytes; no query string, no client address', async () => {
  const from = server.logs.length
  for (let i = 0; i < 30; i++) {
    const r = await get(`${server.url}/api/reviews/search?query=private+words&limit=${i + 1}`, { 'x-request-id': `sample-${i}` })
    assert.equal(r.status, 200)
  }
  await waitFor('three lines', () => accessLines(from).length === 3, 2000)
  for (const line of accessLines(from)) {
    assert.deepEqual(Object.keys(line).filter((k) => !['level', 'time', 'service', 'pid', 'msg'].includes(k)).sort(), ['bytes', 'method', 'ms', 'reqId', 'route', 'status'])
    assert.match(String(line.reqId), /^sample-\d+$/)
    assert.equal(line.route, '/api/reviews/search')
    assert.equal(line.status, 200)
    assert.ok((line.bytes as number) > 0 && (line.ms as number) >= 0)
    assert.ok(!JSON.stringify(line).includes('private'), 'the query string is not logged')
  }
})

test('requests the front door answers on its fast path (kept-alive, path-only routes) are sampled alike', async () => {
  const from = server.logs.length
  const heads = Array.from({ length: 20 }, (_, i) => requestHead('GET /reviews.json HTTP/1.1', 'Host: reviews.test', `X-Request-Id: fast-${i}`))
  const bytes = await exchange(server.url, [heads.join('') + requestHead('GET /robots.txt HTTP/1.1', 'Host: reviews.test', 'Connection: close')])
  assert.equal(responses(bytes, Array(21).fill('GET')).length, 21)
  await waitFor('two lines', () => accessLines(from).filter((l) => l.route === '/reviews.json').length === 2, 2000)
  for (const line of accessLines(from).filter((l) => l.route === '/reviews.json')) {
    assert.match(String(line.reqId), /^fast-\d+$/)
    assert.equal(line.method, 'GET')
    assert.equal(line.status, 200)
    assert.ok((line.bytes as number) > 0 && (line.ms as number) >= 0)
  }
})

test('sampled lines are capped per second; the next line written says how many were skipped', async () => {
  const capped = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, 'capped.db')}`, LOG_LEVEL: 'info', LOG_REQUEST_SAMPLE: '1', LOG_REQUEST_MAX_PER_SECOND: '5' })
  try {
    const from = capped.logs.length
    const started = performance.now()
    for (let i = 0; i < 40; i++) assert.equal((await get(`${capped.url}/reviews.json`)).status, 200)
    const seconds = (performance.now() - started) / 1000
    await sleep(1100)
    assert.equal((await get(`${capped.url}/robots.txt`)).status, 200)
    await waitFor('the line after the pause', () => accessLines(from, capped).some((l) => l.route === '/robots.txt'), 2000)
    const lines = accessLines(from, capped)
    const burst = lines.filter((l) => l.route === '/reviews.json')
    // Every second the burst touched may have had its five lines.
    assert.ok(burst.length >= 5 && burst.length <= 5 * (Math.ceil(seconds) + 1), `${burst.length} lines in ${seconds.toFixed(2)} s`)
    const skipped = lines.reduce((n, l) => n + Number(l.skipped ?? 0), 0)
    assert.equal(burst.length + skipped, 40, 'every request of the burst is either logged or counted as skipped')
    assert.equal(lines.at(-1)!.route, '/robots.txt')
  } finally {
    await capped.stop()
  }
})

test('a callback URL is logged without its query string', async () => {
  const from = server.logs.length
  const r = await hubRequest(`${server.url}/api/websub/hub`, { 'hub.mode': 'subscribe', 'hub.topic': 'https://reviews.test/feed.xml', 'hub.callback': `${sub.url}/logged?token=s3cret` })
  assert.equal(r.status, 202)
  await waitFor('the verification line', () => server.logs.slice(from).some((l) => l.msg === 'websub verification of intent'))
  const line = server.logs.slice(from).find((l) => l.msg === 'websub verification of intent')!
  assert.equal(line.callback, `${sub.url}/logged?[redacted]`)
  assert.ok(!JSON.stringify(server.logs).includes('s3cret'))
})
