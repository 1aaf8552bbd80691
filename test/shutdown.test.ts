import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { testDatabaseUrl } from './helpers/database.js'
import { get } from './helpers/http.js'
import { exchange, requestHead, responses } from './helpers/raw-http.js'
import { startServerProcess } from './helpers/processes.js'

/*
 * Without a bound on draining, a connection that never sends a request (HTTP clients open spare ones ahead of need)
 * holds a stopping server until Node's header timeout, about 70 s. The bound is 3 s; 20 s leaves room for a slow
 * machine while still failing on the unbounded wait.
 */
test('SIGTERM stops the server within seconds though a client holds a connection it never used', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'shutdown-'))
  const server = await startServerProcess({ DATABASE_URL: await testDatabaseUrl(dir) })
  const { port } = new URL(server.url)
  const idle = connect(Number(port), '127.0.0.1')
  await new Promise<void>((ok, fail) => idle.once('connect', ok).once('error', fail))
  assert.equal((await get(`${server.url}/reviews.json`)).status, 200)
  const started = Date.now()
  const code = await Promise.race([server.stop('SIGTERM'), new Promise<string>((ok) => setTimeout(() => ok('still running'), 20_000).unref())])
  idle.destroy()
  if (code === 'still running') server.child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
  assert.equal(code, 0, `exit after ${Date.now() - started} ms`)
})

test('SIGTERM ends the kept-alive connections the front door answered itself, and the server exits within seconds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'shutdown-'))
  const server = await startServerProcess({ DATABASE_URL: await testDatabaseUrl(dir) })
  // Answered on the fast path, then kept alive: the connection is closed by the stop, not by the client.
  const kept = exchange(server.url, [requestHead('GET /reviews.json HTTP/1.1', 'Host: reviews.test')], { timeoutMs: 30_000 })
  await new Promise((r) => setTimeout(r, 200))
  const started = Date.now()
  const code = await Promise.race([server.stop('SIGTERM'), new Promise<string>((ok) => setTimeout(() => ok('still running'), 20_000).unref())])
  if (code === 'still running') server.child.kill('SIGKILL')
  const answers = responses(await kept, ['GET'])
  rmSync(dir, { recursive: true, force: true })
  assert.equal(code, 0, `exit after ${Date.now() - started} ms`)
  assert.equal(answers[0]?.status, 200)
})
