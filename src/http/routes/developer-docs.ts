import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { toolSummaries } from '../../mcp/index.js'
import { API_REFERENCE_INIT_SCRIPT, PATHS, renderApiReferencePage, renderDevelopersPage, type ApiReferenceAssets, type DeveloperDocsFacts, type WebSubSettings } from '../../pages/index.js'
import { FEED_SIZE, representComputed, topics, type Representation } from '../../snapshot/index.js'
import { staticSince, type HttpContext } from '../context.js'
import { PAGE_CSP, pagePolicy, pageRoute } from '../pages.js'
import { pathRoute } from '../send.js'

/**
 * The policy of every page, plus what Swagger UI needs: its script and stylesheet files from this site, and
 * connections to this site (the OpenAPI document, "Try it out"). It sets styles through the DOM only, which the
 * policy does not restrict, so no inline style beyond the site's own sheet is allowed.
 */
const API_REFERENCE_CSP = `${PAGE_CSP.replace('style-src ', "style-src 'self' ")}; script-src 'self'; connect-src 'self'`

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'
/** Swagger UI's files sit under its version, so their bytes never change at an address. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The guide's policy: a page's, plus this site's own frames, for its live preview of the widget. */
const GUIDE_CSP = pagePolicy({ frameSrc: "'self'" })

/** /developers, /developers/api and the files the API reference loads. */
export function developerDocsRoutes(ctx: HttpContext, websub: WebSubSettings, embedAllowedOrigins: readonly string[]): void {
  const swagger = swaggerUiDist()
  const assets: ApiReferenceAssets = {
    stylesheet: `${PATHS.apiReference}/${swagger.version}/swagger-ui.css`,
    bundle: `${PATHS.apiReference}/${swagger.version}/swagger-ui-bundle.js`,
    init: `${PATHS.apiReference}/init.js`
  }
  const facts = developerFacts(ctx, websub, embedAllowedOrigins)
  pageRoute(ctx, PATHS.developers, (site) => renderDevelopersPage(site, facts), { headers: { 'content-security-policy': GUIDE_CSP } })
  pageRoute(ctx, PATHS.apiReference, (site) => renderApiReferencePage(site, assets), { headers: { 'content-security-policy': API_REFERENCE_CSP } })
  assetRoute(ctx, assets.stylesheet, () => swagger.read('swagger-ui.css'), { contentType: CSS, cacheControl: IMMUTABLE })
  assetRoute(ctx, assets.bundle, () => swagger.read('swagger-ui-bundle.js'), { contentType: JS, cacheControl: IMMUTABLE })
  assetRoute(ctx, assets.init, () => API_REFERENCE_INIT_SCRIPT, { contentType: JS })
}

/** The facts the guide states about this instance, taken from the code and configuration that run it. */
function developerFacts(ctx: HttpContext, websub: WebSubSettings, embedAllowedOrigins: readonly string[]): DeveloperDocsFacts {
  const snap = ctx.holder.current
  return {
    tools: toolSummaries(),
    feedSize: FEED_SIZE,
    topics: topics(ctx.urls).map((t) => {
      const { headers } = t.pick(snap).variants.identity
      return { url: t.url, contentType: headers['content-type']!, link: headers.link! }
    }),
    websub,
    embedAllowedOrigins
  }
}

/** The installed swagger-ui-dist, found the way Node finds it (from src/ under tsx and from dist/ alike). */
function swaggerUiDist() {
  const packageJson = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')
  const dir = dirname(packageJson)
  return {
    version: (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version,
    read: (file: string) => readFileSync(join(dir, file))
  }
}

/** A file built into a representation on its first request (a megabyte of script costs nothing at start) and kept. */
function assetRoute(ctx: HttpContext, url: string, read: () => string | Buffer, o: { contentType: string; cacheControl?: string }): void {
  let built: Representation | undefined
  let building: Promise<Representation> | undefined
  const build = async () => {
    const content = read()
    return (built = representComputed(content, { ...o, lastModified: await staticSince(ctx, content) }))
  }
  pathRoute(ctx, url, () => built ?? (building ??= build()))
}
