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
