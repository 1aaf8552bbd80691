/**
 * WebSub fan-out benchmark: one change of the reviews fanned out to 1,000 and 10,000 HTTPS subscribers on loopback
 * (a subscriber process with a test CA; every subscriber is a callback path on it, counted per callback so a
 * duplicate shows), by 1, 2 and 3 nodes as separate processes on one PostgreSQL database (a throwaway cluster, or the
 * one at TEST_POSTGRES_URL), and by one node on SQLite as an extra row. Prints deliveries/s, the time from the
 * import's commit to the first and to the last delivery, duplicates, how the deliveries split over the nodes and each
 * node's peak memory, next to a baseline measured right after each fan-out: the same bytes POSTed to the same
 * callbacks by a bare undici client with as many connections as the nodes have together, without the hub.
 *
 * All subscribers are on one host, so a node sends over at most WEBSUB_CONNECTIONS_PER_HOST connections (default 8)
 * however high WEBSUB_CONCURRENCY is: the runs are repeated with it raised (BENCH_CONNECTIONS_PER_HOST).
 * Subscriptions are made through the hub (POST, verification of intent, for real) once per store and count; every
 * fan-out after that is one more import that all of them are owed. A fan-out during which other processes took more
 * than 5% of the machine's CPU (a test suite started meanwhile) is made again, up to twice.
 *
 *   npm run bench:websub
 *   BENCH_SUBSCRIBERS=1000 BENCH_NODES=1,3 BENCH_CONNECTIONS_PER_HOST=8 BENCH_SQLITE=false npm run bench:websub
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls'
import { Agent, request } from 'undici'
import { importFile } from '../src/ingest/index.js'
import { openStore } from '../src/store/index.js'
import { makeTestPki } from '../test/helpers/websub.js'
import { OtherLoad } from './lib/host.js'
import { benchPostgres } from './lib/postgres.js'
import { startProcess, startService, treeCpuMs, type Started } from './lib/processes.js'

const list = (v: string) => v.split(',').map(Number)
const COUNTS = list(process.env.BENCH_SUBSCRIBERS ?? '1000,10000')
const NODES = list(process.env.BENCH_NODES ?? '1,2,3')
const PER_HOST = list(process.env.BENCH_CONNECTIONS_PER_HOST ?? '8,64')
const SQLITE = process.env.BENCH_SQLITE !== 'false'
const TOPIC_PATH = process.env.BENCH_TOPIC ?? '/feed.xml'
/** WEBSUB_CONCURRENCY's default; raised with the per-host connections, which may not exceed it. */
const CONCURRENCY = 64
const BASE = 'https://reviews.bench'
/** Other processes' share of the machine's CPU above which a fan-out is made again (at most MAX_TRIES times). */
const MAX_OTHER_LOAD = 0.05
const MAX_TRIES = 3

interface SubscriberStats {
  verifications: number
  deliveries: number
  /** Distinct callbacks delivered to. */
  callbacks: number
  bytes: number
  first: number | null
  last: number | null
}

interface Setup {
  store: 'postgres' | 'sqlite'
  databaseUrl: string
  n: number
}

interface Row {
  store: string
  subscribers: number
  nodes: number
  perHost: number
  perSecond: number
  firstAfterMs: number
  toLastMs: number
  duplicates: number
  /** Acknowledged deliveries per node, from their logs. */
  split: number[]
  peakRssMb: number
  /** CPU of all nodes together per delivery. */
  cpuUsPerDelivery: number
  bytesPerDelivery: number
  baselinePerSecond: number
  /** Other processes' share of the machine's CPU during the fan-out and its baseline. */
  otherLoad: number
  /** Who the other processes were (for the log). */
  culprits: string
  tries: number
}

class Bench {
  readonly rows: Row[] = []
  private runs = 0

