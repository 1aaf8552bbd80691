import assert from 'node:assert/strict'
import { Agent, request as httpRequest } from 'node:http'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { MCP_HEADERS, openSession } from './helpers/mcp.js'
import { startTestService, type TestService } from './helpers/service.js'

/**
 * Thousands of generated JSON-RPC messages inside one valid session. The expected answer of each is worked out here
 * from the JSON-RPC and MCP rules alone (see expect()), not from the server's schemas, so a shape the server and the
 * SDK disagree on shows up as a wrong or missing answer.
 */

let svc: TestService
let session: string
// One kept-alive socket: a request left unanswered would hold it, and every later one would time out too.
const agent = new Agent({ keepAlive: true, maxSockets: 1 })

before(async () => {
  svc = await startTestService()
  session = await openSession(svc.url)
})
after(async () => {
  agent.destroy()
  await svc.stop()
})

const ANSWER_WITHIN_MS = 1000
const MAX_DEPTH = 32

/** The methods this server handles (initialize is refused inside a session). */
const METHODS = ['ping', 'tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read', 'resources/subscribe', 'resources/unsubscribe', 'prompts/list', 'prompts/get', 'logging/setLevel']
const NEAR_MISSES = ['initialize', 'Ping', 'ping ', 'tools/list/', 'completion/complete', 'tasks/get', 'tasks/result', 'notifications/cancelled', 'notifications/initialized', 'roots/list', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty']
const KEYS = ['_meta', 'progressToken', 'io.modelcontextprotocol/related-task', 'taskId', 'task', 'ttl', 'name', 'arguments', 'uri', 'level', 'cursor', 'query', 'limit', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '']
const TOOLS = ['get_business', 'search_reviews', 'get_reviews_since', 'get_review', 'get_aspect_sentiment', 'get_technician', 'get_service', 'get_faq', 'get_insights_summary']

// Arbitraries give JSON text, not values, so that keys like __proto__, duplicate keys, -0, 1e400 and nesting far
// deeper than JSON.stringify could write all reach the server as a client would send them.
const str = (s: string) => JSON.stringify(s)
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('0', '-0', '1.0', '1e2', '0.5', '-1', '1e400', '-1e400', '9007199254740991', '-9007199254740991', '9007199254740992', '123456789012345678901234567890')
)
const stringText = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 20 }).map(str) },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(str) },
  { weight: 4, arbitrary: fc.constantFrom(...KEYS, ...METHODS, ...TOOLS, 'info', 'loud', 'reviews://x').map(str) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => str('x'.repeat(n))) }
)
const keyText = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) }).map(str)
const deepText = fc.tuple(fc.integer({ min: MAX_DEPTH - 3, max: 10_000 }), fc.boolean()).map(([n, arrays]) => (arrays ? `${'['.repeat(n)}1${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`))

const objectOf = (value: fc.Arbitrary<string>) => fc.array(fc.tuple(keyText, value), { maxLength: 5 }).map((entries) => `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`)
/** The JSON text of an object with one more member, first. */
const withMember = (name: string, value: string, object: string) => `{${str(name)}:${value}${object === '{}' ? '}' : `,${object.slice(1)}`}`

const { json } = fc.letrec<{ json: string; array: string; object: string }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: fc.constantFrom('null', 'true', 'false') },
    { weight: 4, arbitrary: numberText },
    { weight: 6, arbitrary: stringText },
    { weight: 2, arbitrary: tie('array') },
    { weight: 4, arbitrary: tie('object') },
    { weight: 1, arbitrary: deepText }
  ),
  array: fc.array(tie('json'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  object: objectOf(tie('json'))
}))

