/**
 * WORKERS=N: N processes on one port (node:cluster), each a full node of the service over the same store. The
 * primary only supervises: it starts the workers, replaces one that dies, and on SIGTERM or SIGINT lets each drain
 * and stop, then exits. Nothing else in the service knows how many processes run: what they share is in the store.
 */
import cluster, { type Worker } from 'node:cluster'
import type { Logger } from 'pino'
import { serveClusterMetrics } from '../metrics/index.js'

/** A worker that dies this soon after it started is failing at start: replacements wait longer each time. */
const QUICK_DEATH_MS = 5000
const RESTART_BACKOFF_MS = [0, 500, 1000, 2000, 5000]
/** A worker still running this long after it was asked to stop is killed. */
const STOP_WITHIN_MS = 15_000

export const isWorker = (): boolean => cluster.isWorker

/** Tells the primary this worker serves (a no-op outside a cluster). */
export function reportServing(port: number): void {
  if (cluster.isWorker) process.send?.({ type: 'serving', port })
}

/** Supervises the workers and, unless `metrics` is null, serves /metrics for all of them (summed). */
export function superviseWorkers(count: number, metrics: { port: number; host: string } | null, log: Logger): void {
  const started = new Map<number, number>()
  const serving = new Set<number>()
  /**
   * Workers whose process has not exited. Not cluster.workers: node:cluster drops a worker from it only once both its
   * process has exited and its IPC channel has closed, in either order, so on the last worker's 'exit' it may still be
   * listed, and a primary waiting for an empty cluster.workers then never exits.
   */
  const alive = new Set<number>()
  let quickDeaths = 0
  let stopping = false

  const fork = () => {
    const worker = cluster.fork()
    started.set(worker.id, Date.now())
    alive.add(worker.id)
    worker.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type !== 'serving') return
      serving.add(worker.id)
      if (serving.size === count) log.info({ port: m.port, workers: count }, 'all workers serving')
    })
  }

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    serving.delete(worker.id)
    alive.delete(worker.id)
    if (stopping) {
      if (alive.size === 0) process.exit(0)
      return
    }
    const lived = Date.now() - (started.get(worker.id) ?? 0)
    quickDeaths = lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0
    const wait = RESTART_BACKOFF_MS[Math.min(quickDeaths, RESTART_BACKOFF_MS.length - 1)]!
    log.error({ worker: worker.process.pid, code, signal, restartInMs: wait }, 'a worker died; starting a replacement')
    setTimeout(fork, wait)
  })

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'stopping: every worker drains its requests')
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && alive.has(w.id))
    if (workers.length === 0) process.exit(0)
    for (const worker of workers) worker.process.kill('SIGTERM')
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL')
    }, STOP_WITHIN_MS).unref()
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  for (let i = 0; i < count; i++) fork()
  if (metrics) {
    serveClusterMetrics(metrics.port, metrics.host).then(
      ({ port }) => log.info({ host: metrics.host, port }, 'metrics of every worker at /metrics'),
      (err: unknown) => {
        log.fatal({ err }, 'cannot serve /metrics')
        stop('SIGTERM')
      }
    )
  }
}
