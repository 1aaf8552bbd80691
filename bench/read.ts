/**
 * Read-path benchmark, everyone side by side in one run on this machine, loaded by wrk over loopback in interleaved
 * rounds (the order rotates every round, so drift in the host's speed hits all alike):
 *   - the service, one process, and the service with WORKERS=2 (node:cluster), both on the same SQLite file, so they
 *     serve the same bytes and ETags;
 *   - node:http answering with the captured bytes and headers (bench/baseline-server.mjs);
 *   - nginx with 1 and with 2 worker processes serving the same captured bytes and headers as static files
 *     (bench/lib/nginx.ts), for /reviews.json only (a search cannot be a file).
 *   - the service with metrics off (METRICS_PORT=0), with access lines off (LOG_REQUEST_SAMPLE=0), and with both off
 *     (twice: two identical services show how far apart chance alone puts them), for /reviews.json only: what issue
 *     15's operations surface costs the hot read path;
 *   - then, when valgrind is installed, the CPU instructions per request of the default service and of the one with
 *     both off, counted by callgrind (bench/lib/callgrind.ts), two processes each, one at a time: a count does not drift
 *     with the host as req/s does, so it tells a 1% difference from chance.
 * Prints req/s, p99, server CPU per request and ratios against each baseline, then the targets of issue 12:
 * /reviews.json gzip 200 with WORKERS=2 >= 1.0x nginx with 2 workers, and its 304 >= 0.8x nginx with 1 worker; and
 * issue 15's: the service as configured by default (metrics on, one access line per 100 requests at info, at most 10
 * a second) costs less than 5% more than the same service with both off, in each /reviews.json scenario: in CPU
 * instructions per request when they were counted, else in req/s.
 * The single-process services start afresh every round (see SINGLES).
 * A ratio is the median over rounds of the ratio within a round (the two were measured seconds apart). A run during
 * which other processes took more than 5% of the machine's CPU (a test suite started meanwhile) is made again, up to
 * twice; the report says how many were redone and the most other load any kept run had.
 *
 *   npm run bench:read                                   # 3 rounds x 5 s per scenario and server, about 5 min
 *   BENCH_SECONDS=10 BENCH_ROUNDS=5 npm run bench:read
 *   BENCH_ONLY=targets npm run bench:read                # only the two /reviews.json scenarios
 *   BENCH_NGINX_NOPUSH=on npm run bench:read             # nginx with tcp_nopush on (see bench/lib/nginx.ts)
 *   BENCH_NGINX_SENDFILE=off npm run bench:read          # nginx copying bodies through user space, as Node does
 *   BENCH_INSTRUCTIONS=off npm run bench:read            # without the instruction counts (about 5 min)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { callgrindAvailable, countInstructions, type CountedRequest } from './lib/callgrind.js'
import { OtherLoad } from './lib/host.js'
import { startStaticNginx, type Captured } from './lib/nginx.js'
import { startProcess, startService, treeCpuMs, type Running } from './lib/processes.js'
import { median, wrk, type WrkResult } from './lib/wrk.js'
import { freePort } from '../test/helpers/http.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const ONLY_TARGETS = process.env.BENCH_ONLY === 'targets'
const NOPUSH = process.env.BENCH_NGINX_NOPUSH === 'on'
const SENDFILE = process.env.BENCH_NGINX_SENDFILE !== 'off'
const INSTRUCTIONS = process.env.BENCH_INSTRUCTIONS !== 'off'
const GZIP = { 'Accept-Encoding': 'gzip' }
const SEARCH = '/api/reviews/search?min_rating=4&query=kind&limit=20'

const SERVICE = 'service'
const WORKERS2 = 'service WORKERS=2'
const NODE_HTTP = 'node:http'
const NGINX1 = 'nginx 1 worker'
const NGINX2 = 'nginx 2 workers'
const BASELINES = [NODE_HTTP, NGINX1, NGINX2]
const NO_METRICS = 'service, no metrics'
const NO_ACCESS_LOG = 'service, no access log'
const BARE = 'service, neither'
const BARE_AGAIN = 'service, neither (again)'
/** The same service with parts of the operations surface turned off, against the default (issue 15). */
const OPERATIONS: Record<string, Record<string, string>> = {
  [NO_METRICS]: { METRICS_PORT: '0' },
  [NO_ACCESS_LOG]: { LOG_REQUEST_SAMPLE: '0' },
  [BARE]: { METRICS_PORT: '0', LOG_REQUEST_SAMPLE: '0' },
  [BARE_AGAIN]: { METRICS_PORT: '0', LOG_REQUEST_SAMPLE: '0' }
}
/** The single-process services: the default and its operations variants, started afresh every round. */
const SINGLES = [SERVICE, ...Object.keys(OPERATIONS)]
/** What the default operations surface may cost the hot read path: under 5% of req/s. */
const MAX_OPERATIONS_LOSS = 0.05
/** Other processes' share of the machine's CPU above which a run is made again (at most MAX_TRIES runs). */
const MAX_OTHER_LOAD = 0.05
const MAX_TRIES = 3

