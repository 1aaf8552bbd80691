import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { importFile } from '../src/ingest/index.js'
import { openStore } from '../src/store/index.js'
import { freePort } from './helpers/browser.js'
import { dataset, plumberBusiness, review, writeJson } from './helpers/fixtures.js'
import { get, request } from './helpers/http.js'
import { connectClient } from './helpers/mcp.js'
import { startTestService, type TestService } from './helpers/service.js'
import { hubRequest, makeTestPki, waitFor, type TestPki } from './helpers/websub.js'

/** A public address the test server is not at, so every example written from BASE_URL can be told apart. */
const BASE_URL = 'https://reviews.example.org'
/**
 * Addresses the guide may name besides its own: the dummy base the subscriber parses request paths against,
 * documentation, reserved example names, the Inspector's origin.
 */
const ELSEWHERE = ['http://callback', 'https://modelcontextprotocol.io', 'https://www.w3.org/TR/websub/', 'https://subscriber.example.com/', 'http://localhost:6274']
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8'

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e]!)

/** The text of every code block of a page, as a reader would copy it. */
function codeBlocks(page: string): string[] {
  return [...page.matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescapeHtml(m[1]!))
}

/** The address of each one-line `curl -s` example (unquoted as the shell would), with what follows it. */
function curlExamples(blocks: string[]): string[] {
  return blocks.flatMap((b) => [...b.matchAll(/^curl -s(?: --compressed)? (?:'([^']+)'|(\S+))$/gm)].map((m) => m[1] ?? m[2]!))
}

const guide = async (s: TestService, path = '/developers') => {
  const res = await get(`${s.url}${path}`, { accept: BROWSER_ACCEPT })
  assert.equal(res.status, 200, res.text)
  return res.text
}

describe('the developer guide on the demo data', () => {
  let s: TestService
  before(async () => (s = await startTestService({ env: { BASE_URL } })))
  after(() => s.stop())

  test('is written for this instance: every address is under BASE_URL or plainly elsewhere, and it names this business', async () => {
    const page = unescapeHtml(await guide(s))
    const business = (await get(`${s.url}/reviews.json`)).json().business
    assert.ok(page.includes(business.name))
    assert.ok(page.includes(business.technicians[0].name), 'a search example names a real staff member')
    assert.ok(page.includes(business.services[0].id), 'a search example names a real service')
    const addresses = [...page.matchAll(/https?:\/\/[^\s"'<>)\\]+/g)].map((m) => m[0])
    assert.ok(addresses.length > 20)
    for (const a of addresses) assert.ok(a.startsWith(`${BASE_URL}/`) || a === BASE_URL || ELSEWHERE.some((e) => a.startsWith(e)), `unexpected address ${a}`)
    assert.ok(!page.includes('127.0.0.1'), 'the address the server listens on never leaks into the examples')
  })

  test('every curl example answers 200 from the service, and the error example answers exactly as shown', async () => {
    const blocks = codeBlocks(await guide(s))
    const examples = curlExamples(blocks)
    assert.ok(examples.length >= 6, `found ${examples.length} examples`)
    let errorExamples = 0
    for (const example of examples) {
      const res = await get(example.replace(BASE_URL, s.url))
      if (res.status === 400) {
        errorExamples++
        const shown = blocks[blocks.findIndex((b) => b.includes(example)) + 1]!
        assert.deepEqual(res.json(), JSON.parse(shown), 'the answer shown under the error example is the real one')
      } else assert.equal(res.status, 200, `${example}: ${res.text.slice(0, 200)}`)
    }
    assert.equal(errorExamples, 1)
    for (const path of ['/api/reviews/search?mentions_technician=', '/api/reviews/search?mentions_service=']) {
      const example = examples.find((e) => e.includes(path))!
      assert.ok((await get(example.replace(BASE_URL, s.url))).json().matched > 0, `${example} finds reviews`)
    }
  })

  test('the search table lists every parameter of the OpenAPI document, and the MCP table every tool tools/list gives', async () => {
    const page = await guide(s)
    const openapi = (await get(`${s.url}/openapi.json`)).json()
    const params = (openapi.paths['/api/reviews/search'].get.parameters as { name?: string; in?: string }[]).filter((p) => p.in === 'query')
    assert.ok(params.length >= 8)
    for (const p of params) assert.ok(page.includes(`<th scope="row"><code>${p.name}</code></th>`), `parameter ${p.name}`)
    const { client } = await connectClient(s.url)
    try {
      const { tools } = await client.listTools()
      assert.ok(tools.length >= 9)
      for (const t of tools) assert.ok(page.includes(`<th scope="row"><code>${t.name}</code></th>`), `tool ${t.name}`)
    } finally {
      await client.close()
    }
  })

  test('is a page like every other: HTML, the strict page policy, conditional GET', async () => {
    const res = await get(`${s.url}/developers`, { accept: BROWSER_ACCEPT })
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    assert.match(String(res.headers['content-security-policy']), /^default-src 'none'/)
    assert.doesNotMatch(String(res.headers['content-security-policy']), /script-src/, 'the guide runs no script')
    assert.doesNotMatch(res.text, /<script/)
    assert.equal((await get(`${s.url}/developers`, { 'if-none-match': res.headers.etag! })).status, 304)
  })
})

describe('the API reference', () => {
  let s: TestService
  before(async () => (s = await startTestService({ env: { BASE_URL } })))
  after(() => s.stop())

  test('is a shell that loads Swagger UI from this site alone, allowed by a policy of same-site script', async () => {
    const res = await get(`${s.url}/developers/api`, { accept: BROWSER_ACCEPT })
    assert.equal(res.status, 200)
    const csp = String(res.headers['content-security-policy'])
    assert.match(csp, /script-src 'self'/)
    assert.match(csp, /connect-src 'self'/)
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/, 'no inline script and no other host')
    const assets = [...res.text.matchAll(/(?:src|href)="(\/developers\/api\/[^"]+)"/g)].map((m) => m[1]!)
    assert.equal(assets.length, 3, `stylesheet, bundle and start script: ${assets.join(', ')}`)
    for (const a of assets) {
      const asset = await get(`${s.url}${a}`, { 'accept-encoding': 'br' })
      assert.equal(asset.status, 200, a)
      assert.match(asset.headers['content-type']!, a.endsWith('.css') ? /^text\/css/ : /^text\/javascript/)
      // The start script is a few hundred bytes, below the size where compression pays.
      if (!a.endsWith('/init.js')) assert.equal(asset.headers['content-encoding'], 'br', `${a} is compressed`)
      assert.equal((await get(`${s.url}${a}`, { 'accept-encoding': 'br', 'if-none-match': asset.headers.etag! })).status, 304)
    }
    const bundle = assets.find((a) => a.endsWith('swagger-ui-bundle.js'))!
    assert.match(bundle, /^\/developers\/api\/\d+\.\d+\.\d+\//, 'versioned, so its bytes never change at an address')
    assert.match((await get(`${s.url}${bundle}`)).headers['cache-control']!, /immutable/)
  })

  test('an asset of another version, or none at all, is a 404', async () => {
    for (const path of ['/developers/api/0.0.1/swagger-ui-bundle.js', '/developers/api/5.35.0/index.html', '/developers/api/init.jsx']) {
      assert.equal((await get(`${s.url}${path}`)).status, 404, path)
    }
  })
})

describe('the developer guide of another business', () => {
  let s: TestService
  before(async () => {
    const reviews = [review({ id: 'p1', text: 'Gus fixed the water heater the same day.', date: '2025-03-02' })]
    s = await startTestService({ data: dataset(reviews, plumberBusiness()), env: { BASE_URL } })
  })
  after(() => s.stop())

  test('takes its names and examples from that business, and nothing from the demo funeral home', async () => {
    const page = unescapeHtml(await guide(s))
    for (const fact of ['Copper Pipe Plumbing', 'mentions_technician=Gaspard+Lemieux', 'mentions_service=water-heater', '"copper-pipe-reviews"', '/reviews/p1']) {
      assert.ok(page.includes(fact), fact)
    }
    assert.doesNotMatch(page, /funeral|cremation|Hollis|Vane/i)
  })
})

describe('a business with no reviews and no staff yet', () => {
  let s: TestService
  before(async () => (s = await startTestService({ data: dataset([], { ...plumberBusiness(), technicians: [], services: [] }), env: { BASE_URL } })))
  after(() => s.stop())

  test('still gets a complete guide, without examples it cannot give', async () => {
    const page = await guide(s)
    assert.ok(page.includes('</html>'))
    assert.ok(page.includes('its verified reviews (none yet)'))
    assert.doesNotMatch(page, /mentions_technician=|mentions_service=|example\.org\/reviews\/[A-Za-z0-9]/)
    for (const example of curlExamples(codeBlocks(page))) assert.ok([200, 400].includes((await get(example.replace(BASE_URL, s.url))).status), example)
  })
})

/**
 * The Node.js subscriber the guide prints, run as written behind an HTTPS front (as the guide says to run it), against
 * the real hub: it answers verification, logs the signed delivery of a new review, and ignores a forged one.
 */
describe('the subscriber printed in the guide', () => {
  let dir: string
  let pki: TestPki
  let s: TestService
  let subscriber: ChildProcess
  let front: Server
  let logged = ''
  let snippetPort: number

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'guide-subscriber-'))
    pki = makeTestPki(dir)
    s = await startTestService({
      data: dataset([review({ id: 'g1', date: '2025-01-01' })]),
      env: { BASE_URL, WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true', WEBSUB_EXTRA_CA_FILE: pki.caFile }
    })
    const snippet = codeBlocks(await guide(s)).find((b) => b.startsWith('// subscriber.mjs'))!
    writeFileSync(join(dir, 'subscriber.mjs'), snippet)
    snippetPort = await freePort()
    subscriber = spawn(process.execPath, [join(dir, 'subscriber.mjs')], { env: { PATH: process.env.PATH, PORT: String(snippetPort), WEBSUB_SECRET: 'guide-secret' } })
    subscriber.stdout!.on('data', (d: Buffer) => (logged += d.toString()))
    await waitFor('the subscriber to listen', async () => (await get(`http://127.0.0.1:${snippetPort}/?hub.challenge=up`).catch(() => undefined))?.text === 'up')
    front = await httpsFront(pki, snippetPort)
  })
  after(async () => {
    subscriber?.kill()
    front?.closeAllConnections()
    front?.close()
    await s?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('verifies, receives a signed delivery, and drops a forged one', async () => {
    const callback = `https://127.0.0.1:${(front.address() as AddressInfo).port}/websub/reviews`
    const topic = `${BASE_URL}/feed.xml`
    const r = await hubRequest(`${s.url}/api/websub/hub`, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': callback, 'hub.secret': 'guide-secret' })
    assert.equal(r.status, 202, r.text)
    await waitFor('the subscription to be verified', async () => (await activeSubscriptions(s, topic)) === 1)

    const forged = await request('POST', `http://127.0.0.1:${snippetPort}/websub/reviews`, { 'content-type': 'application/atom+xml', 'x-hub-signature': 'sha256=00' }, '<feed/>')
    assert.equal(forged.status, 204)

    const store = await openStore(s.databaseUrl)
    try {
      await importFile(store, writeJson(dir, 'new.json', dataset([review({ id: 'g2', date: '2025-02-01' })])), { replace: false })
    } finally {
      await store.close()
    }
    await waitFor('the signed delivery to be logged', () => /new content: application\/atom\+xml \d+ bytes/.test(logged))
    assert.equal(logged.match(/new content/g)!.length, 1, 'the forged POST was not logged')
  })
})

/** Active subscriptions of a topic, read from the database (the stats endpoint caches for a second). */
async function activeSubscriptions(s: TestService, topic: string): Promise<number> {
  const store = await openStore(s.databaseUrl)
  try {
    return (await store.subscriptions.totals(s.service.holder.current.version, Date.now())).active[topic] ?? 0
  } finally {
    await store.close()
  }
}

/** TLS in front of a plain HTTP server, the way the guide's subscriber is meant to run. */
async function httpsFront(pki: TestPki, port: number): Promise<Server> {
  const server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  return server
}
