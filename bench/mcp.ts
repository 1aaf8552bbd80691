/**
 * MCP benchmark: tools/call search_reviews over POST /mcp versus GET /api/reviews/search for the same query, on the
 * same server in the same run (wrk over loopback, interleaved rounds). Prints req/s, p99 and the ratio (aim >= 0.3).
 *
 *   npm run bench:mcp                     # 3 rounds x 10 s per scenario
 *   BENCH_SECONDS=3 BENCH_ROUNDS=1 npm run bench:mcp
 *   BENCH_STORE=postgres npm run bench:mcp    # sessions in PostgreSQL (a throwaway cluster, or TEST_POSTGRES_URL's)
 *   BENCH_BASELINE=/tmp/base npm run bench:mcp # also tools/call on another built checkout, in the same rounds:
 *       git worktree add /tmp/base 2d676b9 && (cd /tmp/base && npm ci && npm run build)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchPostgres } from './lib/postgres.js'
import { cpuMs, startService, type Running } from './lib/processes.js'
import { median, wrk, type WrkResult } from './lib/wrk.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const STORE = process.env.BENCH_STORE === 'postgres' ? 'postgres' : 'sqlite'
const PROTOCOL = '2025-06-18'
/** A built checkout of another commit whose tools/call is measured beside this one's (its own SQLite file). */
const BASELINE = process.env.BENCH_BASELINE

const QUERIES: Record<string, string | number>[] = [
  { mentions_technician: 'peggy', limit: 5 },
  { min_rating: 4, query: 'kind', limit: 20 }
]

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL }

async function rpc(url: string, body: object, session?: string): Promise<Response> {
  const res = await fetch(`${url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...(session ? { 'mcp-session-id': session } : {}) }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`${JSON.stringify(body)} -> ${res.status} ${await res.text()}`)
  return res
}

async function openSession(url: string): Promise<string> {
  const init = await rpc(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })
  const session = init.headers.get('mcp-session-id')!
  await rpc(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)
  return session
}

/** Every request gets its own JSON-RPC id (one per thread and request), as a real client's would. */
function callScript(session: string, args: object): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id: '__ID__', method: 'tools/call', params: { name: 'search_reviews', arguments: args } })
  const [head, tail] = body.split('"__ID__"') as [string, string]
  return `
wrk.method = "POST"
${Object.entries({ ...MCP_HEADERS, 'mcp-session-id': session }).map(([k, v]) => `wrk.headers["${k}"] = "${v}"`).join('\n')}
local next_thread = 0
function setup(thread) thread:set("tid", next_thread); next_thread = next_thread + 1 end
local n = 0
function request()
  n = n + 1
  return wrk.format(nil, nil, nil, ${JSON.stringify(head)} .. '"' .. tid .. "-" .. n .. '"' .. ${JSON.stringify(tail)})
end`
}

/** The MCP answer must hold the same reviews as the GET, or the comparison means nothing. */
async function checkSameResult(url: string, session: string, args: Record<string, string | number>): Promise<void> {
  const viaGet = await (await fetch(`${url}/api/reviews/search?${new URLSearchParams(args as Record<string, string>)}`)).json()
  const viaMcp = (await (await rpc(url, { jsonrpc: '2.0', id: 'check', method: 'tools/call', params: { name: 'search_reviews', arguments: args } }, session)).json()) as { result: { structuredContent: unknown } }
  if (JSON.stringify(viaMcp.result.structuredContent) !== JSON.stringify(viaGet)) throw new Error(`MCP and GET disagree for ${JSON.stringify(args)}`)
}

interface Measured extends WrkResult {
  cpuUsPerRequest: number
}

function measure(server: Running, url: string, script?: string): Measured {
  const before = cpuMs(server.child.pid!)
  const r = wrk(url, { seconds: SECONDS, script })
  return { ...r, cpuUsPerRequest: ((cpuMs(server.child.pid!) - before) * 1000) / r.requests }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-'))
  const pg = STORE === 'postgres' ? await benchPostgres() : undefined
  const server = await startService(pg ? await pg.database('mcp') : `sqlite:${join(dir, 'bench.db')}`)
  const baseline = BASELINE ? await startService(`sqlite:${join(dir, 'baseline.db')}`, {}, BASELINE) : undefined
  try {
    const session = await openSession(server.url)
    const baselineSession = baseline && (await openSession(baseline.url))
    const results = QUERIES.map((args) => ({ args, get: [] as Measured[], mcp: [] as Measured[], baseline: [] as Measured[] }))
    for (const r of results) await checkSameResult(server.url, session, r.args)
    for (let round = 0; round < ROUNDS; round++) {
      for (const r of results) {
        const get = () => r.get.push(measure(server, `${server.url}/api/reviews/search?${new URLSearchParams(r.args as Record<string, string>)}`))
        const mcp = () => r.mcp.push(measure(server, `${server.url}/mcp`, callScript(session, r.args)))
        const before = () => baseline && r.baseline.push(measure(baseline, `${baseline.url}/mcp`, callScript(baselineSession!, r.args)))
        // Alternate who goes first, so drift in machine speed hits them alike.
        if (round % 2 === 0) (get(), mcp(), before())
        else (before(), mcp(), get())
      }
    }
    report(results)
  } finally {
    await baseline?.stop()
    await server.stop()
    pg?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

function report(results: { args: object; get: Measured[]; mcp: Measured[]; baseline: Measured[] }[]): void {
  console.log(`\nMCP benchmark: wrk -t2 -c50, ${ROUNDS} round(s) x ${SECONDS}s, medians, identity bodies, one session, unique JSON-RPC ids, store ${STORE}`)
  if (BASELINE) console.log(`baseline: tools/call on the checkout in ${BASELINE} (SQLite), same rounds`)
  console.log(`search arguments                          | GET req/s (p99 ms) | tools/call req/s (p99 ms) | ratio | server CPU µs/req: GET / MCP${BASELINE ? ' | baseline tools/call req/s (CPU µs) | vs baseline' : ''}`)
  const rows = results.map(({ args, get, mcp, baseline }) => {
    const s = (m: Measured[]) => ({ rps: median(m.map((x) => x.rps)), p99: median(m.map((x) => x.p99ms)), cpu: median(m.map((x) => x.cpuUsPerRequest)), errors: m.reduce((n, x) => n + x.errors, 0) })
    const g = s(get)
    const m = s(mcp)
    const b = baseline.length ? s(baseline) : undefined
    const errors = g.errors + m.errors + (b?.errors ?? 0)
    console.log(
      `${JSON.stringify(args).padEnd(42)}| ${`${Math.round(g.rps)} (${g.p99.toFixed(2)})`.padEnd(19)}| ${`${Math.round(m.rps)} (${m.p99.toFixed(2)})`.padEnd(26)}| ${(m.rps / g.rps).toFixed(2).padEnd(6)}| ${`${g.cpu.toFixed(0)} / ${m.cpu.toFixed(0)}`.padEnd(29)}` +
        (b ? `| ${`${Math.round(b.rps)} (${b.cpu.toFixed(0)})`.padEnd(35)}| ${(m.rps / b.rps).toFixed(2)}` : '') +
        (errors ? `  (${errors} errors!)` : '')
    )
    return { args, get: g, mcp: m, ratio: m.rps / g.rps, ...(b && { baseline: b, vsBaseline: m.rps / b.rps }) }
  })
  console.log(JSON.stringify({ bench: 'mcp', store: STORE, seconds: SECONDS, rounds: ROUNDS, rows }))
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
