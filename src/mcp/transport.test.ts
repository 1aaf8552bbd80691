import assert from 'node:assert/strict'
import { createServer, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { SessionTransport } from './transport.js'

/** `count` requests (two unless told) on a real loopback server; `handle` gets each one's response object. */
async function serveRequests(handle: (res: ServerResponse, n: number) => void, count = 2): Promise<{ status: number; body: string }[]> {
  let n = 0
  const server = createServer((_req, res) => handle(res, n++))
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  const one = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      request({ port, host: '127.0.0.1', agent: false }, (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
        .on('error', reject)
        .end()
    })
  try {
    return await Promise.all(Array.from({ length: count }, one))
  } finally {
    server.close()
  }
}

const ping = { jsonrpc: '2.0' as const, id: 1, method: 'ping' }

test('a second request with an id still in flight is refused, and the first still gets its answer', async () => {
  const transport = new SessionTransport('s1')
  const accepted: boolean[] = []
  const replies = await serveRequests((res, n) => {
    accepted.push(transport.request(ping, res, {}))
    if (n === 0) return
    res.writeHead(400).end('refused')
    void transport.send({ jsonrpc: '2.0', id: 1, result: {} })
  })
  assert.deepEqual(accepted, [true, false])
  assert.deepEqual(replies.map((r) => r.status).sort(), [200, 400])
  assert.deepEqual(JSON.parse(replies.find((r) => r.status === 200)!.body), { jsonrpc: '2.0', id: 1, result: {} })
})

test('messages related to a request turn its answer into an SSE stream that ends with the response', async () => {
  const transport = new SessionTransport('s2')
  const replies = await serveRequests((res, n) => {
    const id = n + 10
    transport.request({ ...ping, id }, res, {})
    if (n === 1) void transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 50 } }, { relatedRequestId: id })
    void transport.send({ jsonrpc: '2.0', id, result: {} } as JSONRPCMessage)
  })
  const [plain, streamed] = replies
  assert.deepEqual(JSON.parse(plain!.body), { jsonrpc: '2.0', id: 10, result: {} })
  assert.equal(streamed!.body, 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":50}}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":11,"result":{}}\n\n')
})

test('a response for a request whose client went away, or for no request, is dropped', async () => {
  const transport = new SessionTransport('s3')
  await assert.doesNotReject(transport.send({ jsonrpc: '2.0', id: 'gone', result: {} }))
  await assert.doesNotReject(transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }))
  assert.equal(transport.busy, false)
})

test('a request the server never answers gets -32603 with its id in bounded time, and the server is told it is cancelled', async () => {
  const transport = new SessionTransport('s4', { answerWithinMs: 50 })
  const seen: JSONRPCMessage[] = []
  const errors: Error[] = []
  transport.onmessage = (m) => seen.push(m)
  transport.onerror = (e) => errors.push(e)
  const started = Date.now()
  const [reply] = await serveRequests((res) => transport.request({ ...ping, id: 'lost' }, res, {}), 1)
  assert.ok(Date.now() - started < 1000)
  const body = JSON.parse(reply!.body)
  assert.equal(body.id, 'lost')
  assert.equal(body.error.code, -32603)
  assert.match(body.error.message, /did not answer within 0.05 s/)
  assert.equal(transport.pending, 0)
  assert.deepEqual(seen.at(-1), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'lost', reason: 'not answered in time' } })
  assert.equal(errors.length, 1)
  // The late answer has nowhere to go.
  await assert.doesNotReject(transport.send({ jsonrpc: '2.0', id: 'lost', result: {} }))
})

test('a server that throws while taking a request answers it -32603 at once; one that throws on a notification is reported', async () => {
  const transport = new SessionTransport('s5')
  const errors: Error[] = []
  transport.onerror = (e) => errors.push(e)
  transport.onmessage = () => {
    throw new RangeError('Maximum call stack size exceeded')
  }
  const [reply] = await serveRequests((res) => transport.request(ping, res, {}), 1)
  assert.deepEqual(JSON.parse(reply!.body).error, { code: -32603, message: 'Internal error: the server could not take the request (Maximum call stack size exceeded).' })
  assert.doesNotThrow(() => transport.deliver({ jsonrpc: '2.0', method: 'notifications/x' }, {}))
  assert.equal(errors.length, 2)
  assert.equal(transport.busy, false)
})

test('ids 5 and "5" are different requests, each answered with its own id; an answered request leaves no listener', async () => {
  const transport = new SessionTransport('s6')
  const listeners: number[] = []
  const replies = await serveRequests((res, n) => {
    const before = res.listenerCount('close')
    transport.request({ ...ping, id: n === 0 ? 5 : '5' }, res, {})
    if (n === 0) return
    assert.equal(transport.pending, 2)
    void transport.send({ jsonrpc: '2.0', id: '5', result: { text: 'string' } })
    void transport.send({ jsonrpc: '2.0', id: 5, result: { text: 'number' } })
    listeners.push(before, res.listenerCount('close'))
  })
  assert.deepEqual(replies.map((r) => JSON.parse(r.body)).sort((a, b) => String(a.result.text).localeCompare(b.result.text)), [
    { jsonrpc: '2.0', id: 5, result: { text: 'number' } },
    { jsonrpc: '2.0', id: '5', result: { text: 'string' } }
  ])
  assert.equal(listeners[0], listeners[1])
  assert.equal(transport.pending, 0)
})
