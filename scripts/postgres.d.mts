// Types for scripts/postgres.mjs, so TypeScript (the benchmarks) can start a throwaway cluster too.

export interface Cluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres: the admin URL (trust authentication, loopback only). */
  url: string
  stop(): void
}

export function postgresBinDir(): string
export function startPostgres(): Promise<Cluster>
/** Stops the cluster once, whichever way the process ends; returns that stop. */
export function stopOnExit(cluster: Cluster): () => void
