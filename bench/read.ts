/**
 * Read-path benchmark: the service versus a plain node:http server serving the same precomputed bytes, loaded in
 * the same run by wrk over loopback, in interleaved rounds. Prints req/s, p99 and the ratio (target >= 0.8).
 *
 *   npm run bench:read                    # 3 rounds x 10 s per scenario and server
 *   BENCH_SECONDS=3 BENCH_ROUNDS=1 npm run bench:read
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cpuMs, startProcess, startService, type Running } from './lib/processes.js'
import { median, wrk, type WrkResult } from './lib/wrk.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const GZIP = { 'Accept-Encoding': 'gzip' }
const SEARCH = '/api/reviews/search?min_rating=4&query=kind&limit=20'

interface Scenario {
  name: string
  path: string
  headers: Record<string, string>
  script?: string
}

/** Cache-defeating search: a different since/limit pair on almost every request. */
const UNCACHED_SEARCH = `
math.randomseed(os.time())
request = function()
  local d = string.format("%04d-%02d-%02d", math.random(2021, 2026), math.random(1, 12), math.random(1, 28))
  return wrk.format("GET", "/api/reviews/search?since=" .. d .. "&limit=" .. math.random(10, 30))
end`

function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const h: Record<string, string> = {}
        for (const [k, v] of Object.entries(res.headers)) if (!['date', 'connection', 'keep-alive'].includes(k)) h[k] = String(v)
        resolve({ headers: h, body: Buffer.concat(chunks) })
      })
    })
      .on('error', reject)
      .end()
  })
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-read-'))
  const ours = await startService(`sqlite:${join(dir, 'bench.db')}`)
  try {
    // Capture the exact bytes and headers the service sends, for the baseline to replay.
    const captured = []
    for (const [path, key] of [['/reviews.json', '/reviews.json'], [SEARCH, '/api/reviews/search'], ['/', '/']] as const) {
      for (const [enc, headers] of [['identity', {}], ['gzip', GZIP]] as const) {
        const r = await rawGet(`${ours.url}${path}`, headers)
        captured.push({ key: `${key}|${enc}`, headers: r.headers, body: r.body.toString('base64') })
      }
    }
    const file = join(dir, 'baseline.json')
    writeFileSync(file, JSON.stringify(captured))
    const baseline = await startProcess(['bench/baseline-server.mjs', file])
    const gzipEtag = captured.find((c) => c.key === '/reviews.json|gzip')!.headers.etag!
    const scenarios: Scenario[] = [
      { name: '/reviews.json gzip 200', path: '/reviews.json', headers: GZIP },
      { name: '/reviews.json 304', path: '/reviews.json', headers: { ...GZIP, 'If-None-Match': gzipEtag } },
      { name: 'search (repeated query) gzip 200', path: SEARCH, headers: GZIP },
      { name: 'search (new query each time) gzip 200', path: '/api/reviews/search', headers: GZIP, script: UNCACHED_SEARCH },
      { name: '/ (front page, HTML) gzip 200', path: '/', headers: GZIP }
    ]
    const results = new Map<string, { ours: Measured[]; base: Measured[] }>()
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of scenarios) {
        const entry = results.get(s.name) ?? { ours: [], base: [] }
        results.set(s.name, entry)
        const run = (server: Running): Measured => {
          const cpuBefore = cpuMs(server.child.pid!)
          const r = wrk(`${server.url}${s.path}`, { seconds: SECONDS, headers: s.headers, script: s.script })
          return { ...r, cpuUsPerRequest: ((cpuMs(server.child.pid!) - cpuBefore) * 1000) / r.requests }
        }
        // Alternate who goes first, so drift in machine speed hits both alike.
        if (round % 2 === 0) {
          entry.base.push(run(baseline))
          entry.ours.push(run(ours))
        } else {
          entry.ours.push(run(ours))
          entry.base.push(run(baseline))
        }
      }
    }
    await baseline.stop()
    report(results, captured.find((c) => c.key === '/reviews.json|gzip')!.body.length)
  } finally {
    await ours.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

interface Measured extends WrkResult {
  cpuUsPerRequest: number
}

function report(results: Map<string, { ours: Measured[]; base: Measured[] }>, gzipBase64Length: number): void {
  console.log(`\nread benchmark: wrk -t2 -c50, ${ROUNDS} round(s) x ${SECONDS}s, medians; gzip /reviews.json = ${Math.round((gzipBase64Length * 3) / 4 / 1024)} KB`)
  console.log('scenario                                   | service req/s (p99 ms) | node:http req/s (p99 ms) | ratio | server CPU µs/req: service / node:http')
  console.log('-------------------------------------------|------------------------|--------------------------|-------|---------------------------------------')
  const rows = []
  for (const [name, r] of results) {
    const summary = (m: Measured[]) => ({ rps: median(m.map((x) => x.rps)), p99: median(m.map((x) => x.p99ms)), cpu: median(m.map((x) => x.cpuUsPerRequest)) })
    const o = summary(r.ours)
    const b = summary(r.base)
    const errors = [...r.ours, ...r.base].reduce((n, x) => n + x.errors, 0)
    rows.push({ name, ours: o, baseline: b, ratio: o.rps / b.rps, errors })
    console.log(
      `${name.padEnd(43)}| ${`${Math.round(o.rps)} (${o.p99.toFixed(2)})`.padEnd(23)}| ${`${Math.round(b.rps)} (${b.p99.toFixed(2)})`.padEnd(25)}| ${(o.rps / b.rps).toFixed(2).padEnd(6)}| ${o.cpu.toFixed(0)} / ${b.cpu.toFixed(0)}${errors ? `  (${errors} errors!)` : ''}`
    )
  }
  console.log(JSON.stringify({ bench: 'read', seconds: SECONDS, rounds: ROUNDS, rows }))
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
