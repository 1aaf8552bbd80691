import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { FastPath, type PathRoute } from './fast-path.js'
import { RequestIds } from './request-ids.js'

export interface Readiness {
  /** The store answered lately. */
  storeReachable(): boolean
}

const PLAIN = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }

/**
 * The listening socket, bound before anything else starts, so a load balancer or orchestrator can ask from the first
 * moment: `/healthz` answers 200 while the process lives, `/readyz` 200 only while the node serves data (not while it
 * starts, while the store is unreachable, or while it drains). Every other request goes to the app once it is ready
 * and gets 503 before. The probes never reach the app: they are not logged and cost almost nothing.
 *
 * Once the app is open, each new connection goes first to the fast path, which answers the routes that depend on
 * their path alone and hands the connection to node:http (and so to the probes and the app) at the first request it
 * does not answer itself (fast-path.ts).
 */
export class FrontDoor {
  readonly server: Server
  private app: RequestListener | undefined
  private fast: FastPath | undefined
  private draining = false
  private readonly ids = new RequestIds()
  /** node:http's own handler of a new connection: it reads the requests and makes the server's 'request' events. */
  private readonly httpConnection: (socket: Socket) => void

  constructor(private readonly readiness: Readiness) {
    this.server = createServer((req, res) => this.route(req, res))
    // node:http listens to its own 'connection' event (its documented way to inject a connection); the fast path
    // takes every connection first and gives it back to that listener.
    const [httpConnection, ...others] = this.server.listeners('connection') as ((socket: Socket) => void)[]
    if (!httpConnection || others.length) throw new Error('node:http no longer handles connections through one connection listener')
    this.httpConnection = httpConnection
    this.server.removeListener('connection', httpConnection)
    this.server.on('connection', (socket: Socket) => (this.fast ? this.fast.adopt(socket) : this.toHttp(socket, undefined)))
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

  /** From now on requests go to the app, and those for `byPath` to the fast path. */
  open(app: RequestListener, byPath: ReadonlyMap<string, PathRoute>): void {
    this.app = app
    this.fast = new FastPath({
      routes: byPath,
      ids: this.ids,
      firstRequestMs: this.server.headersTimeout,
      keepAliveMs: this.server.keepAliveTimeout,
      handOff: (socket, unread) => this.toHttp(socket, unread)
    })
  }

  /** Ends the connections that wait for a request (with no answer owed), as node:http's closeIdleConnections. */
  closeIdleConnections(): void {
    this.server.closeIdleConnections()
    this.fast?.closeIdle()
  }

  closeAllConnections(): void {
    this.server.closeAllConnections()
    this.fast?.closeAll()
  }

  /** /readyz answers 503 from now on, so balancers stop sending new requests. */
  drain(): void {
    this.draining = true
  }

  /** node:http takes the connection, reading first the bytes already read from it. */
  private toHttp(socket: Socket, unread: Buffer | undefined): void {
    this.httpConnection.call(this.server, socket)
    if (unread) socket.unshift(unread)
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
    const id = this.ids.for(req.headers['x-request-id'])
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
