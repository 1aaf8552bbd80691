/**
 * Import to served, on PostgreSQL: N nodes (separate processes) on one database; the import CLI (`dist/cli.js
 * import`, its own process, as an operator runs it) adds one review; each node is polled for /reviews.json (gzip,
 * If-None-Match: the old ETag) until it serves the new one. Prints, per dataset and node count, the medians over
 * rounds of: the CLI's run (start to exit), the commit (the CLI's "imported:" line, written right after it) to the
 * first and to the last node serving, the CLI's exit to the last node serving, and the nodes' snapshot build time
 * (their "snapshot ready" log), and the most CPU other processes took meanwhile (a share of the machine; a round
 * with more than 5% is made again, up to twice). Datasets: the demo data, and BENCH_REVIEWS generated reviews
 * (imported once first).
 *
 *   npm run bench:import              BENCH_NODES=1,3 (default) BENCH_REVIEWS=5000 (default; 0 for the demo only) BENCH_ROUNDS=3
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Pool } from 'undici'
import { OtherLoad } from './lib/host.js'
import { benchPostgres } from './lib/postgres.js'
import { startService, type LogEntry, type Started } from './lib/processes.js'
import { demo, generateReviews } from './lib/reviews.js'
import { median } from './lib/wrk.js'

const list = (v: string) => v.split(',').map(Number)
const NODES = list(process.env.BENCH_NODES ?? '1,3')
const GENERATED = Number(process.env.BENCH_REVIEWS ?? 5000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/** Between two polls of one node: the resolution of "served at". */
const POLL_MS = 5
/** Other processes' share of the machine's CPU above which a round is made again (at most MAX_TRIES times). */
const MAX_OTHER_LOAD = 0.05
const MAX_TRIES = 3

const now = () => performance.timeOrigin + performance.now()

interface CliRun {
  startedAt: number
  committedAt: number
  exitedAt: number
}

interface Measured {
  cliMs: number
  commitToFirstMs: number
  commitToLastMs: number
  exitToLastMs: number
  buildMs: number[]
  /** Other processes' share of the machine's CPU meanwhile. */
  otherLoad: number
}

/** The import CLI in its own process; the "imported:" line on its stdout marks the commit. */
function runImport(databaseUrl: string, file: string, args: string[] = []): Promise<CliRun> {
  const startedAt = now()
  const child = spawn(process.execPath, ['dist/cli.js', 'import', file, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'inherit'] })
  let committedAt: number | undefined
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('imported:')) committedAt ??= now()
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const exitedAt = now()
      if (code !== 0 || committedAt === undefined) reject(new Error(`import exited with ${code} without an "imported:" line`))
      else resolve({ startedAt, committedAt, exitedAt })
    })
  })
}

/** The gzip ETag of /reviews.json on a node now. */
async function etagOf(pool: Pool): Promise<string> {
  const res = await pool.request({ path: '/reviews.json', method: 'GET', headers: { 'accept-encoding': 'gzip' } })
  await res.body.dump()
  return String(res.headers.etag)
}

/** Polls until the node serves another ETag than `old`; resolves with when it did. */
async function servedAt(pool: Pool, old: string, deadline: number): Promise<number> {
  for (;;) {
    const res = await pool.request({ path: '/reviews.json', method: 'GET', headers: { 'accept-encoding': 'gzip', 'if-none-match': old } })
    await res.body.dump()
    if (res.statusCode === 200) return now()
    if (now() > deadline) throw new Error('the node did not serve the import within 60 s')
    await new Promise((ok) => setTimeout(ok, POLL_MS))
  }
}

async function measure(nodes: Started[], pools: Pool[], builds: LogEntry[][], databaseUrl: string, file: string, others: OtherLoad): Promise<Measured> {
  others.start()
  const before = await Promise.all(pools.map(etagOf))
  if (new Set(before).size !== 1) throw new Error(`the nodes serve different ETags: ${before.join(' ')}`)
  const seen = builds.map((b) => b.length)
  const served = Promise.all(pools.map((pool) => servedAt(pool, before[0]!, now() + 60_000)))
  const cli = await runImport(databaseUrl, file)
  const at = await served
  // The "snapshot ready" lines that came with this import (a node logs it before it swaps the snapshot in).
  await new Promise((ok) => setTimeout(ok, 50))
  const buildMs = builds.map((b, i) => Number(b.slice(seen[i]).at(-1)?.ms ?? NaN))
  return {
    cliMs: cli.exitedAt - cli.startedAt,
    commitToFirstMs: Math.min(...at) - cli.committedAt,
    commitToLastMs: Math.max(...at) - cli.committedAt,
    exitToLastMs: Math.max(...at) - cli.exitedAt,
    buildMs,
    otherLoad: others.share()
  }
}