interface Scenario {
  name: string
  path: string
  headers: Record<string, string>
  script?: string
  servers: string[]
}

interface Target {
  scenario: string
  server: string
  baseline: string
  atLeast: number
}

/** Issue 12's two read targets. */
const TARGETS: Target[] = [
  { scenario: '/reviews.json gzip 200', server: WORKERS2, baseline: NGINX2, atLeast: 1.0 },
  { scenario: '/reviews.json 304', server: WORKERS2, baseline: NGINX1, atLeast: 0.8 }
]

/** Cache-defeating search: a different since/limit pair on almost every request. */
const UNCACHED_SEARCH = `
math.randomseed(os.time())
request = function()
  local d = string.format("%04d-%02d-%02d", math.random(2021, 2026), math.random(1, 12), math.random(1, 28))
  return wrk.format("GET", "/api/reviews/search?since=" .. d .. "&limit=" .. math.random(10, 30))
end`

interface Raw {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** Headers that differ on every response (the request id is made per request), neither compared nor replayed. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'x-request-id'])

function rawGet(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const h: Record<string, string> = {}
        for (const [k, v] of Object.entries(res.headers)) if (!PER_RESPONSE.has(k)) h[k] = String(v)
        resolve({ status: res.statusCode!, headers: h, body: Buffer.concat(chunks) })
      })
    })
      .on('error', reject)
      .end()
  })
}

