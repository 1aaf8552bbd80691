import { formatDateTime } from '../format.js'
import { Page, renderDocument } from '../layout.js'
import { PATHS, type SiteData } from '../site.js'
import { SECTIONS } from './blocks.js'
import { Datasets, Feeds } from './data.js'
import type { DeveloperDocsFacts } from './facts.js'
import { Mcp } from './mcp.js'
import { Search, Since } from './search.js'
import { WebSub } from './websub.js'
import { Website } from './website.js'
import { ImportFormats } from './import-formats.js'

export type { DeveloperDocsFacts, WebSubSettings } from './facts.js'

/*
 * /developers: how to use the data, written for the running instance. Every address in an example is built from
 * BASE_URL (site.urls), every name and example value from the data, every setting from the configuration, and the
 * tool list and search parameters from the definitions the service itself runs on.
 */

export function renderDevelopersPage(site: SiteData, facts: DeveloperDocsFacts): string {
  const { business } = site
  return renderDocument(
    <Page
      site={site}
      title="Open data and API"
      description={`How to use the verified reviews of ${business.name}: datasets, feeds, search, an MCP server for AI assistants, WebSub push, and a badge and widget for websites.`}
      path={PATHS.developers}
    >
      <h1>Open data and API</h1>
      <Intro site={site} />
      <nav aria-label="On this page">
        <ul>
          {SECTIONS.map((s) => (
            <li>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <Datasets site={site} />
      <Feeds site={site} facts={facts} />
      <Search site={site} />
      <Since site={site} />
      <Mcp site={site} tools={facts.tools} />
      <WebSub site={site} facts={facts} />
      <Website site={site} facts={facts} />
      <ImportFormats />
    </Page>
  )
}

function Intro({ site }: { site: SiteData }) {
  const { urls } = site
  return (
    <>
      <p class="lede">
        {site.business.name} publishes its verified reviews as open data. Everything here is read-only and free to use, needs no key or account, and is served
        by this site, <code>{urls.base}</code>. The data last changed on {formatDateTime(site.changedAt)}.
      </p>
      <ul>
        <li>
          <a href={PATHS.apiReference}>Interactive API reference</a>: every operation, its parameters and answers, and live requests.
        </li>
        <li>
          <a href={urls.openapi}>OpenAPI 3.1 document</a> (<code>{urls.openapi}</code>), for code generators and agents.
        </li>
        <li>
          <a href={PATHS.llms}>llms.txt</a>: a short guide to this data for language models.
        </li>
      </ul>
    </>
  )
}

