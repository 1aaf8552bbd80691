import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Exposition {
  contentType: string
  metrics(): Promise<string>
}

/**
 * The Prometheus endpoint on a listener of its own (METRICS_HOST, 127.0.0.1 by default), so the public port never
 * exposes it: GET /metrics, nothing else.
 */
export async function serveMetrics(exposition: Exposition, port: number, host: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n')
      return
    }
    exposition.metrics().then(
      (text) => res.writeHead(200, { 'content-type': exposition.contentType, 'cache-control': 'no-store' }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`Could not collect the metrics: ${err.message}\n`)
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return { server, port: (server.address() as AddressInfo).port }
}