interface Measured extends WrkResult {
  cpuUsPerRequest: number
  /** Other processes' share of the machine's CPU during the run. */
  otherLoad: number
  tries: number
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-read-'))
  const database = `sqlite:${join(dir, 'bench.db')}`
  const servers = new Map<string, Running>()
  try {
    // The single process seeds the demo data; the two workers then open the same file and serve the same bytes.
    // As a user runs it: metrics on (each on a port of its own), access lines sampled at info.
    const startSingle = async (name: string) => servers.set(name, await startService(database, { METRICS_PORT: String(await freePort()), ...OPERATIONS[name] }))
    await startSingle(SERVICE)
    servers.set(WORKERS2, await startService(database, { WORKERS: '2', METRICS_PORT: String(await freePort()) }))
    for (const name of Object.keys(OPERATIONS)) await startSingle(name)
    const captured = await capture(servers.get(SERVICE)!.url)
    const file = join(dir, 'baseline.json')
    writeFileSync(file, JSON.stringify(captured))
    servers.set(NODE_HTTP, await startProcess(['bench/baseline-server.mjs', file]))
    servers.set(NGINX1, await startStaticNginx(captured, { workers: 1, nopush: NOPUSH, sendfile: SENDFILE }))
    servers.set(NGINX2, await startStaticNginx(captured, { workers: 2, nopush: NOPUSH, sendfile: SENDFILE }))
    const gzipEtag = captured.find((c) => c.key === '/reviews.json|gzip')!.headers.etag!
    const notes = await checkSameAnswers(servers, gzipEtag)

    const everyone = [SERVICE, WORKERS2, NODE_HTTP, NGINX1, NGINX2, ...Object.keys(OPERATIONS)]
    const nodes = [SERVICE, WORKERS2, NODE_HTTP]
    const scenarios: Scenario[] = [
      { name: '/reviews.json gzip 200', path: '/reviews.json', headers: GZIP, servers: everyone },
      { name: '/reviews.json 304', path: '/reviews.json', headers: { ...GZIP, 'If-None-Match': gzipEtag }, servers: everyone },
      { name: 'search (repeated query) gzip 200', path: SEARCH, headers: GZIP, servers: nodes },
      { name: 'search (new query each time) gzip 200', path: '/api/reviews/search', headers: GZIP, script: UNCACHED_SEARCH, servers: [SERVICE, WORKERS2] },
      { name: '/ (front page, HTML) gzip 200', path: '/', headers: GZIP, servers: nodes }
    ].filter((s) => !ONLY_TARGETS || TARGETS.some((t) => t.scenario === s.name))

    const others = new OtherLoad(() => [...servers.values()].map((server) => server.child.pid!))
    const run = (s: Scenario, name: string, seconds: number): Measured => {
      const server = servers.get(name)!
      for (let tries = 1; ; tries++) {
        others.start()
        const cpuBefore = treeCpuMs(server.child.pid!)
        const r = wrk(`${server.url}${s.path}`, { seconds, headers: s.headers, script: s.script })
        const measured = { ...r, cpuUsPerRequest: ((treeCpuMs(server.child.pid!) - cpuBefore) * 1000) / r.requests, otherLoad: others.share(), tries }
        if (measured.otherLoad <= MAX_OTHER_LOAD || tries === MAX_TRIES) return measured
        console.error(`  ${s.name}, ${name}: other load ${(measured.otherLoad * 100).toFixed(1)}% (${others.culprits()}); once more`)
      }
    }
    const warmUp = (names: string[]) => {
      for (const s of scenarios) for (const name of s.servers) if (names.includes(name)) run(s, name, 1)
    }
    // One second each first, so that no server's first round includes its JIT warming up.
    warmUp(everyone)
    const results = new Map(scenarios.map((s) => [s.name, new Map(s.servers.map((n) => [n, [] as Measured[]]))]))
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        // Two processes of one build differ by up to a tenth on these rows, more than the few percent the operations
        // comparison must tell apart: its single-process services start afresh every round, so each round compares
        // another pair and the median over rounds is not one pair's luck.
        for (const name of SINGLES) {
          await servers.get(name)!.stop()
          await startSingle(name)
        }
        warmUp(SINGLES)
      }
      for (const s of scenarios) {
        for (const name of rotate(s.servers, round)) results.get(s.name)!.get(name)!.push(run(s, name, SECONDS))
      }
    }
    const counted = INSTRUCTIONS ? await countOperations(database, gzipEtag, servers) : undefined
    report(results, captured.find((c) => c.key === '/reviews.json|gzip')!.body.length, notes, counted)
  } finally {
    for (const server of servers.values()) await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Per configuration (the default, and both off), per /reviews.json scenario: instructions per request, per process. */
type Counts = Record<string, Record<string, number[]>>

/**
 * The default service and the one with metrics and access lines off, under callgrind, each twice, one process at a
 * time (the wrk-loaded services are stopped first, so nothing else runs meanwhile).
 */
async function countOperations(database: string, gzipEtag: string, servers: Map<string, Running>): Promise<Counts | undefined> {
  if (!callgrindAvailable()) {
    console.error('instruction counts skipped: valgrind is not installed (apt-get install valgrind)')
    return undefined
  }
  for (const server of servers.values()) await server.stop()
  servers.clear()
  const requests: CountedRequest[] = [
    { name: '/reviews.json gzip 200', path: '/reviews.json', headers: GZIP },
    { name: '/reviews.json 304', path: '/reviews.json', headers: { ...GZIP, 'If-None-Match': gzipEtag } }
  ]
  const counts: Counts = { [SERVICE]: {}, [BARE]: {} }
  for (let round = 0; round < 2; round++) {
    for (const name of [SERVICE, BARE]) {
      const env = name === SERVICE ? { METRICS_PORT: String(await freePort()) } : OPERATIONS[BARE]!
      const perRequest = await countInstructions(database, env, requests)
      for (const [scenario, n] of Object.entries(perRequest)) (counts[name]![scenario] ??= []).push(n)
    }
  }
  return counts
}

/** The exact bytes and headers the service sends, for the baselines to replay. */
async function capture(url: string): Promise<Captured[]> {
  const captured: Captured[] = []
  for (const [path, key] of [['/reviews.json', '/reviews.json'], [SEARCH, '/api/reviews/search'], ['/', '/']] as const) {
    for (const [enc, headers] of [['identity', {}], ['gzip', GZIP]] as const) {
      const r = await rawGet(`${url}${path}`, headers)
      captured.push({ key: `${key}|${enc}`, headers: r.headers, body: r.body.toString('base64') })
    }
  }
  return captured
}

/** Headers a server adds of its own accord; every other header must be the service's. */
const SERVER_OWN = new Set(['server', 'accept-ranges'])

/**
 * Every server must send the same /reviews.json bytes (identity and gzip) with the same representation headers, and
 * 304 for the gzip ETag, or the comparison means nothing. Returns what differs in other headers, for the report.
 */
async function checkSameAnswers(servers: Map<string, Running>, gzipEtag: string): Promise<string[]> {
  const notes: string[] = []
  for (const headers of [{}, GZIP]) {
    const reference = await rawGet(`${servers.get(SERVICE)!.url}/reviews.json`, headers)
    for (const [name, server] of servers) {
      const r = await rawGet(`${server.url}/reviews.json`, headers)
      if (!r.body.equals(reference.body)) throw new Error(`${name} sends other bytes for /reviews.json (${JSON.stringify(headers)})`)
      for (const k of new Set([...Object.keys(r.headers), ...Object.keys(reference.headers)])) {
        if (r.headers[k] === reference.headers[k]) continue
        if (!SERVER_OWN.has(k)) throw new Error(`${name}: ${k} is ${r.headers[k]}, the service sends ${reference.headers[k]}`)
        notes.push(`${name} adds ${k}: ${r.headers[k]}`)
      }
    }
  }
  for (const [name, server] of servers) {
    const r = await rawGet(`${server.url}/reviews.json`, { ...GZIP, 'If-None-Match': gzipEtag })
    if (r.status !== 304) throw new Error(`${name} answers ${r.status}, not 304, to If-None-Match: ${gzipEtag}`)
  }
  return [...new Set(notes)]
}

/** The list starting at a different place each round. */
const rotate = <T>(xs: T[], by: number): T[] => xs.map((_, i) => xs[(i + by) % xs.length]!)

interface Summary {
  rps: number
  p99: number
  cpu: number
  errors: number
  /** The most other load any of its runs had (a share of the machine's CPU). */
  other: number
  /** Per baseline: the median over rounds of this server's req/s over the baseline's in the same round. */
  ratios: Record<string, number>
}

function summarize(runs: Map<string, Measured[]>): Map<string, Summary> {
  const out = new Map<string, Summary>()
  for (const [name, m] of runs) {
    const ratios: Record<string, number> = {}
    for (const b of BASELINES) {
      const base = runs.get(b)
      if (base && b !== name) ratios[b] = median(m.map((x, round) => x.rps / base[round]!.rps))
    }
    out.set(name, {
      rps: median(m.map((x) => x.rps)),
      p99: median(m.map((x) => x.p99ms)),
      cpu: median(m.map((x) => x.cpuUsPerRequest)),
      errors: m.reduce((n, x) => n + x.errors, 0),
      other: Math.max(...m.map((x) => x.otherLoad)),
      ratios
    })
  }
  return out
}

function report(results: Map<string, Map<string, Measured[]>>, gzipBase64Length: number, notes: string[], counted?: Counts): void {
  const kb = Math.round((gzipBase64Length * 3) / 4 / 1024)
  console.log(`\nread benchmark: wrk -t2 -c50, ${ROUNDS} round(s) x ${SECONDS}s, medians; gzip /reviews.json = ${kb} KB; nginx: sendfile ${SENDFILE ? 'on' : 'off'}, tcp_nopush ${NOPUSH ? 'on' : 'off'}, open_file_cache, access_log off`)
  const cell = (s: string, w: number) => s.padEnd(w)
  const summaries = new Map<string, Map<string, Summary>>()
  for (const [scenario, runs] of results) {
    const summary = summarize(runs)
    summaries.set(scenario, summary)
    console.log(`\n${scenario}`)
    console.log(`  ${cell('server', 24)}| ${cell('req/s', 8)}| ${cell('p99 ms', 7)}| ${cell('CPU µs/req', 11)}| ${cell('other %', 8)}| ${BASELINES.map((b) => cell(`x ${b}`, 18)).join('| ')}`)
    for (const [name, s] of summary) {
      const ratios = BASELINES.map((b) => cell(s.ratios[b] === undefined ? '' : s.ratios[b]!.toFixed(2), 18)).join('| ')
      console.log(`  ${cell(name, 24)}| ${cell(String(Math.round(s.rps)), 8)}| ${cell(s.p99.toFixed(2), 7)}| ${cell(s.cpu.toFixed(1), 11)}| ${cell((s.other * 100).toFixed(1), 8)}| ${ratios}${s.errors ? `  (${s.errors} errors!)` : ''}`)
    }
  }
  console.log('')
  const targets = TARGETS.filter((t) => summaries.has(t.scenario)).map((t) => {
    const ratio = summaries.get(t.scenario)!.get(t.server)!.ratios[t.baseline]!
    const pass = ratio >= t.atLeast
    console.log(`target: ${t.scenario}, ${t.server} >= ${t.atLeast.toFixed(1)}x ${t.baseline}: ${ratio.toFixed(2)}x  ${pass ? 'PASS' : 'FAIL'}`)
    return { ...t, ratio, pass }
  })
  const operations = [...results].filter(([, runs]) => runs.has(BARE)).map(([scenario, runs]) => {
    // Same-round ratios, as for the baselines: the default service's req/s (and CPU per request) over the bare one's.
    const bare = runs.get(BARE)!
    const ratio = (name: string, f: (m: Measured) => number) => median(runs.get(name)!.map((m, round) => f(m) / f(bare[round]!)))
    const loss = (name: string) => 1 - ratio(name, (m) => m.rps)
    const cost = { metrics: 1 - ratio(NO_ACCESS_LOG, (m) => m.rps), accessLog: 1 - ratio(NO_METRICS, (m) => m.rps), both: loss(SERVICE), cpu: ratio(SERVICE, (m) => m.cpuUsPerRequest) - 1, chance: loss(BARE_AGAIN) }
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
    const counts = counted && { service: counted[SERVICE]![scenario]!, bare: counted[BARE]![scenario]! }
    const instructions = counts && mean(counts.service) / mean(counts.bare) - 1
    // The count decides when there is one: req/s cannot tell a cost under 5% from chance on this machine (the two
    // identical services' line says by how much they differ).
    const pass = (instructions ?? cost.both) < MAX_OPERATIONS_LOSS
    console.log(`target: ${scenario}, metrics + access log cost < 5% (${instructions === undefined ? 'of req/s' : 'of CPU instructions per request'}):  ${pass ? 'PASS' : 'FAIL'}`)
    if (counts) console.log(`  instructions per request (callgrind, user space, 2 processes each): default ${counts.service.map((n) => Math.round(n)).join(', ')}; both off ${counts.bare.map((n) => Math.round(n)).join(', ')}: ${pct(instructions!)}`)
    console.log(`  req/s: ${pct(-cost.both)} (metrics alone ${pct(-cost.metrics)}, access log alone ${pct(-cost.accessLog)}); CPU time per request ${pct(cost.cpu)}; two identical services differ by ${pct(-cost.chance)}`)
    return { scenario, ...cost, instructions, counts, pass }
  })
  const kept = [...results.values()].flatMap((runs) => [...runs.values()].flat())
  const redone = kept.reduce((n, m) => n + m.tries - 1, 0)
  const worst = Math.max(...kept.map((m) => m.otherLoad))
  console.log(`other load: ${redone} run(s) made again because other processes took > ${MAX_OTHER_LOAD * 100}% of the CPU; the most any kept run had: ${(worst * 100).toFixed(1)}%${worst > MAX_OTHER_LOAD ? ' (over the limit after every try: these numbers are disturbed)' : ''}`)
  for (const note of notes) console.log(`note: ${note}`)
  const rows = [...summaries].map(([scenario, s]) => ({ scenario, servers: Object.fromEntries(s) }))
  console.log(JSON.stringify({ bench: 'read', seconds: SECONDS, rounds: ROUNDS, nginxNopush: NOPUSH, nginxSendfile: SENDFILE, rows, targets, operations }))
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
