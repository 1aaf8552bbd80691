/**
 * Metrics: the Prometheus instruments of a node, what the other areas report to them, the store timed, and the
 * /metrics listener. With WORKERS > 1 the primary serves the sum of its workers (prom-client's cluster aggregation).
 */
import cluster from 'node:cluster'
import { AggregatorRegistry } from 'prom-client'
import type { Metrics } from './metrics.js'
import { serveMetrics } from './server.js'

export { Metrics, type MetricsSources } from './metrics.js'
export { timedStore } from './store-timing.js'
export { serveMetrics } from './server.js'

/** In a worker: answer the primary's requests for this node's metrics (a no-op outside a cluster). */
export function shareWithPrimary(metrics: Metrics): void {
  if (!cluster.isWorker) return
  // The constructor installs the listener that answers the primary; the registries are this worker's own.
  new AggregatorRegistry()
  AggregatorRegistry.setRegistries([metrics.registry])
}

/** In the primary: /metrics answers with every worker's metrics, summed (or, for cluster-wide gauges, taken once). */
export function serveClusterMetrics(port: number, host: string) {
  const aggregator = new AggregatorRegistry()
  return serveMetrics({ contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() }, port, host)
}
