import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

export type Encoding = 'identity' | 'gzip' | 'br'

export interface Variant {
  body: Buffer
  /** Strong validator, distinct per content-coding (RFC 9110 §8.8.3). */
  etag: string
  /** Every response header of a 200, precomputed so a request only picks a variant. */
  headers: Record<string, string>
}

/** One resource state in every content-coding we offer, built once and served many times. */
export interface Representation {
  lastModified: Date
  variants: Partial<Record<Encoding, Variant>> & { identity: Variant }
}

export interface RepresentOptions {
  contentType: string
  lastModified: Date
  /** Headers every variant carries, e.g. Link. */
  headers?: Record<string, string>
  cacheControl?: string
  /**
   * thorough: best ratio, for documents built once per data version (brotli 11 costs ~0.5 s for 270 KB);
   * fast: for responses computed on request (gzip 6, brotli 5: ~2 ms for a 20-review page).
   */
  compression?: 'thorough' | 'fast'
}

/** Bodies this small gain nothing from compression. */
const MIN_COMPRESSIBLE = 512

export const COMMON_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Link, Content-Encoding',
  'x-content-type-options': 'nosniff'
}

export async function represent(content: string | Buffer, o: RepresentOptions): Promise<Representation> {
  const body = typeof content === 'string' ? Buffer.from(content) : content
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 32)
  const base = {
    ...COMMON_HEADERS,
    ...o.headers,
    'content-type': o.contentType,
    'cache-control': o.cacheControl ?? 'public, max-age=60',
    'last-modified': o.lastModified.toUTCString(),
    vary: 'Accept-Encoding'
  }
  const variant = (encoding: Encoding, bytes: Buffer): Variant => {
    const etag = encoding === 'identity' ? `"${tag}"` : `"${tag}-${encoding}"`
    const headers: Record<string, string> = { ...base, etag, 'content-length': String(bytes.length) }
    if (encoding !== 'identity') headers['content-encoding'] = encoding
    return { body: bytes, etag, headers }
  }
  const rep: Representation = { lastModified: o.lastModified, variants: { identity: variant('identity', body) } }
  if (body.length < MIN_COMPRESSIBLE) return rep
  const fast = o.compression === 'fast'
  const [gz, br] = await Promise.all([
    gzipAsync(body, { level: fast ? 6 : 9 }),
    brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: fast ? 5 : brotliQuality(body.length),
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT
      }
    })
  ])
  rep.variants.gzip = variant('gzip', gz)
  rep.variants.br = variant('br', br)
  return rep
}

/** Top quality costs about a second per MB, so very large bodies trade a little size for build time. */
function brotliQuality(size: number): number {
  return size <= 2_000_000 ? 11 : size <= 20_000_000 ? 9 : 6
}
