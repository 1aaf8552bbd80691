import { cpus } from 'node:os'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * How busy the machine was with other people's work while a benchmark measured: the CPU time the whole machine
 * spent in processes (/proc/stat) minus what the benchmark's own processes spent (this process and the children it
 * reaped, such as wrk or an import CLI, and the process trees it names, with their reaped children), as a share of
 * the machine's capacity. On a shared 2-core machine a test suite started meanwhile halves a server's req/s; this
 * says so.
 */
export class OtherLoad {
  private startedAt = 0
  private machineBefore = machineTimes()
  private oursBefore = 0
  private everyoneBefore = new Map<number, number>()

  /** `ours` lists the roots of the process trees that belong to the benchmark (servers, nginx, PostgreSQL). */
  constructor(private readonly ours: () => number[]) {}

  start(): void {
    this.startedAt = performance.now()
    this.machineBefore = machineTimes()
    this.oursBefore = this.oursMs()
    this.everyoneBefore = everyProcess()
  }

  /** The share (0 to 1) of the machine's CPU that others used since start(). */
  share(): number {
    const wallMs = performance.now() - this.startedAt
    const others = machineTimes().busy - this.machineBefore.busy - (this.oursMs() - this.oursBefore)
    return Math.max(0, others / (wallMs * cpus().length))
  }

  /**
   * Who the others were since start(), for the log: the processes outside the benchmark's trees that used the most
   * CPU (those that started and ended meanwhile are not seen), and the interrupt time no process is charged with.
   */
  culprits(): string {
    const mine = new Set(this.roots().flatMap((pid) => [pid, ...descendants(pid)]))
    const used = [...everyProcess()]
      .filter(([pid]) => !mine.has(pid))
      .map(([pid, ms]) => ({ pid, ms: ms - (this.everyoneBefore.get(pid) ?? 0) }))
      .filter((p) => p.ms >= 100)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((p) => `${commandOf(p.pid)} (pid ${p.pid}) ${p.ms} ms`)
    const now = machineTimes()
    return [...used, `irq+softirq ${now.interrupts - this.machineBefore.interrupts} ms`].join(', ')
  }

  private roots(): number[] {
    return [process.pid, ...this.ours()]
  }

  private oursMs(): number {
    return [...new Set(this.roots().flatMap((pid) => [pid, ...descendants(pid)]))].reduce((sum, pid) => sum + lifetimeCpuMs(pid), 0)
  }
}

/** utime + stime (ms) of every process now (threads included). */
function everyProcess(): Map<number, number> {
  const out = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const f = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')
      out.set(Number(entry), (Number(f[11]) + Number(f[12])) * 10)
    } catch {
      // gone meanwhile
    }
  }
  return out
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 80) || readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return '?'
  }
}

/**
 * CPU time (ms) all cores have spent since boot: busy in processes (user, nice, system) or taken by the hypervisor
 * (steal), and in interrupts. Interrupt time (mostly loopback packets: a quarter of the machine under wrk) is charged
 * to no process, so it cannot be told apart by owner and is left out of `busy`.
 */
function machineTimes(): { busy: number; interrupts: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number)
  return { busy: (user! + nice! + system! + steal!) * 10, interrupts: (irq! + softirq!) * 10 } // USER_HZ is 100 on Linux
}

/** utime + stime + cutime + cstime (ms): a process's CPU and that of its children it has reaped. 0 once it is gone. */
function lifetimeCpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10
  } catch {
    return 0
  }
}

/** Every live descendant of a process (children, their children, ...). */
export function descendants(pid: number): number[] {
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const children = tasks.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number)
    } catch {
      return []
    }
  })
  return children.flatMap((c) => [c, ...descendants(c)])
}

/** The postmaster of the PostgreSQL server listening on `port` (its command line has `-p <port>`), if it runs here. */
export function postmasterPid(port: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (!/postgres$/.test(args[0] ?? '')) continue
      const p = args.indexOf('-p')
      if (p >= 0 && Number(args[p + 1]) === port) return Number(entry)
    } catch {
      // gone meanwhile
    }
  }
  return undefined
}
