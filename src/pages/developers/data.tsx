import { InsightsDocument, Review, ReviewsDocument } from '../../domain/index.js'
import { plural } from '../format.js'
import type { SiteData } from '../site.js'
import { Code, DocsTable, Section, shellArg } from './blocks.js'
import type { DeveloperDocsFacts } from './facts.js'

function keyList(schema: { shape: object }): string {
  return Object.keys(schema.shape).join(', ')
}

export function Datasets({ site }: { site: SiteData }) {
  const { urls } = site
  const newest = site.reviews[0]
  return (
    <Section id="datasets">
      <DocsTable columns={['Address', 'What it holds']}>
        <tr>
          <th scope="row">
            <a href={urls.reviews}>reviews.json</a>
          </th>
          <td>
            The business, its aggregate rating and {site.reviews.length ? `all ${plural(site.reviews.length, 'verified review')}` : 'its verified reviews (none yet)'}, newest first. Keys: <code>{keyList(ReviewsDocument)}</code>.
          </td>
        </tr>
        <tr>
          <th scope="row">
            <a href={urls.insights}>insights.json</a>
          </th>
          <td>
            What the reviews say, computed on this server from their text: sentiment by aspect, staff, services and areas, recurring topics, the monthly
            trend, questions and answers, and a summary. Every claim cites the ids of the reviews it rests on. Keys: <code>{keyList(InsightsDocument)}</code>.
          </td>
        </tr>
      </DocsTable>
      <Code>{`curl -s --compressed ${shellArg(urls.reviews)}`}</Code>
      <p>
        Every review has every key, <code>null</code> when it does not apply: <code>{keyList(Review)}</code>. <code>mentions</code> lists the staff, services
        and service areas the text names.
      </p>
      {newest && (
        <>
          <p>Each review also has its own address, which answers JSON to programs and a page to browsers:</p>
          <Code>{`curl -s ${shellArg(urls.reviewPermalink(newest.id))}`}</Code>
        </>
      )}
      <h3>How every GET answers</h3>
      <ul>
        <li>
          A strong <code>ETag</code> and a <code>Last-Modified</code>; <code>If-None-Match</code> (which wins) and <code>If-Modified-Since</code> get{' '}
          <code>304 Not Modified</code> without a body (see <a href="#since">below</a>).
        </li>
        <li>
          gzip or brotli when <code>Accept-Encoding</code> asks for them; <code>Cache-Control: public, max-age=60</code>.
        </li>
        <li>
          <code>Access-Control-Allow-Origin: *</code>, so a web page anywhere may fetch the data. <code>HEAD</code> works too.
        </li>
        <li>
          Errors are JSON: <code>{'{ "error": "not_found", "message": "..." }'}</code>, with the HTTP status to match.
        </li>
      </ul>
    </Section>
  )
}

export function Feeds({ site, facts }: { site: SiteData; facts: DeveloperDocsFacts }) {
  const { urls } = site
  const feeds = [
    { name: 'JSON Feed 1.1', url: urls.feedJson },
    { name: 'Atom', url: urls.feedAtom }
  ]
  return (
    <Section id="feeds">
      <p>
        Two feeds of the {facts.feedSize} newest reviews, for feed readers and anything that polls. Item ids are stable and each item links to the review's
        page. Both feeds name the WebSub hub, so a reader that speaks <a href="#websub">WebSub</a> gets new reviews pushed instead of polling.
      </p>
      <DocsTable columns={['Format', 'Address', 'Content-Type']}>
        {feeds.map((f) => (
          <tr>
            <th scope="row">{f.name}</th>
            <td>
              <a href={f.url}>
                <code>{f.url}</code>
              </a>
            </td>
            <td>
              <code>{contentTypeOf(facts, f.url)}</code>
            </td>
          </tr>
        ))}
      </DocsTable>
      <h3>Autodiscovery</h3>
      <p>Every page of this site names both feeds in its head, so a feed reader given the site's address finds them:</p>
      <Code>{feeds.map((f) => `<link rel="alternate" type="${contentTypeOf(facts, f.url)}" href="${f.url}">`).join('\n')}</Code>
    </Section>
  )
}

function contentTypeOf(facts: DeveloperDocsFacts, url: string): string {
  return facts.topics.find((t) => t.url === url)?.contentType ?? ''
}

