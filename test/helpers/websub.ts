import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { request } from './http.js'

export interface TestPki {
  caFile: string
  key: Buffer
  cert: Buffer
}

/** A test CA and a server certificate for 127.0.0.1 and localhost, made with openssl in `dir`. */
export function makeTestPki(dir: string): TestPki {
  const f = (name: string) => join(dir, name)
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' })
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=Reviews Service test CA', '-keyout', f('ca.key'), '-out', f('ca.pem'))
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost', '-keyout', f('server.key'), '-out', f('server.csr'))
  const ext = f('server.ext')
  execFileSync('sh', ['-c', `printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nbasicConstraints=CA:FALSE\\n' > ${ext}`])
  openssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', ext, '-out', f('server.pem'))
  return { caFile: f('ca.pem'), key: readFileSync(f('server.key')), cert: readFileSync(f('server.pem')) }
}

export interface Delivery {
  path: string
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  at: number
}

export interface Verification {
  path: string
  params: Record<string, string>
  at: number
}

type Answer = { status: number; body?: string; delayMs?: number }

/**
 * An HTTPS subscriber on loopback. Every path is a callback: a GET is a verification (or a denial notice), answered
 * by echoing the challenge unless `onVerify` says otherwise; a POST is a delivery, answered 204 unless `onDeliver`
 * says otherwise. Everything received is recorded.
 */
export class Subscriber {
  readonly verifications: Verification[] = []
  readonly deliveries: Delivery[] = []
  onVerify: (v: Verification) => Answer | undefined = () => undefined
  onDeliver: (d: Delivery) => Answer | undefined = () => undefined
  private server!: Server
  url = ''

  async start(pki: TestPki): Promise<this> {
    this.server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const u = new URL(req.url!, 'https://x')
        const path = u.pathname
        const answer = (a: Answer | undefined, fallback: Answer) => {
          const { status, body, delayMs } = a ?? fallback
          const send = () => res.writeHead(status, { 'content-type': 'text/plain' }).end(body ?? '')
          if (delayMs) setTimeout(send, delayMs)
          else send()
        }
        if (req.method === 'GET') {
          const v = { path, params: Object.fromEntries(u.searchParams), at: Date.now() }
          this.verifications.push(v)
          answer(this.onVerify(v), { status: 200, body: v.params['hub.challenge'] ?? '' })
        } else {
          const d = { path: `${path}${u.search}`, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() }
          this.deliveries.push(d)
          answer(this.onDeliver(d), { status: 204 })
        }
      })
    })
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok))
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  deliveriesTo(path: string): Delivery[] {
    return this.deliveries.filter((d) => d.path === path)
  }

  verificationsOf(path: string): Verification[] {
    return this.verifications.filter((v) => v.path === path)
  }

  stop(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((ok) => this.server.close(() => ok()))
  }
}

/** POSTs a subscription request form to the hub. */
export function hubRequest(hubUrl: string, fields: Record<string, string> | string, headers: Record<string, string> = {}) {
  const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString()
  return request('POST', hubUrl, { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body)
}

/** Polls until `check` holds, or fails after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((ok) => setTimeout(ok, 20))
  }
}

export const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms))
