import assert from 'node:assert/strict'
import { createServer, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { SessionTransport } from './transport.js'

/** Two requests on a real loopback server; `handle` gets each one's response object. */
async function twoRequests(handle: (res: ServerResponse, n: number) => void): Promise<{ status: number; body: string }[]> {
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
    return await Promise.all([one(), one()])
  } finally {
    server.close()
  }
}

const ping = { jsonrpc: '2.0' as const, id: 1, method: 'ping' }

test('a second request with an id still in flight is refused, and the first still gets its answer', async () => {
  const transport = new SessionTransport('s1')
  const accepted: boolean[] = []
  const replies = await twoRequests((res, n) => {
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
  const replies = await twoRequests((res, n) => {
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
