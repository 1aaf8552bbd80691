import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'

export interface WrkResult {
  requests: number
  rps: number
  p50ms: number
  p99ms: number
  errors: number
}

export interface WrkOptions {
  seconds: number
  connections?: number
  threads?: number
  headers?: Record<string, string>
  /** Lua script body (e.g. a request() that varies the URL). */
  script?: string
}

/** Runs wrk (Debian package) against a loopback URL and parses its --latency report. */
export function wrk(url: string, o: WrkOptions): WrkResult {
  const args = ['-t', String(o.threads ?? 2), '-c', String(o.connections ?? 50), '-d', `${o.seconds}s`, '--latency']
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}: ${v}`)
  if (o.script) {
    const file = `/tmp/wrk-${process.pid}-${Date.now()}.lua`
    writeFileSync(file, o.script)
    args.push('-s', file)
  }
  const r = spawnSync('wrk', [...args, url], { encoding: 'utf8' })
  if (r.error) throw new Error(`wrk not available (${r.error.message}): apt-get install wrk`)
  const out = r.stdout
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1])
  const requests = Number(out.match(/(\d+) requests in/)?.[1])
  const errors = [...out.matchAll(/(?:connect|read|write|timeout) (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0) + Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0)
  return { requests, rps, p50ms: latency(out, '50%'), p99ms: latency(out, '99%'), errors }
}

function latency(out: string, pct: string): number {
  const m = out.match(new RegExp(`${pct}\\s+([\\d.]+)(us|ms|s)`))
  if (!m) return NaN
  const v = Number(m[1])
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}
