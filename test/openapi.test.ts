import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { dataset, review } from './helpers/fixtures.js'
import { get, request, type RawResponse } from './helpers/http.js'
import { INITIALIZE, MCP_HEADERS, openSession, post } from './helpers/mcp.js'
import { hubRequest, makeTestPki, Subscriber, waitFor } from './helpers/websub.js'
import { startTestService, type TestService } from './helpers/service.js'
import { runTool, writeTemp } from './helpers/tools.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

let s: TestService
let doc: any

before(async () => {
  const reviews = [
    review({ id: 'o1', rating: 5, date: '2024-05-01', text: 'Evie was lovely.', owner_reply: { text: 'Thank you.', date: '2024-05-02' } }),
    review({ id: 'o2', rating: 2, date: '2024-04-01', text: null, published_at: '2024-04-01T09:00:00-07:00' }),
    review({ id: 'o3', rating: 4, date: '2023-04-01', text: 'The simple cremation was done in a week.', language: null })
  ]
  // Callbacks on loopback only: the hub's verification of the 202 recipes goes to a closed local port.
  s = await startTestService({ data: dataset(reviews), env: { WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true' } })
  doc = (await get(`${s.url}/openapi.json`)).json()
})
after(() => s.stop())

type Recipe = string | (() => Promise<RawResponse>)

const mcp = (body: unknown, headers: Record<string, string> = {}) => () => post(s.url, body, { ...MCP_HEADERS, ...headers })
const inSession = (body: unknown, headers: Record<string, string> = {}) => async () =>
  post(s.url, body, { ...MCP_HEADERS, 'mcp-session-id': await openSession(s.url), ...headers })
const raw = (method: string, headers: Record<string, string>, session = false) => async () =>
  request(method, `${s.url}/mcp`, { ...headers, ...(session ? { 'mcp-session-id': await openSession(s.url) } : {}) })
const PING = { jsonrpc: '2.0', id: 2, method: 'ping' }

/** The headers of a response whose body stays open (an SSE stream), then the connection is closed. */
function streamHead(headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((ok, fail) => {
    const req = httpRequest(`${s.url}/mcp`, { headers, agent: false }, (res) => {
      ok({ status: res.statusCode!, headers: res.headers, body: Buffer.alloc(0), text: '', json: () => { throw new Error('a stream has no JSON body') } })
      req.destroy()
    })
    req.on('error', fail)
    req.end()
  })
}

/** A session's second stream while its first is open. */
async function secondStream(): Promise<RawResponse> {
  const session = await openSession(s.url)
  const first = httpRequest(`${s.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session }, agent: false })
  first.end()
  await new Promise((ok) => first.once('response', ok))
  try {
    return await request('GET', `${s.url}/mcp`, { accept: 'text/event-stream', 'mcp-session-id': session })
  } finally {
    first.destroy()
  }
}

/** A server whose only session slot is taken. */
async function fullServer(): Promise<RawResponse> {
  const small = await startTestService({ env: { MCP_MAX_SESSIONS: '1' } })
  try {
    await openSession(small.url)
    return await post(small.url, INITIALIZE)
  } finally {
    await small.stop()
  }
}

const HUB_FORM = (callback = 'https://127.0.0.1:1/cb') => ({ 'hub.mode': 'subscribe', 'hub.topic': `${s.baseUrl}/feed.xml`, 'hub.callback': callback })
const hub = (fields: () => Record<string, string> | string, headers: Record<string, string> = {}) => () => hubRequest(`${s.url}/api/websub/hub`, fields(), headers)

/** A hub whose one-subscription-per-host limit is reached by a verified subscriber. */
async function hostFull(): Promise<RawResponse> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-hub-'))
  const pki = makeTestPki(dir)
  const sub = await new Subscriber().start(pki)
  const limited = await startTestService({ env: { WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true', WEBSUB_EXTRA_CA_FILE: pki.caFile, WEBSUB_MAX_PER_HOST: '1' } })
  try {
    const url = `${limited.url}/api/websub/hub`
    const topic = `${limited.baseUrl}/feed.xml`
    await hubRequest(url, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': `${sub.url}/one` })
    await waitFor('the first subscription', async () => (await limited.service.store.subscriptions.totals(0, Date.now())).active[topic] === 1)
    return await hubRequest(url, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': `${sub.url}/two` })
  } finally {
    await limited.stop()
    await sub.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A hub that takes one subscription request a minute from a client. */
async function rateLimited(): Promise<RawResponse> {
  const limited = await startTestService({ env: { WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true', WEBSUB_RATE_PER_MIN: '1' } })
  try {
    const url = `${limited.url}/api/websub/hub`
    const form = { 'hub.mode': 'subscribe', 'hub.topic': `${limited.baseUrl}/feed.xml`, 'hub.callback': 'https://127.0.0.1:1/cb' }
    await hubRequest(url, form)
    return await hubRequest(url, form)
  } finally {
    await limited.stop()
  }
}

/** Requests that produce each documented response: "<operationId> <status>" -> GET paths or request makers. 304 and 412 replay the first 200. */
const RECIPES: Record<string, Recipe[]> = {
  'getReviews 200': ['/reviews.json'],
  'getInsights 200': ['/insights.json'],
  'getFeed 200': ['/api/feed.json'],
  'getAtomFeed 200': ['/feed.xml'],
  'searchReviews 200': ['/api/reviews/search', '/api/reviews/search?min_rating=4&limit=1', '/api/reviews/search?mentions_technician=nobody'],
  'searchReviews 400': ['/api/reviews/search?rating=7&x=1', '/api/reviews/search?since=2024-02-30'],
  'getReviewsSince 200': ['/api/reviews/since/2024-01-01', '/api/reviews/since/2999-01-01'],
  'getReviewsSince 400': ['/api/reviews/since/2024-13-01'],
  'getReview 200': ['/reviews/o1', '/reviews/o2'],
  'getReview 404': ['/reviews/missing'],
  'mcp 200': [mcp(INITIALIZE), inSession(PING), inSession({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_reviews', arguments: { limit: 1 } } }), inSession({ jsonrpc: '2.0', id: 4, method: 'nope' })],
  'mcp 202': [inSession({ jsonrpc: '2.0', method: 'notifications/initialized' })],
  'mcp 400': [mcp('{"jsonrpc":'), mcp([PING]), mcp(PING), inSession(PING, { 'mcp-protocol-version': '1999-01-01' })],
  'mcp 403': [mcp(INITIALIZE, { origin: 'https://evil.example' })],
  'mcp 404': [mcp(PING, { 'mcp-session-id': 'unknown' })],
  'mcp 406': [mcp(INITIALIZE, { accept: 'application/json' })],
  'mcp 413': [mcp({ ...PING, params: { pad: 'x'.repeat(300_000) } })],
  'mcp 415': [mcp(INITIALIZE, { 'content-type': 'text/plain' })],
  'mcp 503': [fullServer],
  'mcpStream 200': [async () => streamHead({ accept: 'text/event-stream', 'mcp-session-id': await openSession(s.url) })],
  'mcpStream 400': [raw('GET', { accept: 'text/event-stream' })],
  'mcpStream 403': [raw('GET', { accept: 'text/event-stream', origin: 'https://evil.example' }, true)],
  'mcpStream 404': [raw('GET', { accept: 'text/event-stream', 'mcp-session-id': 'unknown' })],
  'mcpStream 406': [raw('GET', { accept: 'application/json' }, true)],
  'mcpStream 409': [secondStream],
  'mcpEndSession 204': [raw('DELETE', {}, true)],
  'mcpEndSession 400': [raw('DELETE', {})],
  'mcpEndSession 403': [raw('DELETE', { origin: 'https://evil.example' }, true)],
  'mcpEndSession 404': [raw('DELETE', { 'mcp-session-id': 'unknown' })],
  'websubHub 202': [hub(() => HUB_FORM()), hub(() => ({ ...HUB_FORM(), 'hub.mode': 'unsubscribe' }))],
  'websubHub 400': [hub(() => HUB_FORM('http://127.0.0.1:1/cb')), hub(() => 'hub.mode=publish')],
  'websubHub 403': [hostFull],
  'websubHub 413': [hub(() => ({ ...HUB_FORM(), pad: 'x'.repeat(20_000) }))],
  'websubHub 415': [hub(() => JSON.stringify(HUB_FORM()), { 'content-type': 'application/json' })],
  'websubHub 429': [rateLimited],
  'getHubStats 200': ['/api/websub/stats'],
  'getBadge 200': ['/badge.svg', '/badge.svg?theme=dark', '/badge.svg?theme=auto'],
  'getBadge 400': ['/badge.svg?theme=blue', '/badge.svg?size=2'],
  'getEmbed 200': ['/embed', '/embed?limit=10&min_rating=4&theme=auto'],
  'getEmbed 400': ['/embed?limit=0', '/embed?theme=light&theme=dark', '/embed?colour=red']
}

function operations(): { path: string; operationId: string; responses: Record<string, any> }[] {
  return Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.values(item).map((op: any) => ({ path, operationId: op.operationId, responses: op.responses }))
  )
}

function resolve(node: any): any {
  return node.$ref ? node.$ref.split('/').slice(1).reduce((n: any, k: string) => n[k], doc) : node
}

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1.0, version 1.0.0, with the operationIds of the spec', () => {
    assert.equal(doc.openapi, '3.1.0')
    assert.equal(doc.info.version, '1.0.0')
    const ids = operations().map((o) => o.operationId)
    for (const id of ['getReviews', 'getInsights', 'getFeed', 'searchReviews', 'getReviewsSince', 'mcp']) assert.ok(ids.includes(id), id)
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique')
    assert.equal(doc.servers[0].url, s.baseUrl)
  })

  test('lints clean with @redocly/cli', () => {
    const r = runTool(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', '--format=stylish', writeTemp(s.dir, 'openapi.json', JSON.stringify(doc))])
    assert.equal(r.status, 0, r.output)
    assert.match(r.output, /Your API description is valid/)
    assert.doesNotMatch(r.output, /\d+:\d+\s+(warning|error)\s/, "no lint findings")
  })

  test('documents search parameters from the same schema that validates them', () => {
    const params = doc.paths['/api/reviews/search'].get.parameters.filter((p: any) => p.in === 'query')
    assert.deepEqual(params.map((p: any) => p.name), ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'offset'])
    const limit = params.find((p: any) => p.name === 'limit').schema
    assert.deepEqual([limit.type, limit.minimum, limit.maximum, limit.default], ['integer', 1, 100, 20])
  })
})

describe('every documented response of every endpoint validates against the document', () => {
  test('each (operation, status) has a request that produces it, and its body matches the schema', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats(ajv)
    ajv.addSchema({ ...doc, $id: 'openapi' })
    const covered: string[] = []
    for (const op of operations()) {
      for (const [status, raw] of Object.entries(op.responses)) {
        const spec = resolve(raw)
        if (status === '304') {
          const path = RECIPES[`${op.operationId} 200`]![0] as string
          const etag = String((await get(`${s.url}${path}`)).headers.etag)
          const res = await get(`${s.url}${path}`, { 'if-none-match': etag })
          assert.equal(res.status, 304, path)
          assert.equal(res.body.length, 0)
          covered.push(`${op.operationId} 304`)
          continue
        }
        if (status === '412') {
          const path = RECIPES[`${op.operationId} 200`]![0] as string
          const res = await get(`${s.url}${path}`, { 'if-match': '"not-the-current-one"' })
          assert.equal(res.status, 412, path)
          assert.ok(ajv.compile({ $ref: 'openapi#/components/schemas/Error' })(res.json()), res.text)
          covered.push(`${op.operationId} 412`)
          continue
        }
        const recipes = RECIPES[`${op.operationId} ${status}`]
        assert.ok(recipes, `no request produces documented response ${op.operationId} ${status}`)
        for (const recipe of recipes) {
          const res = typeof recipe === 'string' ? await get(`${s.url}${recipe}`) : await recipe()
          assert.equal(String(res.status), status, `${op.operationId}: ${res.text.slice(0, 200)}`)
          if (!spec.content) {
            assert.equal(res.body.length, 0, `${op.operationId} ${status} has no body`)
            continue
          }
          const type = String(res.headers['content-type']).split(';')[0]!
          const media = spec.content[type]
          assert.ok(media, `${op.operationId} ${status}: ${type} is not documented`)
          if (type.endsWith('json')) {
            const refs: { $ref: string }[] = media.schema.oneOf ?? [media.schema]
            const validate = ajv.compile({ oneOf: refs.map((r) => ({ $ref: `openapi${r.$ref}` })) })
            assert.ok(validate(res.json()), `${op.operationId} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`)
          } else {
            assert.equal(media.schema.type, 'string')
            assert.ok(res.body.length > 0 || type === 'text/event-stream')
          }
        }
        covered.push(`${op.operationId} ${status}`)
      }
    }
    assert.deepEqual(Object.keys(RECIPES).filter((k) => !covered.includes(k)), [], 'every recipe matches a documented response')
  })
})
