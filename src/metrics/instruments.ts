import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { HttpTally } from './http-tally.js'

/** Seconds: from a 304 in well under a millisecond to a slow MCP call or a snapshot build of a large dataset. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const BUILD_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60]

/**
 * Every instrument, in one registry per node. Label values are bounded by construction: route templates (never raw
 * URLs), HTTP methods and statuses, store operation names, topic paths, MCP method and tool names from fixed lists.
 * Gauges whose value comes from the shared store say `aggregator: 'first'`: every worker reports the same cluster
 * value, and summing them over a node's workers would multiply it.
 */
export function createInstruments(registry: Registry, cluster: ClusterReads, runtime: boolean) {
  if (runtime) collectDefaultMetrics({ register: registry })
  const r = [registry]
  const i = {
    dataVersion: new Gauge({ name: 'reviews_data_version', help: 'The data version this node serves.', registers: r, aggregator: 'max' }),
    dataAge: new Gauge({ name: 'reviews_data_age_seconds', help: 'Seconds since the published data this node serves last changed.', registers: r, aggregator: 'min' }),
    buildDuration: new Histogram({ name: 'reviews_snapshot_build_duration_seconds', help: 'Time to build a snapshot (documents, feeds, insights, compressed bodies) of a new data version.', buckets: BUILD_BUCKETS, registers: r }),
    buildFailures: new Counter({ name: 'reviews_snapshot_build_failures_total', help: 'Snapshot builds that failed (the previous snapshot stays served).', registers: r }),
    storeDuration: new Histogram({ name: 'reviews_store_query_duration_seconds', help: 'Time of a store operation, by operation.', labelNames: ['operation'], buckets: LATENCY_BUCKETS, registers: r }),
    storeErrors: new Counter({ name: 'reviews_store_errors_total', help: 'Store operations that failed, by operation.', labelNames: ['operation'], registers: r }),
    imports: new Counter({ name: 'reviews_imports_total', help: 'Import runs recorded in the store (cluster-wide), by outcome: changed, unchanged or failed.', labelNames: ['outcome'], registers: r, aggregator: 'first' }),
    websubSubscriptions: new Gauge({ name: 'websub_subscriptions', help: 'WebSub subscriptions (cluster-wide), by topic and state: active, owed (behind the current data version), retrying (backing off after a failure).', labelNames: ['topic', 'state'], registers: r, aggregator: 'first' }),
    websubOwed: new Gauge({ name: 'websub_owed_deliveries', help: 'Active subscriptions (cluster-wide) that have not yet received the current content.', registers: r, aggregator: 'first' }),
    websubPendingVerifications: new Gauge({ name: 'websub_pending_verifications', help: 'Subscribe and unsubscribe requests (cluster-wide) accepted and not yet verified.', registers: r, aggregator: 'first' }),
    websubFanout: new Gauge({ name: 'websub_fanout_seconds', help: 'Seconds from the current data version\'s commit to its last acknowledged delivery (cluster-wide); NaN while deliveries of it are owed or none was made.', registers: r, aggregator: 'first' }),
    websubDeliveries: new Counter({ name: 'websub_deliveries_total', help: 'Delivery attempts this node made, by topic and outcome (success: 2xx; failure: anything else).', labelNames: ['topic', 'outcome'], registers: r }),
    websubVerifications: new Counter({ name: 'websub_verifications_total', help: 'Verifications of intent this node made, by outcome (verified or failed).', labelNames: ['outcome'], registers: r }),
    mcpSessions: new Gauge({ name: 'mcp_sessions_open', help: 'Live MCP sessions (cluster-wide).', registers: r, aggregator: 'first' }),
    mcpRequests: new Counter({ name: 'mcp_requests_total', help: 'MCP requests this node answered, by method and outcome (result or error).', labelNames: ['method', 'outcome'], registers: r }),
    mcpToolCalls: new Counter({ name: 'mcp_tool_calls_total', help: 'MCP tool calls this node answered, by tool and outcome (ok or error).', labelNames: ['tool', 'outcome'], registers: r }),
    mcpToolDuration: new Histogram({ name: 'mcp_tool_call_duration_seconds', help: 'Time to answer an MCP tool call, by tool.', labelNames: ['tool'], buckets: LATENCY_BUCKETS, registers: r }),
    mcpNotifications: new Counter({ name: 'mcp_notifications_sent_total', help: 'MCP notifications this node sent on notification streams, by type.', labelNames: ['type'], registers: r })
  }
  readAtScrape(i, cluster)
  return { ...i, http: new HttpTally(registry, LATENCY_BUCKETS) }
}

/** What a scrape reads from the node's snapshot and the shared store (undefined while the node is starting). */
export interface ClusterReads {
  data(): { version: number; changedAt: Date } | undefined
  hub(): Promise<HubView | undefined>
  sessionsOpen(): Promise<number | undefined>
  imports(): Promise<Record<string, number> | undefined>
}

export interface HubView {
  /** Per topic label: active, owed and retrying subscriptions. */
  topics: Record<string, { active: number; owed: number; retrying: number }>
  owed: number
  pendingVerifications: number
  /** Seconds from the current version's commit to its last delivery, when all of it is delivered. */
  fanoutSeconds: number | undefined
}

/**
 * Gauges (and the import counter) whose values live elsewhere are set when Prometheus scrapes, never by a write path
 * that would have to remember to update them. A registry collects its metrics in parallel, so each reads for itself;
 * `hub()` is one store read shared by a scrape.
 */
function readAtScrape(i: Record<string, Counter | Gauge | Histogram>, cluster: ClusterReads): void {
  const set = (name: string, read: (metric: Gauge | Counter) => Promise<void> | void) => {
    ;(i[name] as unknown as { collect?: () => Promise<void> | void }).collect = () => read(i[name] as Gauge)
  }
  set('dataVersion', (g) => {
    const d = cluster.data()
    if (d) (g as Gauge).set(d.version)
  })
  set('dataAge', (g) => {
    const d = cluster.data()
    if (d) (g as Gauge).set(Math.max(0, (Date.now() - d.changedAt.getTime()) / 1000))
  })
  set('websubSubscriptions', async (g) => {
    const hub = await cluster.hub()
    if (!hub) return
    const gauge = g as Gauge
    gauge.reset()
    for (const [topic, states] of Object.entries(hub.topics)) for (const [state, n] of Object.entries(states)) gauge.set({ topic, state }, n)
  })
  set('websubOwed', async (g) => {
    const hub = await cluster.hub()
    if (hub) (g as Gauge).set(hub.owed)
  })
  set('websubPendingVerifications', async (g) => {
    const hub = await cluster.hub()
    if (hub) (g as Gauge).set(hub.pendingVerifications)
  })
  set('websubFanout', async (g) => {
    const hub = await cluster.hub()
    if (hub) (g as Gauge).set(hub.fanoutSeconds ?? Number.NaN)
  })
  set('mcpSessions', async (g) => {
    const n = await cluster.sessionsOpen()
    if (n !== undefined) (g as Gauge).set(n)
  })
  set('imports', async (c) => {
    const runs = await cluster.imports()
    if (!runs) return
    const counter = c as Counter
    counter.reset()
    for (const [outcome, n] of Object.entries(runs)) counter.inc({ outcome }, n)
  })
}

export type Instruments = ReturnType<typeof createInstruments>
