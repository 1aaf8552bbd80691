import { Page, renderDocument } from './layout.js'
import { PATHS, type SiteData } from './site.js'

/*
 * /developers/api: the OpenAPI document rendered by Swagger UI (swagger-ui-dist from npm), every file served by
 * this site. The page is a shell; the script files do the rendering, since the policy allows no inline script.
 */

/** Where the HTTP area serves Swagger UI's files and the script that starts it. */
export interface ApiReferenceAssets {
  stylesheet: string
  bundle: string
  init: string
}

/**
 * Starts Swagger UI on /openapi.json. The validator badge is off (it would send the document to another site), and
 * "Try it out" requests go to this page's own origin even when the document's `servers` names another host for the
 * same service (the policy allows connections to 'self' only); the curl line still shows the public address.
 */
export const API_REFERENCE_INIT_SCRIPT = `'use strict'
function toThisOrigin(request) {
  var url = new URL(request.url, location.href)
  if (url.origin !== location.origin) request.url = location.origin + url.pathname + url.search
  return request
}
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: true,
  displayOperationId: true,
  showMutatedRequest: false,
  requestInterceptor: toThisOrigin
})
`

export function renderApiReferencePage(site: SiteData, assets: ApiReferenceAssets): string {
  const { urls } = site
  return renderDocument(
    <Page
      site={site}
      title="API reference"
      description={`Every operation of the open review data of ${site.business.name}: parameters, answers and live requests.`}
      path={PATHS.apiReference}
      head={
        <>
          <link rel="stylesheet" href={assets.stylesheet} />
          <script defer src={assets.bundle} />
          <script defer src={assets.init} />
        </>
      }
    >
      <h1>API reference</h1>
      <p class="lede">
        Every operation of this site's API, from its <a href={urls.openapi}>OpenAPI document</a>. Open one to see its parameters and answers, and try it: the
        request goes to this site. The <a href={PATHS.developers}>open data guide</a> explains each part with examples.
      </p>
      <noscript>
        <p>
          The interactive reference needs JavaScript. The same description is in the <a href={urls.openapi}>OpenAPI document</a> (JSON), and the{' '}
          <a href={PATHS.developers}>open data guide</a> explains every endpoint with examples.
        </p>
      </noscript>
      <div id="swagger-ui" />
    </Page>
  )
}