interface Row {
  dataset: string
  nodes: number
  rounds: Measured[]
  /** Rounds made again because of other load. */
  redone: number
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'))
  const pg = await benchPostgres()
  const rows: Row[] = []
  const notes: string[] = []
  let imports = 0
  try {
    const datasets: { name: string; seed?: string }[] = [{ name: `demo (${demo.reviews.length} reviews)` }]
    if (GENERATED > 0) {
      const seed = join(dir, 'generated.json')
      writeFileSync(seed, JSON.stringify({ business: demo.business, reviews: generateReviews(GENERATED) }))
      datasets.push({ name: `${GENERATED.toLocaleString('en')} generated reviews`, seed })
    }
    for (const dataset of datasets) {
      for (const n of NODES) {
        const databaseUrl = await pg.database(`import_${n}`)
        if (dataset.seed) {
          const run = await runImport(databaseUrl, dataset.seed, ['--replace'])
          notes.push(`${dataset.name}: first import ${((run.exitedAt - run.startedAt) / 1000).toFixed(1)} s`)
        }
        const nodes = await Promise.all(Array.from({ length: n }, () => startService(databaseUrl, { BASE_URL: 'https://reviews.bench' })))
        const pools = nodes.map((node) => new Pool(node.url, { connections: 1 }))
        const builds = nodes.map(() => [] as LogEntry[])
        const others = new OtherLoad(() => [...pg.pids(), ...nodes.map((node) => node.child.pid!)])
        nodes.forEach((node, i) =>
          node.onLog((e) => {
            if (e.msg === 'snapshot ready') builds[i]!.push(e)
          })
        )
        try {
          const row: Row = { dataset: dataset.name, nodes: n, rounds: [], redone: 0 }
          for (let round = 0; round < ROUNDS; round++) {
            for (let tries = 1; ; tries++) {
              const file = join(dir, `change-${++imports}.json`)
              writeFileSync(file, JSON.stringify({ reviews: [{ id: `import-bench-${imports}`, author: 'Bench', rating: 5, date: '2026-11-20', text: 'Kind and clear.', source: 'bench', verified: true }] }))
              const m = await measure(nodes, pools, builds, databaseUrl, file, others)
              if (m.otherLoad <= MAX_OTHER_LOAD || tries === MAX_TRIES) {
                row.rounds.push(m)
                break
              }
              row.redone++
              console.error(`  ${dataset.name}, ${n} node(s): other load ${(m.otherLoad * 100).toFixed(1)}% (${others.culprits()}); once more`)
            }
          }
          rows.push(row)
          console.error(`  ${describe(row)}`)
        } finally {
          await Promise.all(pools.map((p) => p.close()))
          await Promise.all(nodes.map((node) => node.stop()))
        }
      }
    }
  } finally {
    pg.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`\nImport to served on PostgreSQL: one review added by the import CLI, each node polled every ${POLL_MS} ms; medians of ${ROUNDS} round(s), [max]`)
  for (const note of notes) console.log(note)
  console.log('dataset                       | nodes | CLI start->exit ms | commit->first served | commit->last served | exit->last served | snapshot build ms | other %')
  for (const row of rows) console.log(describe(row))
  console.log(JSON.stringify({ bench: 'import', rounds: ROUNDS, rows }))
}

function describe(row: Row): string {
  const m = (f: (x: Measured) => number) => Math.round(median(row.rounds.map(f)))
  const max = (f: (x: Measured) => number) => Math.round(Math.max(...row.rounds.map(f)))
  const both = (f: (x: Measured) => number) => `${m(f)} [${max(f)}]`
  return [
    row.dataset.padEnd(30),
    String(row.nodes).padEnd(6),
    both((x) => x.cliMs).padEnd(19),
    both((x) => x.commitToFirstMs).padEnd(21),
    both((x) => x.commitToLastMs).padEnd(20),
    both((x) => x.exitToLastMs).padEnd(18),
    both((x) => median(x.buildMs)).padEnd(18),
    `${(Math.max(...row.rounds.map((x) => x.otherLoad)) * 100).toFixed(1)}${row.redone ? ` (${row.redone} round(s) redone)` : ''}`
  ].join('| ')
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
