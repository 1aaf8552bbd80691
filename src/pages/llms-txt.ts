import { FEED_SIZE } from '../snapshot/index.js'
import { oneLine, plural } from './format.js'
import { absolute, exampleSinceDate, PATHS, REVIEWS_PER_PAGE, type SiteData } from './site.js'

/*
 * llms.txt (llmstxt.org): the file agents look for first. A pure function of one data version; every name and fact
 * about the business comes from the data.
 */

/** A Markdown guide for language models: what the business is, how fresh the data is, and where to get it. */
export function llmsTxt(site: SiteData): string {
  const { business } = site
  const summary = citationsRemoved(site.insights.summary)
  return lines(
    `# ${oneLine(business.name)}`,
    '',
    `> ${oneLine(abstract(site))}`,
    '',
    ...(business.description ? [oneLine(business.description), ''] : []),
    ...(summary ? [`What reviewers say (computed on this server from the review texts): ${summary}`, ''] : []),
    ...freshness(site),
    '',
    ...dataSection(site),
    '',
    ...agentSection(site),
    '',
    ...pagesSection(site)
  )
}

function abstract(site: SiteData): string {
  const { business, aggregate } = site
  const locality = [business.address.locality, business.address.region].filter(Boolean).join(', ')
  const about = [business.category, locality].filter(Boolean).join('; ')
  const rating = aggregate.rating_value === null ? 'no reviews yet' : `${plural(aggregate.review_count, 'review')}, ${aggregate.rating_value.toFixed(1)} out of ${aggregate.best_rating} on average`
  return `Verified customer reviews of ${business.name}${about ? ` (${about})` : ''}, published by the business as open data: ${rating}.`
}

function freshness(site: SiteData): string[] {
  const newest = site.reviews[0]
  const oldest = site.reviews.at(-1)
  return [
    'Freshness:',
    `- Last updated: ${site.changedAt.toISOString()} (data version ${site.version})`,
    `- Reviews: ${newest && oldest ? `${plural(site.reviews.length, 'verified review')}, dated ${oldest.date} to ${newest.date}` : 'none published yet'}`,
    '- Every GET resource below answers conditional GET (ETag, Last-Modified), so polling is cheap; the WebSub hub pushes each change of reviews.json and both feeds.'
  ]
}

function dataSection(site: SiteData): string[] {
  const { urls } = site
  const newest = site.reviews[0]
  const { search, since } = urls
  return [
    '## Data',
    link('reviews.json', urls.reviews, 'the business file, the aggregate rating and every verified review, newest first'),
    link('insights.json', urls.insights, 'aspect sentiment, staff, services, topics, monthly trend, FAQ and summary, each claim citing review ids'),
    link('JSON Feed', urls.feedJson, `the ${FEED_SIZE} newest reviews (JSON Feed 1.1)`),
    link('Atom feed', urls.feedAtom, `the ${FEED_SIZE} newest reviews (Atom)`),
    link('OpenAPI description', urls.openapi, 'every endpoint, parameter and response schema (OpenAPI 3.1)'),
    link(
      'Search reviews',
      `${search}?limit=20`,
      `\`${search}{?rating,min_rating,since,until,query,mentions_technician,mentions_service,limit,offset}\`; dates are YYYY-MM-DD, limit 1-100, \`next_offset\` pages on`
    ),
    link('Reviews since a date', `${since}/${exampleSinceDate(site)}`, `\`${since}/{date}\`: reviews dated on or after it, newest first`),
    ...(newest ? [link('One review', urls.reviewPermalink(newest.id), `\`${urls.base}/reviews/{id}\`: its JSON record, or its page for a browser`)] : [])
  ]
}

function agentSection(site: SiteData): string[] {
  const { urls } = site
  return [
    '## MCP and updates',
    link(
      'MCP server',
      urls.mcp,
      'Model Context Protocol over streamable HTTP, no key needed; read-only tools for the business, review search, reviews since a date, one review, aspect sentiment, staff, services, the FAQ and the summary (`tools/list` describes them)'
    ),
    link('WebSub hub', urls.hub, `POST \`hub.mode=subscribe\` with \`hub.topic\` set to ${urls.reviews}, ${urls.feedJson} or ${urls.feedAtom} to be told of every change`)
  ]
}

function pagesSection(site: SiteData): string[] {
  const at = (path: string) => absolute(site.urls, path)
  return [
    '## Pages',
    link('Home', at(PATHS.home), 'the business, its rating, a summary, the FAQ and the newest reviews'),
    link('All reviews', at(PATHS.reviews), `every review, newest first, ${REVIEWS_PER_PAGE} to a page (\`?page=N\`)`),
    link('Open data', at(PATHS.developers), 'how to use the data, the feeds and the MCP server'),
    link('API reference', at(PATHS.apiReference), 'the OpenAPI document, rendered'),
    '',
    '## Optional',
    link('Sitemap', at(PATHS.sitemap), 'every page and every review permalink, with its last change')
  ]
}

/** The summary cites review ids in brackets; in plain text they are noise, and insights.json keeps them. */
function citationsRemoved(summary: string): string {
  return oneLine(summary.replace(/\s*\[[^\]]*\]/g, ''))
}

function link(title: string, url: string, note: string): string {
  return `- [${title}](${url}): ${note}`
}

function lines(...all: string[]): string {
  return `${all.join('\n')}\n`
}