const tokenText = fc.oneof(numberText, stringText, json)
/** _meta: mostly the shapes the spec gives, with values of any type in their fields, sometimes any JSON at all. */
const metaText = fc.oneof(
  json,
  fc.tuple(tokenText, objectOf(json)).map(([token, rest]) => withMember('progressToken', token, rest)),
  fc.oneof(json, objectOf(json), stringText.map((s) => `{"taskId":${s}}`)).map((task) => `{"io.modelcontextprotocol/related-task":${task}}`)
)
const paramsText = fc.oneof(
  { weight: 5, arbitrary: objectOf(json) },
  { weight: 3, arbitrary: fc.tuple(metaText, objectOf(json)).map(([meta, rest]) => withMember('_meta', meta, rest)) },
  { weight: 2, arbitrary: fc.constantFrom(...TOOLS).chain((name) => objectOf(json).map((args) => `{"name":${str(name)},"arguments":${args}}`)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('uri', 'level', 'cursor', 'name'), stringText).map(([k, v]) => `{${str(k)}:${v}}`) },
  { weight: 1, arbitrary: json }
)
const idText = fc.oneof(
  { weight: 4, arbitrary: fc.integer().map(String) },
  { weight: 3, arbitrary: stringText },
  { weight: 2, arbitrary: numberText },
  { weight: 1, arbitrary: json }
)
const methodText = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...METHODS) }, { weight: 2, arbitrary: fc.constantFrom(...NEAR_MISSES) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }).map(str)

/** Now and then a member that no JSON-RPC message has, to check the envelope stays strict. */
const extraMember = fc.oneof(
  { weight: 19, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'extra', 'result'), json).map(([k, v]) => `,${str(k)}:${v}`) }
)
const member = (name: string, text: string | null) => (text === null ? '' : `,${str(name)}:${text}`)

const message = fc.oneof(
  { weight: 8, arbitrary: fc.record({ id: idText, method: methodText, params: fc.option(paramsText, { freq: 5 }), extra: extraMember }).map((m) => `{"jsonrpc":"2.0"${member('id', m.id)}${member('method', m.method)}${member('params', m.params)}${m.extra}}`) },
  { weight: 1, arbitrary: fc.record({ method: methodText, params: fc.option(paramsText, { freq: 5 }), extra: extraMember }).map((m) => `{"jsonrpc":"2.0"${member('method', m.method)}${member('params', m.params)}${m.extra}}`) },
  { weight: 1, arbitrary: fc.record({ id: idText, outcome: fc.constantFrom('result', 'error'), value: fc.oneof(json, objectOf(json), stringText.map((m) => `{"code":-1,"message":${m}}`)) }).map((m) => `{"jsonrpc":"2.0","id":${m.id},${str(m.outcome)}:${m.value}}`) }
)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
/** 400 and 413 are refusals (-32600, id null); a 200 carries a result, if allowed, or an error with one of `codes`. */
type Expected = { status: 202 | 400 | 413 } | { status: 200; id: Json; result: boolean; codes: number[]; about?: RegExp }

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isId = (v: unknown) => typeof v === 'string' || Number.isSafeInteger(v)
const hasOnly = (o: object, keys: string[]) => Object.keys(o).every((k) => keys.includes(k))
const nests = (v: unknown, limit: number): boolean => typeof v !== 'object' || v === null || (limit > 0 && Object.values(v).every((x) => nests(x, limit - 1)))

/** The spec's general fields of _meta: progressToken a string or integer, a related task an object with a string taskId. */
function metaIsValid(meta: unknown): boolean {
  if (meta === undefined) return true
  if (!isObject(meta)) return false
  const token = meta.progressToken
  const task = meta['io.modelcontextprotocol/related-task']
  return (token === undefined || isId(token)) && (task === undefined || (isObject(task) && typeof task.taskId === 'string'))
}

/** What the server must answer, from JSON-RPC 2.0, MCP 2025-06-18 and the streamable HTTP transport. */
function expect(text: string): Expected {
  if (Buffer.byteLength(text) > 256 * 1024) return { status: 413 }
  const m = JSON.parse(text) as Json
  if (!isObject(m) || m.jsonrpc !== '2.0') return { status: 400 }
  if ('method' in m) return expectCall(m)
  const result = hasOnly(m, ['jsonrpc', 'id', 'result']) && isId(m.id) && isObject(m.result)
  const error = hasOnly(m, ['jsonrpc', 'id', 'error']) && (m.id === null || isId(m.id)) && isObject(m.error) && Number.isSafeInteger(m.error.code) && typeof m.error.message === 'string'
  return { status: result || error ? 202 : 400 }
}

