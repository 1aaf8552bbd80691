import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { descendants } from './host.js'

export interface Running {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/** A JSON log line of a process, with when it arrived here. */
export interface LogEntry {
  msg?: string
  at: number
  [field: string]: unknown
}

export interface Started extends Running {
  /** Calls `listener` with every JSON log line the process writes from now on. */
  onLog(listener: (entry: LogEntry) => void): void
}

/**
 * Starts a process that logs a JSON line with `port` and one of the `ready` messages, and resolves its URL. With
 * WORKERS=N the workers log `serving` one by one; the primary's `all workers serving` is the line to wait for.
 */
export function startProcess(args: string[], env: Record<string, string> = {}, ready = ['serving', 'ready'], cwd?: string, under: string[] = []): Promise<Started> {
  const [command, ...rest] = [...under, process.execPath, ...args] as [string, ...string[]]
  const child = spawn(command, rest, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], cwd })
  const listeners: ((entry: LogEntry) => void)[] = []
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: LogEntry
      try {
        entry = { ...(JSON.parse(line) as object), at: performance.timeOrigin + performance.now() }
      } catch {
        return // not a log line
      }
      for (const listener of listeners) listener(entry)
      if (entry.msg && ready.includes(entry.msg) && typeof entry.port === 'number') {
        resolve({
          url: `http://127.0.0.1:${entry.port}`,
          child,
          onLog: (listener) => listeners.push(listener),
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done()
              child.removeAllListeners('exit')
              child.once('exit', () => done())
              child.kill('SIGTERM')
            })
        })
      }
    })
  })
}

/**
 * The built service (dist/) on a fresh database seeded with the demo data. Metrics are off unless `env` gives a
 * METRICS_PORT: several services run side by side, and the default port is one. `root` runs another built checkout
 * (an earlier commit, as a baseline) instead of this one; `under` is a command that runs node (valgrind, for one).
 */
export function startService(databaseUrl: string, env: Record<string, string> = {}, root?: string, under?: string[]): Promise<Started> {
  const ready = Number(env.WORKERS ?? 1) > 1 ? ['all workers serving'] : ['serving']
  return startProcess(['dist/cli.js', 'serve'], { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', METRICS_PORT: '0', ...env }, ready, root, under)
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc. Per-request CPU is far steadier than req/s on a
 * shared virtual machine, so benchmarks report both.
 */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return ticks * 10 // USER_HZ is 100 on Linux
}

/** CPU time (ms) of a process and all its descendants (a cluster primary and its workers, an nginx master and its workers). */
export function treeCpuMs(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + cpuMs(p), 0)
}
