import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { startService } from './processes.js'

/*
 * CPU instructions per request, counted by valgrind's callgrind: unlike time, a count does not drift with the host.
 * Two processes of one build still differ by up to 4% (the JIT decides differently), and one process counted while
 * another runs gives other numbers (how many requests each wake-up of the event loop finds depends on timing): count
 * one process at a time, several of each. It counts the service's own (user-space) instructions; the kernel's share
 * of a request (the socket calls) is the same for every configuration, so a difference over this count overstates
 * the difference over the whole.
 */

export interface CountedRequest {
  name: string
  path: string
  headers: Record<string, string>
}

/** Each request is made this many times before counting (so the JIT has optimised the path). */
const WARM = 10_000
/**
 * Then counted in windows of this many, the lowest window kept: code run once in a hundred requests (a sampled access
 * line) is still being optimised by then, and one window with TurboFan compiling in it counts up to 5,000 instructions
 * more per request, once in the life of the process.
 */
const WINDOW = 5_000
const WINDOWS = 5
const CONNECTIONS = 10

export const callgrindAvailable = (): boolean => spawnSync('valgrind', ['--version']).status === 0

/**
 * Starts the built service under callgrind with `env` and counts the instructions of each request kind, in order.
 * Under callgrind the service serves about a thousand requests a second, so work done per second (timers, the capped
 * access lines) weighs some fifty times more per request than at real load: the count overstates it, never hides it.
 */
export async function countInstructions(databaseUrl: string, env: Record<string, string>, requests: CountedRequest[]): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'callgrind-'))
  const prefix = `--vgdb-prefix=${join(dir, 'vgdb')}`
  // Instrumentation off while the service starts (about 20 s instead of minutes); on before the warm-up.
  const under = ['valgrind', '--tool=callgrind', '--instr-atstart=no', prefix, `--callgrind-out-file=${join(dir, 'cg.%p')}`, `--log-file=${join(dir, 'valgrind.log')}`]
  const server = await startService(databaseUrl, env, undefined, under)
  // Valgrind names its control pipes after $USER and $HOST, and the service runs with HOST=127.0.0.1 (its listen
  // address): the control command must see the same HOST to find them.
  const controlEnv = { ...process.env, HOST: env.HOST ?? '127.0.0.1' }
  const control = (...args: string[]) => execFileSync('callgrind_control', [prefix, ...args, String(server.child.pid)], { stdio: 'ignore', env: controlEnv })
  const agent = new Agent({ connections: CONNECTIONS })
  const make = async (r: CountedRequest, n: number) => {
    let left = n
    const one = async () => {
      while (left-- > 0) {
        const res = await request(`${server.url}${r.path}`, { dispatcher: agent, headers: r.headers })
        await res.body.dump()
        if (res.statusCode >= 400) throw new Error(`${r.name}: ${res.statusCode}`)
      }
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, one))
  }
  try {
    control('--instr=on')
    for (const r of requests) await make(r, WARM)
    const perRequest: Record<string, number> = {}
    for (const r of requests) {
      const windows: number[] = []
      for (let w = 0; w < WINDOWS; w++) {
        control('--zero')
        await make(r, WINDOW)
        windows.push((await dumpTotal(dir, server.child.pid!, () => control('--dump'))) / WINDOW)
      }
      perRequest[r.name] = Math.min(...windows)
    }
    return perRequest
  } finally {
    await agent.close()
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Asks for a dump (cg.<pid>.<n>, n counting up from 1) and reads its instruction total once it is written. */
async function dumpTotal(dir: string, pid: number, dump: () => void): Promise<number> {
  const file = join(dir, `cg.${pid}.${readdirSync(dir).filter((f) => f.startsWith(`cg.${pid}.`)).length + 1}`)
  dump()
  for (let waited = 0; waited < 20_000; waited += 100) {
    const total = existsSync(file) ? readFileSync(file, 'utf8').match(/^totals: (\d+)/m) : null
    if (total) return Number(total[1])
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`callgrind wrote no ${file}`)
}
