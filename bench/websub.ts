/**
 * WebSub fan-out benchmark: one change of the reviews fanned out to 1,000 and 10,000 HTTPS subscribers on loopback
 * (a subscriber process with a test CA; every subscriber is a callback path on it). Prints deliveries/s, the time
 * from the import to the last delivery, and the hub's peak memory during the fan-out, next to a baseline measured in
 * the same run: the same bytes POSTed to the same callbacks by a bare undici client with the same concurrency and
 * connections, without the hub. Aim: >= 5,000 deliveries/s.
 *
 *   npm run bench:websub                 BENCH_SUBSCRIBERS=1000,10000 (default) BENCH_TOPIC=/feed.xml (default)
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rootCertificates } from 'node:tls'
import { Agent, request } from 'undici'
import { importFile } from '../src/ingest/index.js'
import { openStore } from '../src/store/index.js'
import { makeTestPki } from '../test/helpers/websub.js'
import { startProcess, startService, type Running } from './lib/processes.js'

const COUNTS = (process.env.BENCH_SUBSCRIBERS ?? '1000,10000').split(',').map(Number)
const TOPIC_PATH = process.env.BENCH_TOPIC ?? '/feed.xml'
const CONCURRENCY = 64
const CONNECTIONS = 8
const BASE = 'https://reviews.bench'

interface SubscriberStats {
  verifications: number
  deliveries: number
  bytes: number
  first: number | null
  last: number | null
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-websub-'))
  const pki = makeTestPki(dir)
  writeFileSync(join(dir, 'key.pem'), pki.key)
  writeFileSync(join(dir, 'cert.pem'), pki.cert)
  const subscriber = await startProcess(['bench/lib/subscriber.mjs', join(dir, 'key.pem'), join(dir, 'cert.pem')])
  const subUrl = subscriber.url.replace('http:', 'https:')
  const client = new Agent({ connections: CONNECTIONS, connect: { ca: [...rootCertificates, readFileSync(pki.caFile, 'utf8')] } })
  const rows = []
  try {
    for (const n of COUNTS) {
      const databaseUrl = `sqlite:${join(dir, `hub-${n}.db`)}`
      const hub = await startService(databaseUrl, {
        BASE_URL: BASE,
        // info, as in production: every delivery attempt is logged.
        LOG_LEVEL: 'info',
        WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
        WEBSUB_EXTRA_CA_FILE: pki.caFile,
        WEBSUB_MAX_PER_HOST: String(n + 1),
        WEBSUB_RATE_PER_MIN: String(n * 10),
        WEBSUB_CONCURRENCY: String(CONCURRENCY)
      })
      try {
        rows.push(await round(n, hub, databaseUrl, subUrl, client, dir))
      } finally {
        await hub.stop()
      }
    }
  } finally {
    await client.close()
    await subscriber.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`\nWebSub fan-out: one change of ${TOPIC_PATH} to N HTTPS subscribers on loopback; concurrency ${CONCURRENCY}, ${CONNECTIONS} connections per host`)
  console.log('subscribers | hub deliveries/s | import -> first / last delivery | hub peak RSS | baseline (bare undici) deliveries/s | ratio')
  for (const r of rows) {
    console.log(
      `${String(r.subscribers).padEnd(12)}| ${String(Math.round(r.perSecond)).padEnd(17)}| ${`${r.firstAfterMs} / ${r.toLastMs} ms`.padEnd(32)}| ${`${r.peakRssMb} MB`.padEnd(13)}| ${String(Math.round(r.baselinePerSecond)).padEnd(35)}| ${(r.perSecond / r.baselinePerSecond).toFixed(2)}`
    )
  }
  console.log(JSON.stringify({ bench: 'websub', topic: TOPIC_PATH, rows }))
}

async function round(n: number, hub: Running, databaseUrl: string, subUrl: string, client: Agent, dir: string) {
  const callbacks = Array.from({ length: n }, (_, i) => `${subUrl}/cb/${n}/${i}`)
  const before = await stats(subUrl, client)
  await inParallel(callbacks, 50, async (cb) => {
    const body = new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': `${BASE}${TOPIC_PATH}`, 'hub.callback': cb }).toString()
    const res = await request(`${hub.url}/api/websub/hub`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    await res.body.dump()
    if (res.statusCode !== 202) throw new Error(`subscribe answered ${res.statusCode}`)
  })
  await until(async () => (await stats(subUrl, client)).verifications >= before.verifications + n, 120_000)
  await until(async () => (await hubActive(hub.url)) === n, 30_000)
  await get(`${subUrl}/__reset`, client)
  const body = Buffer.from(await (await fetch(`${hub.url}${TOPIC_PATH}`)).arrayBuffer())

  // Peak RSS of the hub from here on (writing 5 to clear_refs resets VmHWM).
  writeFileSync(`/proc/${hub.child.pid}/clear_refs`, '5')
  const importedAt = await publish(databaseUrl, dir, n)
  await until(async () => (await stats(subUrl, client)).deliveries >= n, 300_000)
  const fanned = await stats(subUrl, client)
  const peakRssMb = Math.round(Number(readFileSync(`/proc/${hub.child.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)![1]) / 1024)
  if (fanned.deliveries !== n) throw new Error(`expected ${n} deliveries, got ${fanned.deliveries}`)

  // Baseline: the same bytes to the same callbacks, no hub.
  await get(`${subUrl}/__reset`, client)
  await inParallel(callbacks, CONCURRENCY, async (cb) => {
    const res = await request(cb, { dispatcher: client, method: 'POST', body, headers: { 'content-type': 'application/atom+xml' } })
    await res.body.dump()
  })
  const base = await stats(subUrl, client)
  return {
    subscribers: n,
    // Throughput from the first acknowledged delivery to the last, for the hub and the baseline alike.
    perSecond: n / ((fanned.last! - fanned.first!) / 1000),
    toLastMs: Math.round(fanned.last! - importedAt),
    firstAfterMs: Math.round(fanned.first! - importedAt),
    peakRssMb,
    bytesPerDelivery: Math.round(fanned.bytes / n),
    baselinePerSecond: n / ((base.last! - base.first!) / 1000)
  }
}

async function publish(databaseUrl: string, dir: string, n: number): Promise<number> {
  const file = join(dir, `change-${n}.json`)
  writeFileSync(file, JSON.stringify({ reviews: [{ id: `bench-${n}`, author: 'Bench', rating: 5, date: '2026-11-20', text: 'Kind and clear.', source: 'bench', verified: true }] }))
  const store = await openStore(databaseUrl)
  try {
    await importFile(store, file, { replace: false })
  } finally {
    await store.close()
  }
  return performance.timeOrigin + performance.now()
}

async function stats(subUrl: string, client: Agent): Promise<SubscriberStats> {
  return JSON.parse(await get(`${subUrl}/__stats`, client)) as SubscriberStats
}

async function get(url: string, client: Agent): Promise<string> {
  const res = await request(url, { dispatcher: client })
  return res.body.text()
}

async function hubActive(hubUrl: string): Promise<number> {
  const s = (await (await fetch(`${hubUrl}/api/websub/stats`)).json()) as { topics: { active_subscriptions: number }[] }
  return s.topics.reduce((a, t) => a + t.active_subscriptions, 0)
}

async function inParallel<T>(items: T[], width: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await f(items[next++]!)
  }))
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
