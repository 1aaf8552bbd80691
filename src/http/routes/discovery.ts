import type { FastifyRequest } from 'fastify'
import { ServiceError } from '../../domain/index.js'
import { llmsTxt, PATHS, renderSitemap, renderSitemapChunk, robotsTxt, SITEMAP_CHUNK_ROUTE } from '../../pages/index.js'
import type { HttpContext } from '../context.js'
import { keyedPageRoute, pageRoute } from '../pages.js'

const TEXT = { contentType: 'text/plain; charset=utf-8' }
const XML = { contentType: 'application/xml; charset=utf-8' }

/** llms.txt, robots.txt and the sitemap (with its chunk files when it is an index), rendered once per data version. */
export function discoveryRoutes(ctx: HttpContext): void {
  pageRoute(ctx, PATHS.llms, llmsTxt, TEXT)
  pageRoute(ctx, PATHS.robots, robotsTxt, TEXT)
  pageRoute(ctx, PATHS.sitemap, renderSitemap, XML)
  keyedPageRoute(ctx, SITEMAP_CHUNK_ROUTE, { key: (req) => `sitemap:${chunkNumber(req)}`, render: (site, req) => renderSitemapChunk(site, chunkNumber(req)) }, XML)
}

/** "7" is chunk 7; "07", "0", "x" and "1.5" name no chunk. */
function chunkNumber(req: FastifyRequest): number {
  const { n } = req.params as { n: string }
  if (!/^[1-9]\d*$/.test(n)) throw new ServiceError('not_found', `"${n}.xml" is not a sitemap file; ${PATHS.sitemap} lists the ones there are.`)
  return Number(n)
}
