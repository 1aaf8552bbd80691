import type { Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { Representation, Variant } from '../snapshot/index.js'
import { evaluatePreconditions } from './conditional.js'
import { readSimpleHead, type SimpleHead } from './request-head.js'
import type { RequestIds } from './request-ids.js'
import type { RouteRecorder } from './request-log.js'
import { pickVariant } from './send.js'

/** A GET route whose answer depends on its path alone (see pathRoute in send.ts). */
export interface PathRoute {
  /** The representation to serve now; a promise while it is being built the first time. */
  current(): Representation | Promise<Representation>
  record: RouteRecorder | undefined
}

export interface FastPathOptions {
  /** By exact request target (no query string, nothing decoded). */
  routes: ReadonlyMap<string, PathRoute>
  ids: RequestIds
  /** How long a connection may wait for its first request (node:http's headersTimeout). */
  firstRequestMs: number
  /** How long a connection may stay idle between requests (node:http's keepAliveTimeout). */
  keepAliveMs: number
  /** Gives the connection to node:http, with the bytes read but not answered (they start a request). */
  handOff(socket: Socket, unread: Buffer | undefined): void
}

/** The status line and the variant's fields of a 200 and of a 304, each line ended by CRLF, made once per variant. */
interface Heads {
  ok: string
  notModified: string
}

/**
 * Answers the requests for prebuilt representations that depend on the path alone (the datasets, the feeds, the
 * OpenAPI document, the pages without parameters) straight from the socket, with the same bytes node:http and the
 * Fastify route would send (the route stays registered and answers everything else about the path: a query string,
 * a 412). node:http builds a request and a response object, a stream and a header map per request, which costs a
 * 304 about three times what nginx spends on it; here a request is a regular expression over its head, a map lookup
 * and one write (ADR 0008).
 *
 * A connection starts here and stays here while each chunk read from it holds only complete requests this answers.
 * At the first byte of anything else (another route, a body, an unusual or malformed head, a request cut across two
 * reads) the connection goes to node:http for good, starting with that byte: one parser decides where each request
 * ends, so the two can never disagree on it.
 */
export class FastPath {
  private readonly sockets = new Set<Socket>()
  private readonly heads = new WeakMap<Variant, Heads>()
  /** Node's Connection and Keep-Alive fields, as it sends them with a keep-alive timeout. */
  private readonly keepAlive: string
  private tailDate = ''
  private tailLines = ''
  /** Whether the socket being written was corked while answering the chunk read from it. */
  private corked = false

  constructor(private readonly o: FastPathOptions) {
    const seconds = Math.floor(o.keepAliveMs / 1000)
    this.keepAlive = seconds > 0 ? `Connection: keep-alive\r\nKeep-Alive: timeout=${seconds}\r\n` : 'Connection: keep-alive\r\n'
  }

  /** A new connection. */
  adopt(socket: Socket): void {
    this.sockets.add(socket)
    let answered = false
    const onData = (chunk: Buffer) => {
      if (socket.writableEnded) return
      const at = this.answerAll(socket, chunk)
      if (at < chunk.length) return handOff(chunk.subarray(at))
      if (!answered) {
        answered = true
        socket.setTimeout(this.o.keepAliveMs)
      }
      // A client that sends faster than it reads waits, as node:http makes it wait.
      if (socket.writableNeedDrain) {
        socket.pause()
        socket.once('drain', () => socket.resume())
      }
    }
    const onEnd = () => socket.end()
    const onTimeout = () => socket.destroy()
    const onError = () => socket.destroy()
    const onClose = () => this.sockets.delete(socket)
    const handOff = (unread: Buffer | undefined) => {
      this.sockets.delete(socket)
      socket.off('data', onData).off('end', onEnd).off('timeout', onTimeout).off('error', onError).off('close', onClose)
      socket.setTimeout(0)
      this.o.handOff(socket, unread?.length ? unread : undefined)
    }
    socket.on('data', onData).on('end', onEnd).on('timeout', onTimeout).on('error', onError).on('close', onClose)
    socket.setTimeout(this.o.firstRequestMs)
  }

  /** Ends every connection once what was written to it is sent (they hold no request half read). */
  closeIdle(): void {
    for (const socket of this.sockets) socket.end()
  }

  closeAll(): void {
    for (const socket of this.sockets) socket.destroy()
  }

  /** Answers the requests at the start of `chunk`, in one write; returns where the first one it did not answer starts. */
  private answerAll(socket: Socket, chunk: Buffer): number {
    const text = chunk.toString('latin1')
    let at = 0
    try {
      while (at < text.length) {
        const head = readSimpleHead(text, at)
        if (!head || !this.answer(socket, head, head.end < text.length)) break
        at = head.end
      }
    } finally {
      if (this.corked) {
        this.corked = false
        socket.uncork()
      }
    }
    return at
  }

  /**
   * Writes the answer to one request; false when it is not one for this path (nothing written). `more`: other bytes
   * came with it, so its answer waits to go out with theirs.
   */
  private answer(socket: Socket, head: SimpleHead, more: boolean): boolean {
    const route = this.o.routes.get(head.target)
    if (!route) return false
    const rep = route.current()
    if (rep instanceof Promise) return false
    const started = route.record ? performance.now() : 0
    const variant = pickVariant(rep, head.acceptEncoding)
    const outcome = evaluatePreconditions(head.method, head.conditional, variant.etag, rep.lastModified)
    // A 412 carries the error document, which the app writes.
    if (outcome === 'failed') return false
    const id = this.o.ids.for(head.requestId)
    const heads = this.headsOf(variant)
    const body = outcome === 'perform' && head.method === 'GET' ? variant.body : undefined
    // A head and a body, or the answers to requests that came together, go out in one system call.
    if (!this.corked && (body !== undefined || more)) {
      socket.cork()
      this.corked = true
    }
    socket.write(`${outcome === 'not-modified' ? heads.notModified : heads.ok}x-request-id: ${id}${this.tail()}`, 'latin1')
    if (body !== undefined) socket.write(body)
    route.record?.(head.method, id, outcome === 'not-modified' ? 304 : 200, (performance.now() - started) / 1000, outcome === 'not-modified' ? 0 : variant.body.length)
    return true
  }

  /** The lines after the request id, to the empty line: Date (which changes once a second), Connection, Keep-Alive. */
  private tail(): string {
    const now = httpDate()
    if (now !== this.tailDate) {
      this.tailDate = now
      this.tailLines = `\r\nDate: ${now}\r\n${this.keepAlive}\r\n`
    }
    return this.tailLines
  }

  private headsOf(variant: Variant): Heads {
    let heads = this.heads.get(variant)
    if (!heads) {
      heads = { ok: `HTTP/1.1 200 OK\r\n${fieldLines(variant.headerList)}`, notModified: `HTTP/1.1 304 Not Modified\r\n${fieldLines(variant.notModifiedHeaderList)}` }
      this.heads.set(variant, heads)
    }
    return heads
  }
}

/** `name: value` lines from a flat [name, value, ...] list, as node:http writes them. */
function fieldLines(list: readonly string[]): string {
  let lines = ''
  for (let i = 0; i < list.length; i += 2) lines += `${list[i]}: ${list[i + 1]}\r\n`
  return lines
}

let date: string | undefined

/** The Date field's value, made at most once a second, as node:http does. */
function httpDate(): string {
  if (date === undefined) {
    const now = new Date()
    date = now.toUTCString()
    setTimeout(() => (date = undefined), 1000 - now.getMilliseconds()).unref()
  }
  return date
}
