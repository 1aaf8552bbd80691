import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { after, before, describe, test } from 'node:test'
import { request } from './helpers/http.js'
import { INITIALIZE, MCP_HEADERS, openSession, post } from './helpers/mcp.js'
import { startTestService, type TestService } from './helpers/service.js'

let svc: TestService

before(async () => {
  svc = await startTestService({ env: { BASE_URL: 'https://reviews.test', MCP_ALLOWED_ORIGINS: 'https://app.example' } })
})
after(() => svc.stop())

const withSession = (session: string, extra: Record<string, string> = {}) => ({ ...MCP_HEADERS, 'mcp-session-id': session, ...extra })
const ping = (id: number | string = 7) => ({ jsonrpc: '2.0', id, method: 'ping' })

/** Every HTTP-level refusal is a JSON-RPC error object with a null id, never an HTML page. */
function rpcError(r: { status: number; headers: Record<string, unknown>; json(): any }, status: number, code: number): string {
  assert.equal(r.status, status)
  assert.match(String(r.headers['content-type']), /^application\/json/)
  const body = r.json()
  assert.equal(body.jsonrpc, '2.0')
  assert.equal(body.id, null)
  assert.equal(body.error.code, code)
  return body.error.message
}

describe('sessions', () => {
  test('initialize answers with a secure random Mcp-Session-Id of visible ASCII, as plain JSON', async () => {
    const a = await post(svc.url, INITIALIZE)
    const b = await post(svc.url, INITIALIZE)
    assert.equal(a.status, 200)
    assert.match(String(a.headers['content-type']), /^application\/json/)
    const id = String(a.headers['mcp-session-id'])
    assert.match(id, /^[\x21-\x7e]{32,}$/)
    assert.notEqual(id, String(b.headers['mcp-session-id']))
    assert.equal(a.json().result.protocolVersion, '2025-06-18')
  })

  test('a protocol version the server does not know is answered with one it supports', async () => {
    const r = await post(svc.url, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2099-01-01' } })
    assert.equal(r.status, 200)
    assert.match(r.json().result.protocolVersion, /^\d{4}-\d\d-\d\d$/)
  })

  test('a later request without the session id is 400; an unknown id is 404', async () => {
    assert.match(rpcError(await post(svc.url, ping()), 400, -32000), /Mcp-Session-Id/)
    rpcError(await post(svc.url, ping(), withSession('no-such-session')), 404, -32001)
  })

  test('DELETE ends a session: 204, then its id is 404 for POST, GET and DELETE', async () => {
    const session = await openSession(svc.url)
    assert.equal((await post(svc.url, ping(), withSession(session))).status, 200)
    assert.equal((await request('DELETE', `${svc.url}/mcp`, { 'mcp-session-id': session })).status, 204)
    rpcError(await post(svc.url, ping(), withSession(session)), 404, -32001)
    rpcError(await request('GET', `${svc.url}/mcp`, { accept: 'text/event-stream', 'mcp-session-id': session }), 404, -32001)
    rpcError(await request('DELETE', `${svc.url}/mcp`, { 'mcp-session-id': session }), 404, -32001)
    rpcError(await request('DELETE', `${svc.url}/mcp`), 400, -32000)
  })

  test('initialize with a session id is refused: it always starts a new session', async () => {
    const session = await openSession(svc.url)
    rpcError(await post(svc.url, INITIALIZE, withSession(session)), 400, -32600)
  })
})

describe('messages', () => {
  test('a request gets its response as JSON with the same id', async () => {
    const session = await openSession(svc.url)
    const r = await post(svc.url, ping('abc'), withSession(session))
    assert.equal(r.status, 200)
    assert.deepEqual(r.json(), { jsonrpc: '2.0', id: 'abc', result: {} })
  })

  test('a notification or a response alone is 202 with no body', async () => {
    const session = await openSession(svc.url)
    const n = await post(svc.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, withSession(session))
    assert.equal(n.status, 202)
    assert.equal(n.body.length, 0)
    const r = await post(svc.url, { jsonrpc: '2.0', id: 5, result: {} }, withSession(session))
    assert.equal(r.status, 202)
    assert.equal(r.body.length, 0)
  })

  test('malformed JSON is 400 with JSON-RPC -32700, never an HTML page', async () => {
    const session = await openSession(svc.url)
    for (const body of ['{"jsonrpc": "2.0", "id": 1,', 'not json', '']) {
      assert.match(rpcError(await post(svc.url, body, withSession(session)), 400, -32700), /Parse error/)
    }
  })

  test('a batch is 400 with -32600: batching was removed in 2025-06-18', async () => {
    const session = await openSession(svc.url)
    assert.match(rpcError(await post(svc.url, [ping(1), ping(2)], withSession(session)), 400, -32600), /batch/)
    rpcError(await post(svc.url, [INITIALIZE]), 400, -32600)
  })

  test('JSON that is not a JSON-RPC message is 400 with -32600', async () => {
    const session = await openSession(svc.url)
    for (const body of [{ hello: 'world' }, { jsonrpc: '1.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: null, method: 'ping' }, { jsonrpc: '2.0', id: 1.5, method: 'ping' }, { jsonrpc: '2.0', id: 1, error: { code: 'x' } }, 42]) {
      rpcError(await post(svc.url, body, withSession(session)), 400, -32600)
    }
  })

  test('an unknown method is a JSON-RPC -32601 error in a 200 response', async () => {
    const session = await openSession(svc.url)
    const r = await post(svc.url, { jsonrpc: '2.0', id: 3, method: 'reviews/delete' }, withSession(session))
    assert.equal(r.status, 200)
    assert.equal(r.json().error.code, -32601)
  })

  test('params the SDK cannot take are -32602 with the request\'s own id, for any method; the id is free again at once', async () => {
    const session = await openSession(svc.url)
    const metas = [[], 'x', null, { progressToken: true }, { progressToken: 1.5 }, { progressToken: {} }, { 'io.modelcontextprotocol/related-task': 5 }]
    for (const method of ['tools/list', 'ping', 'reviews/delete']) {
      for (const _meta of metas) {
        const r = await post(svc.url, { jsonrpc: '2.0', id: 5, method, params: { _meta } }, withSession(session))
        assert.equal(r.status, 200, `${method} ${JSON.stringify(_meta)}`)
        const { id, error } = r.json()
        assert.equal(id, 5)
        assert.equal(error.code, -32602)
        assert.match(error.message, /params\._meta/)
      }
    }
    const deep = JSON.stringify({ d: Array.from({ length: 40 }).reduce<unknown>((inner) => [inner], 1) })
    const r = await post(svc.url, `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"get_business","arguments":${deep}}}`, withSession(session))
    assert.match(r.json().error.message, /nest deeper than 32/)
    assert.deepEqual((await post(svc.url, ping(5), withSession(session))).json(), { jsonrpc: '2.0', id: 5, result: {} })
    assert.equal(svc.service.mcp.stats.inFlight, 0)
  })

  test('an initialize the SDK cannot take is -32602 and starts no session', async () => {
    const before = svc.service.mcp.stats.created
    const r = await post(svc.url, { ...INITIALIZE, params: { ...INITIALIZE.params, _meta: [] } })
    assert.equal(r.status, 200)
    assert.equal(r.json().error.code, -32602)
    assert.equal(r.headers['mcp-session-id'], undefined)
    assert.equal(svc.service.mcp.stats.created, before)
  })

  test('a task-augmented request is processed normally: this server declares no task support', async () => {
    const session = await openSession(svc.url)
    const r = await post(svc.url, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'get_business', arguments: {}, task: { ttl: 1000 } } }, withSession(session))
    assert.equal(r.json().result.isError, undefined)
    assert.ok(r.json().result.structuredContent)
  })

  test('a notification or response of any shape is 202 and leaves nothing behind', async () => {
    const session = await openSession(svc.url)
    const deep = '['.repeat(50_000) + ']'.repeat(50_000)
    for (const body of [
      { jsonrpc: '2.0', method: 'notifications/whatever', params: { _meta: [] } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { x: 1 } } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: [], progress: 'x' } },
      { jsonrpc: '2.0', id: 'nobody-asked', result: { _meta: 'x' } },
      { jsonrpc: '2.0', id: 8, error: { code: 1, message: 'x', data: [] } },
      `{"jsonrpc":"2.0","method":"notifications/x","params":{"_meta":[],"d":${deep}}}`,
      `{"jsonrpc":"2.0","id":9,"result":{"d":${deep}}}`,
      { jsonrpc: '2.0', method: 'notifications/whatever', params: [] },
      { jsonrpc: '2.0', method: 'notifications/whatever', params: 'x' }
    ]) {
      const r = await post(svc.url, body, withSession(session))
      assert.equal(r.status, 202, typeof body === 'string' ? body.slice(0, 80) : JSON.stringify(body))
      assert.equal(r.body.length, 0)
    }
    assert.equal((await post(svc.url, ping(), withSession(session))).status, 200)
    assert.equal(svc.service.mcp.stats.inFlight, 0)
  })

  test('a request whose params are not an object is -32602 with its own id, for any method', async () => {
    const session = await openSession(svc.url)
    for (const params of [[], [1, 2], 'x', 5, true, null]) {
      for (const method of ['ping', 'tools/list', 'no/such/method']) {
        const r = await post(svc.url, { jsonrpc: '2.0', id: 'p', method, params }, withSession(session))
        assert.equal(r.status, 200)
        assert.deepEqual([r.json().id, r.json().error.code], ['p', -32602], JSON.stringify(params))
        assert.match(r.json().error.message, /params/)
      }
    }
    assert.equal(svc.service.mcp.stats.inFlight, 0)
  })

  test('invalid params for a method are -32602', async () => {
    const session = await openSession(svc.url)
    for (const [method, params] of [['resources/read', {}], ['tools/call', { arguments: {} }], ['prompts/get', { name: 5 }], ['logging/setLevel', { level: 'loud' }]] as const) {
      const r = await post(svc.url, { jsonrpc: '2.0', id: 4, method, params }, withSession(session))
      assert.equal(r.json().error?.code, -32602, method)
    }
  })
})

