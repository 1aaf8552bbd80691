import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { createPostgresDatabase } from './helpers/database.js'
import { freePort, get, request } from './helpers/http.js'
import { startServerProcess } from './helpers/processes.js'
import { startTestService } from './helpers/service.js'
import { waitFor } from './helpers/websub.js'

/**
 * /healthz and /readyz: what a load balancer or an orchestrator asks. /healthz is 200 while the process lives;
 * /readyz is 200 only while the node serves data: not while it starts, not while its database does not answer, not
 * while it drains.
 */

test('a serving node: /healthz and /readyz 200 (GET and HEAD), no-store, anything but GET or HEAD is 405', async () => {
  const s = await startTestService()
  try {
    for (const path of ['/healthz', '/readyz', '/readyz?verbose=1']) {
      const r = await get(`${s.url}${path}`)
      assert.equal(r.status, 200, path)
      assert.equal(r.headers['cache-control'], 'no-store')
      assert.equal((await request('HEAD', `${s.url}${path}`)).status, 200)
    }
    assert.deepEqual((await get(`${s.url}/readyz`)).json(), { status: 'ready' })
    const post = await request('POST', `${s.url}/healthz`)
    assert.equal(post.status, 405)
    assert.equal(post.headers.allow, 'GET, HEAD')
  } finally {
    await s.stop()
  }
})

/**
 * A TCP relay in front of the test cluster's PostgreSQL, on a port of its own: closed, the database is unreachable
 * for the node (connections refused); open, it answers; `cut()` drops every relayed connection at once.
 */
class Relay {
  private server: Server | undefined
  private readonly sockets = new Set<Socket>()

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number }
  ) {}

  static async onFreePort(target: { host: string; port: number }): Promise<Relay> {
    return new Relay(await freePort(), target)
  }

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host)
      for (const s of [client, upstream]) {
        this.sockets.add(s)
        s.on('close', () => this.sockets.delete(s))
        s.on('error', () => undefined)
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((ok) => this.server!.listen(this.port, '127.0.0.1', ok))
  }

  async close(): Promise<void> {
    this.cut()
    await new Promise<void>((ok) => (this.server ? this.server.close(() => ok()) : ok()))
    this.server = undefined
  }

  cut(): void {
    for (const s of this.sockets) s.destroy()
  }
}

test('/readyz is 503 while the node starts without a database, 200 once it serves, 503 while the database is away, 200 again when it is back', async () => {
  const direct = new URL(await createPostgresDatabase())
  const relay = await Relay.onFreePort({ host: direct.hostname, port: Number(direct.port) })
  const viaRelay = new URL(direct.href)
  viaRelay.port = String(relay.port)
  const server = await startServerProcess({ DATABASE_URL: viaRelay.href, POLL_INTERVAL_MS: '100' }, { until: 'listening; loading the data' })
  try {
    const url = `http://127.0.0.1:${(server.logs.find((l) => l.msg === 'listening; loading the data') as { port: number }).port}`
    assert.equal((await get(`${url}/healthz`)).status, 200, 'alive while it waits for the database')
    const starting = await get(`${url}/readyz`)
    assert.equal(starting.status, 503)
    assert.match(starting.json().reason, /starting/)
    const early = await get(`${url}/reviews.json`)
    assert.equal(early.status, 503)
    assert.equal(early.headers['retry-after'], '1')
    await waitFor('a retry while the database does not answer', () => server.logs.some((l) => l.msg === 'the database does not answer yet'))

    await relay.open()
    await waitFor('the node to serve', async () => (await get(`${url}/readyz`)).status === 200, 20_000)
    assert.equal((await get(`${url}/reviews.json`)).status, 200)

    await relay.close()
    await waitFor('/readyz to notice the database is gone', async () => (await get(`${url}/readyz`)).status === 503, 10_000)
    assert.match((await get(`${url}/readyz`)).json().reason, /database/)
    assert.equal((await get(`${url}/reviews.json`)).status, 200, 'the snapshot in memory is still served')
    assert.equal((await get(`${url}/healthz`)).status, 200)

    await relay.open()
    await waitFor('/readyz to recover', async () => (await get(`${url}/readyz`)).status === 200, 15_000)
  } finally {
    await server.stop('SIGKILL')
    await relay.close()
  }
})

test('on SIGTERM with SHUTDOWN_GRACE_MS the node keeps serving with /readyz at 503, then exits 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'drain-'))
  const server = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, 'reviews.db')}`, SHUTDOWN_GRACE_MS: '1500' })
  try {
    const exited = server.stop('SIGTERM')
    await waitFor('/readyz to say draining', async () => (await get(`${server.url}/readyz`)).status === 503, 1000)
    const draining = await get(`${server.url}/readyz`)
    assert.match(draining.json().reason, /draining/)
    assert.equal((await get(`${server.url}/reviews.json`)).status, 200, 'still serving during the grace period')
    assert.equal(await exited, 0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
