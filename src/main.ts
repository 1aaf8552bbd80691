/** Composition root: store -> snapshot holder -> HTTP, MCP and WebSub; start and graceful stop of one node. */
import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { pino, type Logger } from 'pino'
import type { Config } from './config/index.js'
import { buildHttpApp, FrontDoor } from './http/index.js'
import { seedDemoIfEmpty } from './ingest/index.js'
import { McpEndpoint } from './mcp/index.js'
import { Metrics, serveMetrics, shareWithPrimary, timedStore } from './metrics/index.js'
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
/** Waits between attempts to reach a database that does not answer at start. */
const STORE_RETRY_MS = [250, 500, 1000, 2000, 5000]

export interface Service {
  app: FastifyInstance
  metrics: Metrics
  store: Store
  holder: SnapshotHolder
  mcp: McpEndpoint
  hub: Hub
  log: Logger
  /** The address actually bound (PORT=0 picks a free port). */
  address: { host: string; port: number }
  stop(): Promise<void>
}

/**
 * Starts one node. The port is bound first, so health probes get answers at once (/readyz 503 until the data is
 * served); then the store (waiting for it while it does not answer), the demo data if the store is empty, the first
 * snapshot, and the app. Every node of a cluster runs exactly this: what they share is in the store.
 */
export async function startService(config: Config): Promise<Service> {
  const log = pino({
    level: config.logLevel,
    base: { service: 'reviews-service', pid: process.pid },
    // A callback URL's query string may carry a subscriber's token: logs show where it points, not that.
    redact: { paths: ['callback'], censor: (value) => withoutQuery(value) }
  })
  const metrics = new Metrics({ runtime: config.metrics !== null })
  let store: Store | undefined
  const door = new FrontDoor({ storeReachable: () => store?.reachable ?? false })
  const address = await door.listen(config.port, config.host)
  log.info({ host: address.address, port: address.port }, 'listening; loading the data')
  let exposed: Server | undefined
  try {
    exposed = await exposeMetrics(config, metrics, log)
    // METRICS_PORT=0 turns metrics off, the per-request and per-query observations with them.
    const connected = await connect(config, log)
    store = config.metrics ? timedStore(connected, metrics) : connected
    const node = await startNode(config, log, store, door, metrics)
    log.info({ host: address.address, port: address.port, baseUrl: config.urls.base, version: node.holder.current.version }, 'serving')
    return { ...node, store, log, metrics, address: { host: address.address, port: address.port }, stop: stopper(door, node, store, config.shutdownGraceMs, exposed) }
  } catch (err) {
    door.server.close()
    exposed?.close()
    await store?.close()
    throw err
  }
}

/**
 * The /metrics listener of a single-process node. In a worker (WORKERS > 1) the primary serves the whole node's
 * metrics, so the worker only answers the primary.
 */
async function exposeMetrics(config: Config, metrics: Metrics, log: Logger): Promise<Server | undefined> {
  if (!config.metrics) return undefined
  if (config.workers > 1) {
    shareWithPrimary(metrics)
    return undefined
  }
  const { server, port } = await serveMetrics(metrics.registry, config.metrics.port, config.metrics.host)
  log.info({ host: config.metrics.host, port }, 'metrics at /metrics')
  return server
}

