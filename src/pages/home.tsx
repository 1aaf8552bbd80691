import type { InsightsDocument } from '../domain/index.js'
import { AspectSentimentChart, StarDistributionChart } from './charts.js'
import { BusinessFacts } from './business-facts.js'
import { CitationList, ReviewCard, reviewPath, Stars } from './components.js'
import { plural } from './format.js'
import { businessJsonLd } from './json-ld.js'
import { Page, renderDocument } from './layout.js'
import { PATHS, type SiteData } from './site.js'

/** Newest reviews on the front page; the rest are one link away. */
export const HOME_REVIEWS = 10

/** The front page, for a family choosing a funeral home (or a client choosing any business): calm, factual, complete. */
export function renderHome(site: SiteData): string {
  const { business, aggregate, insights } = site
  const newest = site.reviews.slice(0, HOME_REVIEWS)
  const description = business.description ?? `Verified reviews of ${business.name}.`
  return renderDocument(
    <Page site={site} title={business.name} description={description} path={PATHS.home} jsonLd={businessJsonLd(site, newest)}>
      <h1>{business.name}</h1>
      {business.category && <p class="lede">{business.category}</p>}
      {business.description && <p>{business.description}</p>}
      <div class="grid two">
        <section class="card" aria-labelledby="rating">
          <h2 id="rating">Rating</h2>
          {aggregate.rating_value === null ? (
            <p>No reviews have been published yet.</p>
          ) : (
            <>
              <p class="rating">
                <span class="value">{aggregate.rating_value.toFixed(1)}</span>
                <Stars rating={aggregate.rating_value} />
                <span>from {plural(aggregate.review_count, 'verified review')}</span>
              </p>
              <StarDistributionChart aggregate={aggregate} id="stars-chart" />
            </>
          )}
        </section>
        <BusinessFacts business={business} />
      </div>
      {site.reviews.length > 0 && <Summary site={site} insights={insights} />}
      <Aspects insights={insights} />
      <Faq site={site} insights={insights} />
      <section aria-labelledby="newest">
        <h2 id="newest">Newest reviews</h2>
        {newest.map((r) => (
          <ReviewCard site={site} review={r} />
        ))}
        {site.reviews.length > newest.length && (
          <p>
            <a href={PATHS.reviews}>Read all {plural(site.reviews.length, 'review')}</a>
          </p>
        )}
      </section>
    </Page>
  )
}

/** The insights summary, its bracketed review ids turned into numbered links to those reviews. */
function Summary({ site, insights }: { site: SiteData; insights: InsightsDocument }) {
  let n = 0
  const parts = insights.summary.split(/\s*\[([^\]]*)\]/)
  return (
    <section aria-labelledby="summary">
      <h2 id="summary">In short</h2>
      <p>
        {parts.map((part, i) => {
          if (i % 2 === 0) return part
          const ids = part.split(/,\s*/).filter((id) => site.positionOf.has(id))
          return (
            <sup>
              {ids.map((id, j) => (
                <>
                  {j > 0 && ','}
                  <a href={reviewPath(id)} aria-label={`Source review ${++n}`}>
                    {n}
                  </a>
                </>
              ))}
            </sup>
          )
        })}
      </p>
      {insights.pull_quote && (
        <figure>
          <blockquote class="pull">
            <p>“{insights.pull_quote.text}”</p>
          </blockquote>
          <figcaption>
            — <a href={reviewPath(insights.pull_quote.review_id)}>{insights.pull_quote.author}</a>
          </figcaption>
        </figure>
      )}
      <p class="quiet">
        Computed on this server from the reviews themselves, without any outside service; see{' '}
        <a href={site.urls.insights}>insights.json</a> for every figure.
      </p>
    </section>
  )
}

function Aspects({ insights }: { insights: InsightsDocument }) {
  const aspects = insights.aspects.filter((a) => a.mention_count > 0)
  if (!aspects.length) return null
  return (
    <section aria-labelledby="aspects">
      <h2 id="aspects">What reviews talk about</h2>
      <AspectSentimentChart aspects={aspects} id="aspects-chart" />
      <h3>In reviewers' words</h3>
      <dl>
        {aspects.map((a) => (
          <>
            <dt>{a.label}</dt>
            <dd class="phrases">{a.top_phrases.length ? a.top_phrases.map((p) => `“${p}”`).join(', ') : 'No recurring phrases.'}</dd>
          </>
        ))}
      </dl>
    </section>
  )
}

function Faq({ site, insights }: { site: SiteData; insights: InsightsDocument }) {
  if (!insights.faq.length) return null
  return (
    <section aria-labelledby="faq">
      <h2 id="faq">Common questions</h2>
      {insights.faq.map((f, i) => (
        <details class="faq" open={i === 0}>
          <summary>{f.question}</summary>
          <p>{f.answer}</p>
          <CitationList site={site} ids={f.review_ids} />
        </details>
      ))}
    </section>
  )
}
