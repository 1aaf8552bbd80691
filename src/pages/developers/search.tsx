import { SearchParams } from '../../domain/index.js'
import { exampleSinceDate, type SiteData } from '../site.js'
import { Code, jsonOneItemALine, ParameterTable, Section, shellArg } from './blocks.js'

export function Search({ site }: { site: SiteData }) {
  const search = searchUrl(site)
  return (
    <Section id="search">
      <p>
        <code>GET {search}</code> returns the reviews that match every parameter given, newest first (by date, then id). All parameters are optional:
      </p>
      <ParameterTable schema={SearchParams} />
      <p>
        The answer is <code>{'{ matched, returned, limit, offset, next_offset, reviews }'}</code>: <code>matched</code> counts every match,{' '}
        <code>reviews</code> holds this page of them, and <code>next_offset</code> is the <code>offset</code> of the next page, or <code>null</code> on the
        last one.
      </p>
      <h3>Examples</h3>
      <SearchExamples site={site} />
      <h3>Paging</h3>
      <p>
        Ask again with <code>offset</code> set to <code>next_offset</code> until it is <code>null</code>. With <code>jq</code>:
      </p>
      <Code>
        {[
          'offset=0',
          'while [ "$offset" != null ]; do',
          `  page=$(curl -s "${search}?limit=100&offset=$offset")`,
          `  echo "$page" | jq -c '.reviews[] | {id, date, rating}'`,
          `  offset=$(echo "$page" | jq .next_offset)`,
          'done'
        ].join('\n')}
      </Code>
      <h3>Errors</h3>
      <p>
        Unknown or repeated parameters, text where a number is due, values out of range, impossible dates (<code>2025-02-30</code>) and a{' '}
        <code>since</code> after <code>until</code> are answered <code>400</code>, listing every problem at once. A staff member or service that matches nothing
        known is not an error: the answer is <code>200</code> with no reviews.
      </p>
      <Code>{`curl -s ${shellArg(searchUrl(site, SEARCH_ERROR_EXAMPLE.query))}`}</Code>
      <Code>{jsonOneItemALine(SEARCH_ERROR_EXAMPLE.answer)}</Code>
    </Section>
  )
}

/** The 400 of the error example, as the service answers it (test/developers.test.ts checks that it still does). */
const SEARCH_ERROR_EXAMPLE = {
  query: { limit: 500, colour: 'blue' },
  answer: {
    error: 'invalid_request',
    message: 'The search parameters are invalid.',
    issues: [
      { code: 'too_big', path: ['limit'], message: 'must be an integer from 1 to 100' },
      { code: 'unrecognized_keys', path: ['colour'], message: 'unknown parameter "colour"' }
    ]
  }
}

function searchUrl(site: SiteData, query?: Record<string, string | number>): string {
  const url = site.urls.search
  return query ? `${url}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : url
}

/** Examples from this business's own staff and services, so each one finds something. */
function SearchExamples({ site }: { site: SiteData }) {
  const { business } = site
  const staff = business.technicians[0]
  const service = business.services[0]
  const examples: { what: string; query: Record<string, string | number> }[] = [
    { what: 'The five newest reviews of four stars or more:', query: { min_rating: 4, limit: 5 } },
    ...(staff ? [{ what: `Reviews that name ${staff.name}:`, query: { mentions_technician: staff.name } }] : []),
    ...(service ? [{ what: `Reviews that name ${service.name}:`, query: { mentions_service: service.id } }] : [])
  ]
  return (
    <>
      {examples.map((e) => (
        <>
          <p>{e.what}</p>
          <Code>{`curl -s ${shellArg(searchUrl(site, e.query))}`}</Code>
        </>
      ))}
    </>
  )
}

export function Since({ site }: { site: SiteData }) {
  const base = site.urls.since
  const example = `${base}/${exampleSinceDate(site)}`
  return (
    <Section id="since">
      <p>
        <code>GET {base}/{'{date}'}</code> returns <code>{'{ since, count, reviews }'}</code>: every review dated on or after <code>date</code>, newest first.
        The date is a real calendar day written <code>YYYY-MM-DD</code>; a malformed or impossible one is a <code>400</code> with <code>issues</code>, a
        future one gives an empty list.
      </p>
      <Code>{`curl -s ${shellArg(example)}`}</Code>
      <h3>Asking only when something changed</h3>
      <p>
        Keep the <code>ETag</code> of an answer and send it back as <code>If-None-Match</code>: while the data is unchanged the answer is{' '}
        <code>304 Not Modified</code> with no body. Each compression has its own ETag, so send the same <code>Accept-Encoding</code> each time.{' '}
        <code>If-Modified-Since</code> with the <code>Last-Modified</code> date works too.
      </p>
      <Code>
        {[
          `url=${shellArg(example)}`,
          `etag=$(curl -sI "$url" | tr -d '\\r' | awk 'tolower($1) == "etag:" { print $2 }')`,
          `curl -s -o /dev/null -w '%{http_code}\\n' -H "If-None-Match: $etag" "$url"   # 304 until the reviews change`
        ].join('\n')}
      </Code>
    </Section>
  )
}