describe('headers', () => {
  test('an unsupported MCP-Protocol-Version is 400; a missing one is tolerated', async () => {
    const session = await openSession(svc.url)
    assert.match(rpcError(await post(svc.url, ping(), withSession(session, { 'mcp-protocol-version': '1999-01-01' })), 400, -32000), /1999-01-01/)
    assert.equal((await post(svc.url, ping(), withSession(session, { 'mcp-protocol-version': '2025-06-18' }))).status, 200)
    assert.equal((await post(svc.url, ping(), withSession(session))).status, 200)
    rpcError(await request('GET', `${svc.url}/mcp`, { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': 'x' }), 400, -32000)
  })

  test('an Origin that is not allowed is 403; the public origin and configured ones are allowed, with CORS headers', async () => {
    assert.match(rpcError(await post(svc.url, INITIALIZE, { ...MCP_HEADERS, origin: 'https://evil.example' }), 403, -32000), /evil/)
    rpcError(await post(svc.url, INITIALIZE, { ...MCP_HEADERS, origin: 'null' }), 403, -32000)
    for (const origin of ['https://reviews.test', 'https://app.example']) {
      const r = await post(svc.url, INITIALIZE, { ...MCP_HEADERS, origin })
      assert.equal(r.status, 200, origin)
      assert.equal(r.headers['access-control-allow-origin'], origin)
      assert.match(String(r.headers['access-control-expose-headers']), /Mcp-Session-Id/)
    }
    const session = await openSession(svc.url)
    rpcError(await post(svc.url, ping(), withSession(session, { origin: 'https://evil.example' })), 403, -32000)
    rpcError(await request('DELETE', `${svc.url}/mcp`, { 'mcp-session-id': session, origin: 'https://evil.example' }), 403, -32000)
  })

  test('CORS preflight: allowed origins get the methods and headers, others 403', async () => {
    const ok = await request('OPTIONS', `${svc.url}/mcp`, { origin: 'https://app.example', 'access-control-request-method': 'POST' })
    assert.equal(ok.status, 204)
    assert.match(String(ok.headers['access-control-allow-headers']), /Mcp-Session-Id/)
    assert.equal((await request('OPTIONS', `${svc.url}/mcp`, { origin: 'https://evil.example' })).status, 403)
  })

  test('POST must accept JSON and SSE (406) and send application/json (415)', async () => {
    rpcError(await post(svc.url, INITIALIZE, { 'content-type': 'application/json', accept: 'application/json' }), 406, -32000)
    rpcError(await post(svc.url, INITIALIZE, { 'content-type': 'application/json' }), 406, -32000)
    rpcError(await post(svc.url, INITIALIZE, { accept: MCP_HEADERS.accept, 'content-type': 'text/plain' }), 415, -32000)
    rpcError(await post(svc.url, INITIALIZE, { accept: MCP_HEADERS.accept }), 415, -32000)
  })

  test('a message over 256 KiB is 413 with a JSON-RPC error', async () => {
    const big = { ...ping(), params: { pad: 'x'.repeat(300 * 1024) } }
    assert.match(rpcError(await post(svc.url, big), 413, -32600), /too large/)
  })

  test('other methods are 405 with Allow', async () => {
    const r = await request('PUT', `${svc.url}/mcp`, MCP_HEADERS, '{}')
    assert.equal(r.status, 405)
    assert.match(String(r.headers.allow), /GET/)
    assert.match(String(r.headers.allow), /POST/)
    assert.match(String(r.headers.allow), /DELETE/)
  })
})

describe('the GET stream', () => {
  test('GET needs Accept: text/event-stream (406) and a session (400/404)', async () => {
    const session = await openSession(svc.url)
    rpcError(await request('GET', `${svc.url}/mcp`, { accept: 'application/json', 'mcp-session-id': session }), 406, -32000)
    rpcError(await request('GET', `${svc.url}/mcp`, { accept: 'text/event-stream' }), 400, -32000)
  })

  test('opens an SSE stream; a second one for the same session is 409', async () => {
    const session = await openSession(svc.url)
    const first = await openStream(session)
    assert.equal(first.status, 200)
    assert.equal(first.contentType, 'text/event-stream')
    rpcError(await request('GET', `${svc.url}/mcp`, { accept: 'text/event-stream', 'mcp-session-id': session }), 409, -32000)
    first.close()
  })
})

/** Opens the GET stream and returns once the headers arrive (the body stays open). */
function openStream(session: string): Promise<{ status: number; contentType: string; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session }, agent: false }, (res) => {
      resolve({ status: res.statusCode!, contentType: String(res.headers['content-type']), close: () => req.destroy() })
    })
    req.on('error', reject)
    req.end()
  })
}

