import assert from 'node:assert/strict'
import { createServer, type Server, type Socket } from 'node:net'
import { after, before, test } from 'node:test'
import { exchange, requestHead, responses } from '../../test/helpers/raw-http.js'
import { represent, type Representation } from '../snapshot/index.js'
import { FastPath, type PathRoute } from './fast-path.js'
import { RequestIds } from './request-ids.js'

/**
 * Which requests the fast path answers itself and what it hands to node:http, on real sockets. Here the "node:http"
 * it hands to is a stand-in that records the bytes it is given and answers 299 with them; test/fast-path.test.ts
 * checks the whole service, where it is node:http and the app.
 */
let server: Server
let url: string
let fast: FastPath
const handedOff: string[] = []
const recorded: { method: string; id: string; status: number; bytes: number }[] = []
let rep: Representation
let building: Promise<Representation> | undefined

before(async () => {
  rep = await represent(JSON.stringify({ hello: 'world'.repeat(200) }), { contentType: 'application/json', lastModified: new Date('2026-11-24T10:00:00Z') })
  const record: PathRoute['record'] = (method, id, status, _seconds, bytes) => recorded.push({ method, id, status, bytes })
  const routes = new Map<string, PathRoute>([
    ['/data.json', { current: () => rep, record }],
    ['/later.json', { current: () => (building ??= new Promise(() => {})), record: undefined }]
  ])
  fast = new FastPath({ routes, ids: new RequestIds(), firstRequestMs: 400, keepAliveMs: 300, handOff })
  server = createServer((socket) => fast.adopt(socket))
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
after(() => {
  fast.closeAll()
  server.close()
})

/** The stand-in for node:http: whatever it is given, it answers 299 with those bytes as the body, and closes. */
function handOff(socket: Socket, unread: Buffer | undefined): void {
  let got = unread?.toString('latin1') ?? ''
  const answer = () => {
    handedOff.push(got)
    socket.end(`HTTP/1.1 299 Handed\r\ncontent-length: ${Buffer.byteLength(got, 'latin1')}\r\n\r\n${got}`, 'latin1')
  }
  const complete = () => /\n\r?\n$/.test(got)
  if (complete()) return answer()
  socket.on('data', (c: Buffer) => {
    got += c.toString('latin1')
    if (complete()) answer()
  })
}

const get = (path: string, ...fields: string[]) => requestHead(`GET ${path} HTTP/1.1`, 'Host: test', ...fields)

test('requests for a known path are answered here, pipelined ones in order, each recorded with its id and status', async () => {
  const etag = rep.variants.gzip!.etag
  const bytes = await exchange(url, [get('/data.json', 'Accept-Encoding: gzip') + get('/data.json', 'Accept-Encoding: gzip', `If-None-Match: ${etag}`, 'X-Request-Id: mine-1') + requestHead('HEAD /data.json HTTP/1.1', 'Host: test') + get('/other', 'Connection: close')])
  const [ok, notModified, head, other] = responses(bytes, ['GET', 'GET', 'HEAD', 'GET'])
  assert.equal(ok!.status, 200)
  assert.deepEqual(ok!.body, rep.variants.gzip!.body)
  assert.equal(notModified!.status, 304)
  assert.ok(notModified!.fields.includes('x-request-id: mine-1'))
  assert.equal(head!.status, 200)
  assert.equal(head!.body.length, 0)
  assert.ok(head!.fields.includes(`content-length: ${rep.variants.identity.body.length}`))
  assert.equal(other!.status, 299, 'the fourth request went to node:http')
  assert.equal(other!.body.toString('latin1'), get('/other', 'Connection: close'), 'with its bytes exactly, from its first byte')
  assert.deepEqual(recorded.slice(-3).map(({ method, status }) => [method, status]), [['GET', 200], ['GET', 304], ['HEAD', 200]])
  assert.equal(recorded.at(-2)!.id, 'mine-1')
})

test('everything it does not answer goes to node:http from its first byte, with the connection', async () => {
  const cases: Record<string, string> = {
    'an unknown path': get('/other'),
    'a query string': get('/data.json?x=1'),
    'a failed precondition (412, the app writes its error document)': get('/data.json', 'If-Match: "nope"'),
    'a representation still being built': get('/later.json'),
    'another method': requestHead('DELETE /data.json HTTP/1.1', 'Host: test'),
    'a malformed head': 'GET /data.json HTTP/1.1\nHost: test\n\n'
  }
  for (const [why, request] of Object.entries(cases)) {
    const [answer] = responses(await exchange(url, [request]), ['GET'])
    assert.equal(answer!.status, 299, why)
    assert.equal(answer!.body.toString('latin1'), request, why)
  }
})

test('a request cut across two reads goes to node:http with the part already read', async () => {
  const request = get('/data.json')
  const [answer] = responses(await exchange(url, [request.slice(0, 10), request.slice(10)], { gapMs: 100 }), ['GET'])
  assert.equal(answer!.status, 299)
  assert.equal(answer!.body.toString('latin1'), request)
})

test('an idle connection is closed after the keep-alive time, one that never sends after the first-request time', async () => {
  let started = Date.now()
  const bytes = await exchange(url, [get('/data.json')])
  assert.equal(responses(bytes, ['GET'])[0]!.status, 200)
  assert.ok(Date.now() - started >= 250, 'closed after about keepAliveMs of idleness')
  started = Date.now()
  assert.equal((await exchange(url, [])).length, 0)
  assert.ok(Date.now() - started >= 350, 'closed after about firstRequestMs')
})

test('closeIdle ends its connections once what was written is sent', async () => {
  const pending = exchange(url, [get('/data.json')], { timeoutMs: 5000 })
  await new Promise((r) => setTimeout(r, 100))
  const before = Date.now()
  fast.closeIdle()
  const bytes = await pending
  assert.ok(Date.now() - before < 250, 'ended at once, not at the keep-alive timeout')
  assert.equal(responses(bytes, ['GET'])[0]!.status, 200)
})
