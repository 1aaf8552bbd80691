import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/**
 * How a test runs `reviews-service` as its own process: the built service (dist/, what `npm start` runs), which npm
 * test builds before any test. Under tsx each process spent about 1.1 s more to start a server and 0.5 s more to run
 * an import, and the suites start a few hundred of them. The first use checks that no source file is newer than the
 * build, so a test run by hand on a stale dist/ fails at once instead of testing old code.
 */
export function cliArgs(args: string[]): string[] {
  assertBuilt()
  return [BUILT_CLI, ...args]
}

const BUILT_CLI = 'dist/cli.js'
let built = false

function assertBuilt(): void {
  if (built) return
  const builtAt = statSync(BUILT_CLI, { throwIfNoEntry: false })?.mtimeMs
  if (builtAt === undefined) throw new Error(`${BUILT_CLI} is missing: run npm run build (npm test builds it first)`)
  const stale = sourceFiles('src').find((f) => statSync(f).mtimeMs > builtAt)
  if (stale) throw new Error(`${stale} is newer than ${BUILT_CLI}: run npm run build (npm test builds it first)`)
  built = true
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [] : [join(dir, e.name)]))
}

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs `reviews-service <args>` as its own process, the way a user would. */
export function runCli(args: string[], env: Record<string, string>): CliResult {
  const r = spawnSync(process.execPath, cliArgs(args), { encoding: 'utf8', env: { ...process.env, ...env } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Structured log lines seen so far. */
  logs: Record<string, unknown>[]
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export interface StartOptions {
  /** The log message that means the process is up (default `serving`; a WORKERS > 1 primary logs `all workers serving`). */
  until?: string
}

const START_WAIT_MS = 60_000

/** Starts `reviews-service serve` as a child process on a free port and waits for the log line that says it is up. */
export function startServerProcess(env: Record<string, string>, o: StartOptions = {}): Promise<ServerProcess> {
  const until = o.until ?? 'serving'

  const child = spawn(process.execPath, cliArgs(['serve']), {
    // No Prometheus listener unless a test asks for one: processes started side by side would fight over its port.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const logs: Record<string, unknown>[] = []
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    // A wait for liveness, not a speed target: three nodes seeding one database while other suites run beside them
    // took over 20 s on a slow day of the 2-core machine (14.6 s with the machine to themselves).
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no "${until}" log line within ${START_WAIT_MS / 1000} s`))
    }, START_WAIT_MS)
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: Record<string, unknown>
      try {
        entry = JSON.parse(line)
      } catch {
        return
      }
      logs.push(entry)
      if (entry.msg === until) {
        clearTimeout(timer)
        resolve({
          url: `http://127.0.0.1:${entry.port}`,
          child,
          logs,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal)
            return exited
          }
        })
      }
    })
  })
}
