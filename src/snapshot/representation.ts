import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib'

const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

export type Encoding = 'identity' | 'gzip' | 'br'
type Compressed = Exclude<Encoding, 'identity'>

export interface Variant {
  body: Buffer
  /** Strong validator, distinct per content-coding (RFC 9110 §8.8.3). */
  etag: string
  /** Every response header of a 200, precomputed so a request only picks a variant. */
  headers: Record<string, string>
  /**
   * The headers of a 200 and of a 304 (validators and caching, no content headers) as flat [name, value, ...] lists,
   * the form Node's writeHead takes fastest; a request appends its id to a copy (an object copied per request cost
   * about 8 µs more, measured).
   */
  headerList: readonly string[]
  notModifiedHeaderList: readonly string[]
}

/** One resource state in the content-codings we offer, built once and served many times. */
export interface Representation {
  lastModified: Date
  variants: Partial<Record<Encoding, Variant>> & { identity: Variant }
  /** For computed responses: makes a missing compressed variant on its first request and keeps it. */
  compressOnDemand?: (encoding: Compressed) => Variant
}

export interface RepresentOptions {
  contentType: string
  lastModified: Date
  /** Headers every variant carries, e.g. Link. */
  headers?: Record<string, string>
  cacheControl?: string
  /** Request headers the body depends on; Accept-Encoding always. */
  vary?: string
}

/** Bodies this small gain nothing from compression. */
const MIN_COMPRESSIBLE = 512

export const COMMON_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Link, Content-Encoding, X-Request-Id',
  'x-content-type-options': 'nosniff'
}

/**
 * For documents built once per data version: both codings made up front at a high ratio, off the event loop
 * (see brotliQuality for what that costs).
 */
export async function represent(content: string | Buffer, o: RepresentOptions): Promise<Representation> {
  const { body, rep, variant } = identity(content, o)
  if (body.length < MIN_COMPRESSIBLE) return rep
  const [gz, br] = await Promise.all([gzipAsync(body, { level: 9 }), brotliAsync(body, brotliOptions(body.length, brotliQuality(body.length)))])
  rep.variants.gzip = variant('gzip', gz)
  rep.variants.br = variant('br', br)
  return rep
}

/**
 * For responses computed on request (search pages, since lists): identity now, and only the coding a client asks
 * for, on first request, at the fastest settings. Compression is most of the cost of a fresh search page: for a
 * 16 KB page gzip 6 takes ~290 µs, gzip 1 ~140 µs for 5% more bytes, brotli 1 ~90 µs.
 */
export function representComputed(content: string | Buffer, o: RepresentOptions): Representation {
  const { body, rep, variant } = identity(content, o)
  if (body.length < MIN_COMPRESSIBLE) return rep
  rep.compressOnDemand = (encoding) =>
    (rep.variants[encoding] ??= variant(encoding, encoding === 'gzip' ? gzipSync(body, { level: 1 }) : brotliCompressSync(body, brotliOptions(body.length, 1))))
  return rep
}

function identity(content: string | Buffer, o: RepresentOptions) {
  const body = typeof content === 'string' ? Buffer.from(content) : content
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 32)
  const cacheHeaders = {
    ...COMMON_HEADERS,
    ...o.headers,
    'cache-control': o.cacheControl ?? 'public, max-age=60',
    'last-modified': o.lastModified.toUTCString(),
    vary: o.vary ?? 'Accept-Encoding'
  }
  const variant = (encoding: Encoding, bytes: Buffer): Variant => {
    const etag = encoding === 'identity' ? `"${tag}"` : `"${tag}-${encoding}"`
    const notModifiedHeaders = { ...cacheHeaders, etag }
    const headers: Record<string, string> = { ...notModifiedHeaders, 'content-type': o.contentType, 'content-length': String(bytes.length) }
    if (encoding !== 'identity') headers['content-encoding'] = encoding
    return { body: bytes, etag, headers, headerList: Object.entries(headers).flat(), notModifiedHeaderList: Object.entries(notModifiedHeaders).flat() }
  }
  const rep: Representation = { lastModified: o.lastModified, variants: { identity: variant('identity', body) } }
  return { body, rep, variant }
}

function brotliOptions(size: number, quality: number) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT
    }
  }
}

/**
 * Every node compresses every document again on each data version, on the cores that serve, and an import has 2 s to
 * reach every node of a cluster that may share one small machine; so the quality falls as bodies grow. On the demo data
 * (2-core machine, one thread): reviews.json (304 KB) takes 836 ms at 11, 379 ms at 10 and 75 ms at 9, for 66.7, 68.0
 * and 74.8 KB (gzip 9: 85.7 KB); the Atom feed (46 KB) 94 ms at 11 and 38 ms at 10 for 2% more bytes. The four
 * documents of a data version took 630 ms with 11 up to 64 KB and 10 past it, and take 270 ms with these limits.
 */
function brotliQuality(size: number): number {
  return size <= 16_000 ? 11 : size <= 200_000 ? 10 : size <= 20_000_000 ? 9 : 6
}
