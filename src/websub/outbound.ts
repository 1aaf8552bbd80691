import { rootCertificates } from 'node:tls'
import { Agent, buildConnector, request } from 'undici'
import type { AddressGuard } from './address-guard.js'
import { HostSlots } from './host-slots.js'

export interface OutboundOptions {
  guard: AddressGuard
  /** The whole exchange (connect, TLS, headers, body) must finish within this, counted from when it has a connection. */
  timeoutMs: number
  /** Connections kept per callback host, and so requests under way to it at once. */
  connectionsPerHost: number
  /** How long a request may wait for one of its host's connections before it gives up unsent (QueueExpired). */
  queueTimeoutMs: number
  /** Extra CA certificates (PEM) to trust besides the system ones, for subscribers on a private PKI. */
  extraCa?: string
  /** The connector that opens sockets once the guard has passed an address (replaced in the guard's unit tests). */
  connect?: buildConnector.connector
}

export interface Answer {
  status: number
  body: string
}

/**
 * The only way the hub reaches callbacks. Every connection goes through the SSRF guard first, at connect time, and
 * then to the address the guard vetted (the host name still names the TLS server). Redirects are never followed: a
 * 3xx is an answer like any other non-2xx.
 */
export class Outbound {
  private readonly agent: Agent
  private readonly slots: HostSlots

  constructor(private readonly o: OutboundOptions) {
    const open = o.connect ?? buildConnector({ timeout: o.timeoutMs, ...(o.extraCa ? { ca: [...rootCertificates, o.extraCa] } : {}) })
    const guarded: buildConnector.connector = (options, callback) => {
      o.guard.vet(options.hostname).then(
        (address) => open({ ...options, hostname: address }, callback),
        (err: Error) => callback(err, null)
      )
    }
    this.agent = new Agent({ connect: guarded, connections: o.connectionsPerHost, keepAliveTimeout: 30_000, pipelining: 1 })
    this.slots = new HostSlots(o.connectionsPerHost, o.queueTimeoutMs)
  }

  /** True when a request to this callback's host would have to wait for a connection. */
  hostBusy(url: string): boolean {
    return this.slots.full(new URL(url).hostname)
  }

  /** Callback hosts with no free connection now. */
  busyHosts(): string[] {
    return this.slots.fullHosts()
  }

  /** Runs one exchange once its host has a free connection; only then does its timeout start. */
  private async exchange<T>(url: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const release = await this.slots.acquire(new URL(url).hostname)
    try {
      return await run(AbortSignal.timeout(this.o.timeoutMs))
    } finally {
      release()
    }
  }

  /** A GET whose body is read up to `maxBytes`; a longer body is cut there (so it cannot equal a shorter challenge). */
  get(url: string, maxBytes: number): Promise<Answer> {
    return this.exchange(url, async (signal) => {
      const res = await request(url, { dispatcher: this.agent, method: 'GET', signal })
      let body = Buffer.alloc(0)
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        body = Buffer.concat([body, chunk])
        if (body.length > maxBytes) {
          res.body.destroy()
          break
        }
      }
      return { status: res.statusCode, body: body.toString('utf8') }
    })
  }

  /** A POST of exact bytes; the answer's body is ignored (WebSub section 7) and discarded. */
  post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
    return this.exchange(url, async (signal) => {
      const res = await request(url, { dispatcher: this.agent, method: 'POST', body, headers, signal })
      await res.body.dump({ limit: 64 * 1024 })
      return res.statusCode
    })
  }

  close(): Promise<void> {
    return this.agent.close()
  }
}
