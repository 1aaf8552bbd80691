/** Composition root: store -> snapshot holder -> HTTP; start and graceful stop. */
import type { FastifyInstance } from 'fastify'
import { pino, type Logger } from 'pino'
import type { Config } from './config/index.js'
import { buildHttpApp } from './http/index.js'
import { seedDemoIfEmpty } from './ingest/index.js'
import { McpEndpoint } from './mcp/index.js'
import { SnapshotHolder, topics } from './snapshot/index.js'
import { openStore, type Store } from './store/index.js'
import { Hub } from './websub/index.js'

/** The service's version, as the OpenAPI document and MCP serverInfo give it. */
export const VERSION = '1.0.0'

/**
 * How long a stop waits for requests in flight. Past it every connection is cut: a client that opened a connection
 * and sent nothing (pre-connecting HTTP clients do) would otherwise hold the process until Node's header timeout.
 */
const DRAIN_MS = 3000

export interface Service {
  app: FastifyInstance
  store: Store
  holder: SnapshotHolder
  mcp: McpEndpoint
  hub: Hub
  log: Logger
  /** The address actually bound (PORT=0 picks a free port). */
  address: { host: string; port: number }
  stop(): Promise<void>
}

export async function startService(config: Config): Promise<Service> {
  const log = pino({ level: config.logLevel, base: { service: 'reviews-service' } })
  const store = await openStore(config.databaseUrl, { pollIntervalMs: config.pollIntervalMs })
  const seeded = await seedDemoIfEmpty(store)
  if (!seeded.skipped) log.info({ reviews: seeded.added }, 'empty database: loaded the bundled demo data')
  const holder = new SnapshotHolder(store, config.urls, log)
  await holder.refresh()
  holder.watch()
  const mcp = new McpEndpoint({ urls: config.urls, current: () => holder.current, log, ...config.mcp, version: VERSION })
  holder.onSwap((next, previous) => mcp.dataChanged(next, previous))
  const hub = new Hub({ settings: config.websub, store: store.subscriptions, topics: topics(config.urls), current: () => holder.current, log })
  holder.onSwap(() => hub.dataChanged())
  await hub.start()
  const app = await buildHttpApp({ holder, urls: config.urls, logger: log, mcp, hub, hubLimits: config.websub })
  await app.listen({ port: config.port, host: config.host })
  const bound = app.server.address()
  const address = typeof bound === 'object' && bound ? { host: bound.address, port: bound.port } : { host: config.host, port: config.port }
  log.info({ ...address, baseUrl: config.urls.base, version: holder.current.version }, 'serving')
  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      holder.stop()
      await closeWithin(app, DRAIN_MS)
      await hub.stop()
      await store.close()
    })())
  return { app, store, holder, mcp, hub, log, address, stop }
}

async function closeWithin(app: FastifyInstance, ms: number): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), ms)
  try {
    await app.close()
  } finally {
    clearTimeout(cut)
  }
}
