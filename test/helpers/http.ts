import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  /** Bytes exactly as sent: not decompressed. */
  body: Buffer
  text: string
  json<T = any>(): T
}

/** A plain HTTP request with exactly the given headers (fetch would add Accept-Encoding and decompress). */
export function request(method: string, url: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const buf = Buffer.concat(chunks)
        resolve({ status: res.statusCode!, headers: res.headers, body: buf, text: buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export const get = (url: string, headers: Record<string, string> = {}) => request('GET', url, headers)

/** A TCP port that was free a moment ago on loopback (for a listener whose 0 means "off", like METRICS_PORT). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net')
  const probe = createServer()
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((ok) => probe.close(() => ok()))
  return port
}