async function startNode(config: Config, log: Logger, store: Store, door: FrontDoor, metrics: Metrics) {
  const seeded = await seedDemoIfEmpty(store)
  if (!seeded.skipped) log.info({ reviews: seeded.added }, 'empty database: loaded the bundled demo data')
  const holder = new SnapshotHolder(store, config.urls, log, { built: (s) => metrics.snapshotBuilt(s), failed: () => metrics.snapshotFailed() })
  await holder.refresh()
  holder.watch()
  const hubTopics = topics(config.urls)
  metrics.attach({
    data: () => ({ version: holder.current.version, changedAt: holder.current.changedAt }),
    store,
    topicLabel: (url) => (hubTopics.some((t) => t.url === url) ? new URL(url).pathname : 'other')
  })
  const mcp = new McpEndpoint({
    urls: config.urls,
    current: () => holder.current,
    log,
    ...config.mcp,
    version: VERSION,
    sessions: store.sessions,
    ...(config.metrics && { observer: { request: (m, ok) => metrics.mcpRequest(m, ok), toolCall: (t, ok, s) => metrics.mcpToolCall(t, ok, s), notification: (type) => metrics.mcpNotification(type) } })
  })
  holder.onSwap((next, previous) => mcp.dataChanged(next, previous))
  const hub = new Hub({
    settings: config.websub,
    store: store.subscriptions,
    topics: hubTopics,
    current: () => holder.current,
    log,
    observer: { delivery: (topic, ok) => metrics.websubDelivery(topic, ok), verification: (ok) => metrics.websubVerification(ok) }
  })
  holder.onSwap(() => hub.dataChanged())
  await hub.start()
  const { app, handle, byPath } = await buildHttpApp({
    holder,
    urls: config.urls,
    logger: log,
    mcp,
    hub,
    hubLimits: config.websub,
    embedAllowedOrigins: config.embed.allowedOrigins,
    rates: store.rates,
    firstSeen: (key) => store.firstSeen(key, new Date()),
    server: door.server,
    trustProxy: config.trustProxy,
    logRequestSample: config.logRequestSample,
    logRequestMaxPerSecond: config.logRequestMaxPerSecond,
    observe: config.metrics ? (route) => metrics.httpRoute(route) : undefined
  })
  door.open(handle, byPath)
  return { app, holder, mcp, hub }
}

/** Opens the store, retrying while the database does not answer (it may be starting alongside this node). */
async function connect(config: Config, log: Logger): Promise<Store> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openStore(config.databaseUrl, config.store)
    } catch (err) {
      if (!isUnreachable(err)) throw err
      const wait = STORE_RETRY_MS[Math.min(attempt, STORE_RETRY_MS.length - 1)]!
      log.warn({ err: (err as Error).message, retryInMs: wait }, 'the database does not answer yet')
      await new Promise((ok) => setTimeout(ok, wait))
    }
  }
}

/** Network failures reaching a database server: worth waiting for. Anything else (a bad path, bad credentials) is not. */
function isUnreachable(err: unknown): boolean {
  const code = (err as { code?: string }).code
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'EAI_AGAIN' || code === '57P03'
}

/**
 * A graceful stop: /readyz fails at once, and for `graceMs` the node goes on serving so that balancers that check
 * readiness stop sending it requests; then it stops accepting, finishes what is in flight (cut after DRAIN_MS), hands
 * its hub work back to the cluster and closes the store.
 */
function stopper(door: FrontDoor, node: { app: FastifyInstance; holder: SnapshotHolder; hub: Hub }, store: Store, graceMs: number, exposed?: Server): () => Promise<void> {
  let stopping: Promise<void> | undefined
  return () =>
    (stopping ??= (async () => {
      door.drain()
      if (graceMs > 0) await new Promise((ok) => setTimeout(ok, graceMs))
      node.holder.stop()
      await closeWithin(door, node.app, DRAIN_MS)
      await node.hub.stop()
      await store.close()
      exposed?.close()
    })())
}

async function closeWithin(door: FrontDoor, app: FastifyInstance, ms: number): Promise<void> {
  const cut = setTimeout(() => door.closeAllConnections(), ms)
  try {
    const closed = new Promise<void>((ok) => door.server.close(() => ok()))
    door.closeIdleConnections()
    await app.close()
    await closed
  } finally {
    clearTimeout(cut)
  }
}

/** A URL without its query string (which may hold a token); anything else as it was. */
function withoutQuery(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const q = value.indexOf('?')
  return q < 0 ? value : `${value.slice(0, q)}?[redacted]`
}
