import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

export interface Running {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/** Starts a process that logs a JSON line with `port` and msg `ready`/`serving`, and resolves its URL. */
export function startProcess(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number }
        if ((entry.msg === 'serving' || entry.msg === 'ready') && entry.port) {
          resolve({
            url: `http://127.0.0.1:${entry.port}`,
            child,
            stop: () =>
              new Promise<void>((done) => {
                child.removeAllListeners('exit')
                child.once('exit', () => done())
                child.kill('SIGTERM')
              })
          })
        }
      } catch {
        /* not a log line */
      }
    })
  })
}

/** The built service (dist/) on a fresh database seeded with the demo data. */
export function startService(databaseUrl: string, env: Record<string, string> = {}): Promise<Running> {
  return startProcess(['dist/cli.js', 'serve'], { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env })
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