function expectCall(m: Record<string, Json>): Expected {
  if (!hasOnly(m, ['jsonrpc', 'id', 'method', 'params']) || typeof m.method !== 'string') return { status: 400 }
  if (!('id' in m)) return { status: 202 }
  if (!isId(m.id) || m.method === 'initialize') return { status: 400 }
  const id = m.id === 0 ? 0 : m.id // -0 comes back as 0: JSON writes them alike
  // Params that are not an object are still a request's params: invalid ones, answered with the request's id.
  if (m.params !== undefined && !isObject(m.params)) return { status: 200, id, result: false, codes: [-32602], about: /params/ }
  // A __proto__ member of params is not a parameter: it never reaches a method, so it cannot make params invalid.
  const params = Object.fromEntries(Object.entries(m.params ?? {}).filter(([k]) => k !== '__proto__'))
  if (!metaIsValid(params._meta) || !nests(params, MAX_DEPTH)) return { status: 200, id, result: false, codes: [-32602], about: /params/ }
  if (!METHODS.includes(m.method)) return { status: 200, id, result: false, codes: [-32601] }
  // A known method answers a result, or invalid params, or (resources) an unknown URI: never an internal error.
  return { status: 200, id, result: true, codes: [-32602, -32002] }
}

interface Answer {
  status: number
  type: string | undefined
  body: string
}

function send(body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${svc.url}/mcp`, { method: 'POST', agent, headers: { ...MCP_HEADERS, 'mcp-session-id': session }, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', (err) => reject(err.name === 'AbortError' ? new Error(`no answer within ${ANSWER_WITHIN_MS} ms`) : err))
    req.end(body)
  })
}

/** Checks the answer against what was expected; returns what kind of answer it was: a status, 'result' or an error code. */
function check(sent: string, expected: Expected, answer: Answer): string {
  const about = `${sent.slice(0, 300)} => ${answer.status} ${answer.body.slice(0, 300)}`
  assert.equal(answer.status, expected.status, about)
  if (expected.status === 202) {
    assert.equal(answer.body, '', about)
    return '202'
  }
  assert.match(String(answer.type), /^application\/json/, about)
  const body = JSON.parse(answer.body)
  if (expected.status !== 200) {
    assert.deepEqual([body.jsonrpc, body.id, body.error?.code], ['2.0', null, -32600], about)
    return String(expected.status)
  }
  assert.equal(body.jsonrpc, '2.0', about)
  assert.deepEqual(body.id, expected.id, about)
  assert.ok(('result' in body) !== ('error' in body), about)
  if ('result' in body) {
    assert.ok(expected.result && isObject(body.result), about)
    return 'result'
  }
  assert.ok(expected.codes.includes(body.error.code), about)
  assert.ok(typeof body.error.message === 'string' && body.error.message.length > 0, about)
  if (expected.about) assert.match(body.error.message, expected.about, about)
  return String(body.error.code)
}

test('every generated message in a session gets exactly one well-formed answer within 1 s, and nothing is left in flight', async () => {
  const seen = new Map<string, number>()
  await fc.assert(
    fc.asyncProperty(message, async (text) => {
      const kind = check(text, expect(text), await send(text))
      seen.set(kind, (seen.get(kind) ?? 0) + 1)
    }),
    { seed: 20_250_618, numRuns: 5000 }
  )
  // Every kind of answer came up often, so no branch of expect() went untested.
  for (const kind of ['result', '202', '400', '-32601', '-32602']) assert.ok((seen.get(kind) ?? 0) >= 100, `${kind}: ${JSON.stringify([...seen])}`)
  assert.equal(svc.service.mcp.stats.inFlight, 0)
  const ping = await send('{"jsonrpc":"2.0","id":"after","method":"ping"}')
  assert.deepEqual(JSON.parse(ping.body), { jsonrpc: '2.0', id: 'after', result: {} })
  const call = await send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_business","arguments":{}}}')
  assert.ok(JSON.parse(call.body).result.structuredContent.business.name)
  assert.equal(svc.service.mcp.stats.live, 1)
})
