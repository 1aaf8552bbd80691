import { connect } from 'node:net'

/**
 * Writes exact bytes on one connection, in the given parts (each part a separate write, `gapMs` apart), and resolves
 * with every byte the server sent once it closes the connection (end the last request with `Connection: close`).
 */
export function exchange(url: string, parts: (string | Buffer)[], o: { gapMs?: number; timeoutMs?: number } = {}): Promise<Buffer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    socket.setNoDelay(true)
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server did not close the connection within ${o.timeoutMs ?? 10_000} ms; received: ${Buffer.concat(chunks).toString('latin1').slice(0, 500)}`))
    }, o.timeoutMs ?? 10_000)
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks))
    })
    socket.on('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0 && o.gapMs) await new Promise((r) => setTimeout(r, o.gapMs))
        if (!socket.destroyed) socket.write(typeof part === 'string' ? Buffer.from(part, 'latin1') : part)
      }
    })
  })
}

/** A request head from its lines (the request line first), ended by the empty line; bytes as latin1. */
export const requestHead = (...lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`

export interface ParsedResponse {
  status: number
  /** The field lines in the order sent, as `name: value`. */
  fields: string[]
  body: Buffer
}

/**
 * Splits what a server sent into responses, given the method of each request (a HEAD's answer has no body whatever
 * its Content-Length says); 1xx, chunked bodies and bodies ended by the close are not expected here.
 */
export function responses(bytes: Buffer, methods: string[]): ParsedResponse[] {
  const out: ParsedResponse[] = []
  let at = 0
  for (const method of methods) {
    if (at >= bytes.length) break
    const end = bytes.indexOf('\r\n\r\n', at, 'latin1')
    if (end < 0) throw new Error(`an incomplete head at byte ${at}`)
    const [statusLine, ...fields] = bytes.toString('latin1', at, end).split('\r\n')
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1])
    const length = fields.find((f) => /^content-length:/i.test(f))
    const bodyLength = method === 'HEAD' || status === 304 || status === 204 || !length ? 0 : Number(length.split(':')[1])
    out.push({ status, fields, body: bytes.subarray(end + 4, end + 4 + bodyLength) })
    at = end + 4 + bodyLength
  }
  return out
}

/** What a server sent with the values that differ from one answer to the next (Date, X-Request-Id) blanked. */
export function withoutPerResponseValues(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/\r\n(date|x-request-id): [^\r]*/gi, '\r\n$1: -')
}
