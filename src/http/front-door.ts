import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Readiness {
  /** The store answered lately. */
  storeReachable(): boolean
}

/** An X-Request-Id a client or proxy sent is kept when it looks like an id (UUIDs, trace ids); otherwise one is made. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/

const PLAIN = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }

/**
 * The listening socket, bound before anything else starts, so a load balancer or orchestrator can ask from the first
 * moment: `/healthz` answers 200 while the process lives, `/readyz` 200 only while the node serves data (not while it
 * starts, while the store is unreachable, or while it drains). Every other request goes to the app once it is ready
 * and gets 503 before. The probes never reach the app: they are not logged and cost almost nothing.
 */
export class FrontDoor {
  readonly server: Server
  private app: RequestListener | undefined
  private draining = false
  /** Ids made here: a random prefix per process and a counter, unique across nodes and cheap on the hot path. */
  private readonly idPrefix = randomBytes(6).toString('hex')
  private ids = 0

  constructor(private readonly readiness: Readiness) {
    this.server = createServer((req, res) => this.route(req, res))
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(port, host, () => {
        this.server.off('error', reject)
        resolve(this.server.address() as AddressInfo)
      })
    })
  }

  /** From now on requests go to the app. */
  open(app: RequestListener): void {
    this.app = app
  }

  /** /readyz answers 503 from now on, so balancers stop sending new requests. */
  drain(): void {
    this.draining = true
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const id = this.identify(req)
    const path = req.url?.split('?', 1)[0]
    if (path === '/healthz') return probe(req, res, id, 200, { status: 'alive' })
    if (path === '/readyz') return this.ready(req, res, id)
    if (this.app) return this.app(req, res)
    send(res, id, 503, { error: 'unavailable', message: 'The service is starting: its data is not loaded yet.' }, { 'retry-after': '1' })
  }

  /**
   * The request's id, written into its headers, where Fastify takes it as the request's id; the app returns it on
   * the response (not set here: a header set on the response before Fastify's writeHead sends every header through
   * Node's one-by-one path, which cost about 4 µs per request).
   */
  private identify(req: IncomingMessage): string {
    const sent = req.headers['x-request-id']
    const id = typeof sent === 'string' && CLIENT_ID.test(sent) ? sent : `${this.idPrefix}-${(++this.ids).toString(36)}`
    req.headers['x-request-id'] = id
    return id
  }

  private ready(req: IncomingMessage, res: ServerResponse, id: string): void {
    const reason = this.draining
      ? 'draining: this node is stopping'
      : !this.app
        ? 'starting: the data is not loaded yet'
        : !this.readiness.storeReachable()
          ? 'the database does not answer'
          : undefined
    probe(req, res, id, reason ? 503 : 200, reason ? { status: 'not ready', reason } : { status: 'ready' })
  }
}

function probe(req: IncomingMessage, res: ServerResponse, id: string, status: number, body: object): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, id, 405, { error: 'method_not_allowed', message: 'Use GET or HEAD.' }, { allow: 'GET, HEAD' })
  send(res, id, status, body)
}

function send(res: ServerResponse, id: string, status: number, body: object, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body)
  res.writeHead(status, { ...PLAIN, ...headers, 'x-request-id': id, 'content-length': String(Buffer.byteLength(json)) })
  res.end(json)
}
