import type { ComponentChildren } from 'preact'
import { renderToString } from 'preact-render-to-string'
import { formatDateTime } from './format.js'
import { STYLES } from './styles.js'
import { absolute, PATHS, type SiteData } from './site.js'

export interface PageProps {
  site: SiteData
  /** The page's own title; the business name is appended. */
  title: string
  description: string
  path: string
  /** A schema.org JSON-LD object for the head. */
  jsonLd?: object
  /** Extra head elements (the API reference's stylesheet, for instance). */
  head?: ComponentChildren
  children: ComponentChildren
}

/** Serialises a VNode tree to a complete HTML document. Preact escapes every text and attribute. */
export function renderDocument(page: preact.VNode): string {
  return `<!doctype html>${renderToString(page)}`
}

/** JSON for a <script> element: "<" is escaped so no review text can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

export function Page({ site, title, description, path, jsonLd, head, children }: PageProps) {
  const { business, urls } = site
  const fullTitle = path === PATHS.home ? `${business.name}: verified reviews` : `${title} · ${business.name}`
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{fullTitle}</title>
        <meta name="description" content={description} />
        <link rel="canonical" href={absolute(urls, path)} />
        <link rel="alternate" type="application/feed+json" title={`${business.name}: newest reviews (JSON Feed)`} href={urls.feedJson} />
        <link rel="alternate" type="application/atom+xml" title={`${business.name}: newest reviews (Atom)`} href={urls.feedAtom} />
        <link rel="service-desc" type="application/json" href={urls.openapi} />
        <style dangerouslySetInnerHTML={{ __html: STYLES }} />
        {jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(jsonLd) }} />}
        {head}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site">
          <div class="wrap">
            <a class="brand" href={PATHS.home}>
              {business.name}
            </a>
            <nav class="site" aria-label="Site">
              <ul>
                <li>
                  <a href={PATHS.reviews}>All reviews</a>
                </li>
                <li>
                  <a href={PATHS.developers}>Open data</a>
                </li>
              </ul>
            </nav>
          </div>
        </header>
        <main id="main" class="wrap">
          {children}
        </main>
        <Footer site={site} />
      </body>
    </html>
  )
}

function Footer({ site }: { site: SiteData }) {
  const { urls } = site
  return (
    <footer class="site">
      <div class="wrap">
        <p>
          These are {site.business.name}'s verified reviews, published as open data:{' '}
          <a href={urls.reviews}>reviews.json</a>, <a href={urls.insights}>insights.json</a>, <a href={urls.feedJson}>JSON Feed</a>,{' '}
          <a href={urls.feedAtom}>Atom feed</a>, <a href={PATHS.apiReference}>API reference</a> and an <a href={`${PATHS.developers}#mcp`}>MCP server</a> for AI
          assistants. Last updated {formatDateTime(site.changedAt)}.
        </p>
      </div>
    </footer>
  )
}
