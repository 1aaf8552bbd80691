import { ServiceError } from '../domain/index.js'
import { container, element } from '../xml/index.js'
import { reviewsPageCount } from './reviews-page.js'
import { absolute, PATHS, reviewsPagePath, type SiteData } from './site.js'

/* What crawlers look for: robots.txt and the sitemap, pure functions of one data version. */

/** Everyone may crawl everything but the two POST endpoints, where a GET finds nothing to read. */
export function robotsTxt(site: SiteData): string {
  const { urls } = site
  return ['User-agent: *', `Disallow: ${new URL(urls.mcp).pathname}`, `Disallow: ${new URL(urls.hub).pathname}`, 'Allow: /', '', `Sitemap: ${absolute(urls, PATHS.sitemap)}`, ''].join('\n')
}

/** sitemaps.org limits one file to 50,000 URLs and 50 MB uncompressed; more and /sitemap.xml becomes an index. */
const SITEMAP_MAX_URLS = 50_000
const SITEMAP_MAX_BYTES = 52_428_800
const SITEMAP_NS = { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' }
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

/** Where the sitemap index's files are: /sitemaps/1.xml, /sitemaps/2.xml, ... */
export const SITEMAP_CHUNK_ROUTE = '/sitemaps/:n.xml'

function sitemapChunkPath(n: number): string {
  return SITEMAP_CHUNK_ROUTE.replace(':n', String(n))
}

/** A `urlset` when every URL fits in one file, otherwise a `sitemapindex` of the chunk files. */
export function renderSitemap(site: SiteData): string {
  const chunks = sitemapChunks(site)
  if (chunks.length === 1) return urlset(chunks[0]!.entries)
  const sitemaps = chunks.map((c, i) => container('sitemap', {}, [element('loc', {}, absolute(site.urls, sitemapChunkPath(i + 1))), element('lastmod', {}, c.lastmod)]))
  return `${XML_DECLARATION}${container('sitemapindex', SITEMAP_NS, sitemaps)}\n`
}

/** Chunk `n` (1-based) of a sitemap index; there are none when the sitemap is a single file. */
export function renderSitemapChunk(site: SiteData, n: number): string {
  const chunks = sitemapChunks(site)
  const chunk = chunks.length > 1 ? chunks[n - 1] : undefined
  if (!chunk) throw new ServiceError('not_found', `There is no sitemap file ${n}; ${PATHS.sitemap} lists the ones there are.`)
  return urlset(chunk.entries)
}

interface SitemapUrl {
  loc: string
  /** W3C datetime of the last change. */
  lastmod: string
}

interface Chunk {
  /** Serialised <url> elements. */
  entries: string[]
  /** The latest lastmod of the chunk's URLs: when the chunk file last changed. */
  lastmod: string
}

/**
 * Review permalinks oldest first, then the pages: a new review is appended at the end, so the earlier files of an
 * index keep their content and lastmod, and crawlers need not fetch them again.
 */
function sitemapUrls(site: SiteData): SitemapUrl[] {
  const changed = site.changedAt.toISOString()
  const listPages = Array.from({ length: reviewsPageCount(site) }, (_, i) => reviewsPagePath(i + 1))
  const pages = [PATHS.home, ...listPages, PATHS.developers, PATHS.apiReference].map((path) => ({ loc: absolute(site.urls, path), lastmod: changed }))
  const reviews = site.reviews.toReversed().map((r) => ({ loc: site.urls.reviewPermalink(r.id), lastmod: r.updated_at }))
  return [...reviews, ...pages]
}

/** The index and every chunk are rendered from one split, made once per data version. */
const chunkCache = new WeakMap<SiteData, Chunk[]>()

function sitemapChunks(site: SiteData): Chunk[] {
  let chunks = chunkCache.get(site)
  if (!chunks) {
    chunks = splitIntoChunks(sitemapUrls(site))
    chunkCache.set(site, chunks)
  }
  return chunks
}

function splitIntoChunks(urls: SitemapUrl[]): Chunk[] {
  const room = SITEMAP_MAX_BYTES - Buffer.byteLength(urlset([]))
  const chunks: Chunk[] = []
  let bytes = 0
  for (const url of urls) {
    const entry = `${container('url', {}, [element('loc', {}, url.loc), element('lastmod', {}, url.lastmod)])}\n`
    const size = Buffer.byteLength(entry)
    let chunk = chunks.at(-1)
    if (!chunk || chunk.entries.length === SITEMAP_MAX_URLS || bytes + size > room) {
      chunk = { entries: [], lastmod: url.lastmod }
      chunks.push(chunk)
      bytes = 0
    }
    chunk.entries.push(entry)
    bytes += size
    if (Date.parse(url.lastmod) > Date.parse(chunk.lastmod)) chunk.lastmod = url.lastmod
  }
  return chunks
}

function urlset(entries: string[]): string {
  return `${XML_DECLARATION}${container('urlset', SITEMAP_NS, ['\n', ...entries])}\n`
}