  constructor(
    private readonly dir: string,
    private readonly caFile: string,
    /** The test CA besides the system's, built once: given `ca`, every TLS connection would parse ~140 roots (46 ms). */
    private readonly tls: SecureContext,
    private readonly subUrl: string,
    private readonly client: Agent,
    /** Processes of the benchmark besides the nodes: the subscriber, the PostgreSQL server. */
    private readonly ours: () => number[]
  ) {}

  /** Subscribes `n` callbacks through one node's hub and waits until every one is verified and active. */
  async subscribe(setup: Setup): Promise<number> {
    const [node] = await this.startNodes(setup, 1, 8)
    try {
      const started = performance.now()
      const before = await this.stats()
      const callbacks = Array.from({ length: setup.n }, (_, i) => `${this.subUrl}/cb/${setup.store}/${setup.n}/${i}`)
      await inParallel(callbacks, 50, async (cb) => {
        const body = new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': `${BASE}${TOPIC_PATH}`, 'hub.callback': cb }).toString()
        const res = await request(`${node!.url}/api/websub/hub`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        await res.body.dump()
        if (res.statusCode !== 202) throw new Error(`subscribe answered ${res.statusCode}`)
      })
      await until(async () => (await this.stats()).verifications >= before.verifications + setup.n, 300_000)
      await until(async () => (await hubStats(node!.url)).active === setup.n, 60_000)
      return performance.now() - started
    } finally {
      await node!.stop()
    }
  }

  /** A fan-out, made again while other processes took too much of the machine. */
  async measure(setup: Setup, nodes: number, perHost: number): Promise<void> {
    for (let tries = 1; ; tries++) {
      const row = { ...(await this.fanOut(setup, nodes, perHost)), tries }
      console.error(`  ${describeRow(row)}${row.otherLoad > MAX_OTHER_LOAD ? `  others: ${row.culprits}` : ''}`)
      if (row.otherLoad <= MAX_OTHER_LOAD || tries === MAX_TRIES) {
        this.rows.push(row)
        return
      }
    }
  }

  /** One import, fanned out by `nodes` nodes; then the baseline with as many connections. */
  private async fanOut(setup: Setup, nodes: number, perHost: number): Promise<Omit<Row, 'tries'>> {
    const running = await this.startNodes(setup, nodes, perHost)
    try {
      const acknowledged = running.map(() => 0)
      running.forEach((node, i) =>
        node.onLog((e) => {
          if (e.msg === 'websub delivery acknowledged') acknowledged[i]!++
        })
      )
      await get(`${this.subUrl}/__reset`, this.client)
      for (const node of running) writeFileSync(`/proc/${node.child.pid}/clear_refs`, '5') // resets VmHWM (peak RSS)
      const nodesCpu = () => running.reduce((sum, node) => sum + treeCpuMs(node.child.pid!), 0)
      const others = new OtherLoad(() => [...this.ours(), ...running.map((node) => node.child.pid!)])
      others.start()
      const importedAt = await this.publish(setup.databaseUrl)
      // CPU from the first delivery on: before it, the nodes build the new snapshot, which is not the fan-out's cost.
      await until(async () => (await this.stats()).first !== null, 60_000)
      const cpuBefore = nodesCpu()
      await until(async () => (await this.stats()).deliveries >= setup.n, 300_000)
      // Everything acknowledged is recorded (and so not owed) before the nodes stop: then no duplicate can be pending.
      await until(async () => (await hubStats(running[0]!.url)).owed === 0, 60_000)
      const cpu = nodesCpu() - cpuBefore
      const fanned = await this.stats()
      const peakRssMb = Math.max(...running.map((node) => Number(readFileSync(`/proc/${node.child.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)![1]) / 1024))
      if (fanned.callbacks !== setup.n) throw new Error(`${setup.n} subscribers, ${fanned.callbacks} served`)
      const body = Buffer.from(await (await fetch(`${running[0]!.url}${TOPIC_PATH}`)).arrayBuffer())
      const baselinePerSecond = await this.baseline(setup, body, nodes * perHost)
      return {
        store: setup.store,
        subscribers: setup.n,
        nodes,
        perHost,
        perSecond: setup.n / ((fanned.last! - fanned.first!) / 1000),
        firstAfterMs: Math.round(fanned.first! - importedAt),
        toLastMs: Math.round(fanned.last! - importedAt),
        duplicates: fanned.deliveries - fanned.callbacks,
        split: acknowledged,
        peakRssMb: Math.round(peakRssMb),
        cpuUsPerDelivery: Math.round((cpu * 1000) / fanned.deliveries),
        bytesPerDelivery: Math.round(fanned.bytes / fanned.deliveries),
        baselinePerSecond,
        otherLoad: others.share(),
        culprits: others.culprits()
      }
    } finally {
      await Promise.all(running.map((node) => node.stop()))
    }
  }

  /** The same bytes to the same callbacks by a bare undici client: `connections` connections, as many in flight. */
  private async baseline(setup: Setup, body: Buffer, connections: number): Promise<number> {
    const client = new Agent({ connections, connect: { secureContext: this.tls } })
    try {
      await get(`${this.subUrl}/__reset`, this.client)
      const callbacks = Array.from({ length: setup.n }, (_, i) => `${this.subUrl}/cb/${setup.store}/${setup.n}/${i}`)
      await inParallel(callbacks, connections, async (cb) => {
        const res = await request(cb, { dispatcher: client, method: 'POST', body, headers: { 'content-type': 'application/atom+xml' } })
        await res.body.dump()
      })
      const base = await this.stats()
      return setup.n / ((base.last! - base.first!) / 1000)
    } finally {
      await client.close()
    }
  }

  /** `nodes` serve processes on the store, started together (the first one migrates and seeds; the others wait for it). */
  private startNodes(setup: Setup, nodes: number, perHost: number): Promise<Started[]> {
    const env = {
      BASE_URL: BASE,
      // info, as in production: every delivery attempt is logged.
      LOG_LEVEL: 'info',
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBSUB_EXTRA_CA_FILE: this.caFile,
      WEBSUB_MAX_PER_HOST: String(Math.max(...COUNTS) + 1),
      WEBSUB_RATE_PER_MIN: String(Math.max(...COUNTS) * 10),
      WEBSUB_CONCURRENCY: String(Math.max(CONCURRENCY, perHost)),
      WEBSUB_CONNECTIONS_PER_HOST: String(perHost)
    }
    return Promise.all(Array.from({ length: nodes }, () => startService(setup.databaseUrl, env)))
  }

  /** A change of the reviews, imported through the store as the CLI does; returns when it committed. */
  private async publish(databaseUrl: string): Promise<number> {
    const id = `bench-${++this.runs}`
    const file = join(this.dir, `${id}.json`)
    writeFileSync(file, JSON.stringify({ reviews: [{ id, author: 'Bench', rating: 5, date: '2026-11-20', text: 'Kind and clear.', source: 'bench', verified: true }] }))
    const store = await openStore(databaseUrl)
    try {
      await importFile(store, file, { replace: false })
      return performance.timeOrigin + performance.now()
    } finally {
      await store.close()
    }
  }

  private async stats(): Promise<SubscriberStats> {
    return JSON.parse(await get(`${this.subUrl}/__stats`, this.client)) as SubscriberStats
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-websub-'))
  const pki = makeTestPki(dir)
  writeFileSync(join(dir, 'key.pem'), pki.key)
  writeFileSync(join(dir, 'cert.pem'), pki.cert)
  const subscriber = await startProcess(['bench/lib/subscriber.mjs', join(dir, 'key.pem'), join(dir, 'cert.pem')])
  const tls = createSecureContext({ ca: [...rootCertificates, readFileSync(pki.caFile, 'utf8')] })
  const client = new Agent({ connections: 8, connect: { secureContext: tls } })
  const pg = await benchPostgres()
  const bench = new Bench(dir, pki.caFile, tls, subscriber.url.replace('http:', 'https:'), client, () => [subscriber.child.pid!, ...pg.pids()])
  const subscribing: string[] = []
  try {
    for (const n of COUNTS) {
      const setup: Setup = { store: 'postgres', databaseUrl: await pg.database(`websub_${n}`), n }
      subscribing.push(`${n} on PostgreSQL: ${((await bench.subscribe(setup)) / 1000).toFixed(1)} s`)
      for (const perHost of PER_HOST) for (const nodes of NODES) await bench.measure(setup, nodes, perHost)
      if (!SQLITE) continue
      const sqlite: Setup = { store: 'sqlite', databaseUrl: `sqlite:${join(dir, `hub-${n}.db`)}`, n }
      subscribing.push(`${n} on SQLite: ${((await bench.subscribe(sqlite)) / 1000).toFixed(1)} s`)
      for (const perHost of PER_HOST) await bench.measure(sqlite, 1, perHost)
    }
  } finally {
    await client.close()
    await subscriber.stop()
    pg.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  report(bench.rows, subscribing)
}

const WIDTHS = [9, 7, 6, 11, 13, 17, 5, 21, 9, 11, 13, 6]

/** One line of the table: cells padded to the header's widths. */
const line = (cells: (string | number)[]) => cells.map((c, i) => (i < WIDTHS.length ? String(c).padEnd(WIDTHS[i]!) : String(c))).join('| ')

function describeRow(r: Omit<Row, 'tries'> & { tries?: number }): string {
  return line([
    r.store,
    r.subscribers,
    r.nodes,
    r.perHost,
    Math.round(r.perSecond),
    `${r.firstAfterMs} / ${r.toLastMs}`,
    r.duplicates,
    r.split.join(' / '),
    r.peakRssMb,
    r.cpuUsPerDelivery,
    Math.round(r.baselinePerSecond),
    (r.perSecond / r.baselinePerSecond).toFixed(2),
    `${(r.otherLoad * 100).toFixed(1)}${r.tries && r.tries > 1 ? ` (try ${r.tries})` : ''}`
  ])
}

function report(rows: Row[], subscribing: string[]): void {
  console.log(`\nWebSub fan-out: one change of ${TOPIC_PATH} (${rows[0]?.bytesPerDelivery ?? 0} bytes) to N HTTPS subscribers on one loopback host; WEBSUB_CONCURRENCY max(${CONCURRENCY}, conns/host); times from the import's commit`)
  console.log(`subscribed through the hub (POST + verification): ${subscribing.join('; ')}`)
  console.log(line(['store', 'subs', 'nodes', 'conns/host', 'deliveries/s', 'first / last ms', 'dups', 'acked per node', 'peak RSS', 'CPU µs/del', 'baseline /s', 'ratio', 'other %']))
  for (const r of rows) console.log(describeRow(r))
  console.log("(conns/host is per node; the baseline uses nodes x conns/host connections; peak RSS is the largest node's, in MB; CPU is all nodes' together per delivery, from the first delivery on; other %: other processes' share of the machine's CPU meanwhile)")
  console.log(JSON.stringify({ bench: 'websub', topic: TOPIC_PATH, rows }))
}

async function get(url: string, client: Agent): Promise<string> {
  const res = await request(url, { dispatcher: client })
  return res.body.text()
}

/** Active subscriptions and deliveries owed, cluster-wide (any node answers the same). */
async function hubStats(url: string): Promise<{ active: number; owed: number }> {
  const s = (await (await fetch(`${url}/api/websub/stats`)).json()) as { owed_deliveries: number; topics: { active_subscriptions: number }[] }
  return { active: s.topics.reduce((a, t) => a + t.active_subscriptions, 0), owed: s.owed_deliveries }
}

async function inParallel<T>(items: T[], width: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await f(items[next++]!)
    })
  )
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((ok) => setTimeout(ok, 25))
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