describe('limits', () => {
  test('idle sessions expire (404), and the number of live sessions is bounded (503 with Retry-After)', async () => {
    const small = await startTestService({ env: { MCP_MAX_SESSIONS: '2', MCP_SESSION_IDLE_S: '1' } })
    try {
      const a = await openSession(small.url)
      await openSession(small.url)
      const full = await post(small.url, INITIALIZE)
      assert.match(rpcError(full, 503, -32000), /Too many/)
      assert.equal(full.headers['retry-after'], '60')
      await new Promise((ok) => setTimeout(ok, 1600))
      rpcError(await post(small.url, ping(), withSession(a)), 404, -32001)
      assert.equal((await post(small.url, INITIALIZE)).status, 200)
      const stats = small.service.mcp.stats
      assert.deepEqual([stats.created, stats.refusedFull], [3, 1])
      assert.ok(stats.expired >= 1 && stats.live <= 2, JSON.stringify(stats))
    } finally {
      await small.stop()
    }
  })

  test('a session with an open stream does not expire while the stream is open', async () => {
    const small = await startTestService({ env: { MCP_SESSION_IDLE_S: '1' } })
    try {
      const session = await openSession(small.url)
      const req = httpRequest(`${small.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session }, agent: false })
      req.end()
      await new Promise((ok) => req.once('response', ok))
      await new Promise((ok) => setTimeout(ok, 1600))
      assert.equal((await post(small.url, ping(), withSession(session))).status, 200)
      req.destroy()
    } finally {
      await small.stop()
    }
  })
})
