import type { EmbedParams, Review } from '../domain/index.js'
import { foreignLanguage, reviewPath, Stars } from './components.js'
import { formatDate, oneLine, plural } from './format.js'
import { renderDocument } from './layout.js'
import { absolute, PATHS, type SiteData } from './site.js'

/**
 * The embeddable widget (GET /embed), made to sit in an <iframe> on the business's own site: the rating and the
 * newest reviews, each linked to its permalink in a new tab. No script, nothing loaded from anywhere, one small
 * stylesheet; readable from 320 px wide. When it shows only some stars it says so, and the rating always counts
 * every review, so a visitor is never shown a picked selection as the whole.
 */

/** Longer texts are cut at a word and linked to the whole review. */
export const EMBED_EXCERPT_CHARS = 200

const LIGHT = '--ink:#23211e;--muted:#58544d;--line:#ddd6cb;--bg:#fff;--accent:#2f5566;--star:#8a6212;color-scheme:light'
const DARK = '--ink:#f3efe8;--muted:#c9c2b6;--line:#4a4640;--bg:#1f1d1a;--accent:#9cc3d5;--star:#e8b64c;color-scheme:dark'

/** One constant sheet for every theme (the class on <html> picks), so one hash in the policy allows it. */
export const EMBED_STYLES = `
:root{${LIGHT}}html.dark{${DARK}}@media(prefers-color-scheme:dark){html.auto{${DARK}}}
*{box-sizing:border-box}
body{margin:0;padding:.8rem;background:var(--bg);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
a{color:var(--accent);text-underline-offset:.15em}a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
h1{font-size:1.05rem;margin:0}h2{font-size:.95rem;margin:.9rem 0 .4rem;color:var(--muted);font-weight:600}
h3{font-size:1rem;margin:0}
.rating{display:flex;flex-wrap:wrap;gap:.1rem .5rem;align-items:baseline;margin:.2rem 0 0}
.value{font-size:1.6rem;font-weight:650;line-height:1.2}
.stars{color:var(--star);letter-spacing:.08em}
ul{list-style:none;margin:0;padding:0}
li{border-top:1px solid var(--line);padding:.6rem 0}
.head{display:flex;flex-wrap:wrap;gap:0 .6rem;align-items:baseline}
.meta,.foot,.quiet{color:var(--muted);font-size:.9rem}
p{margin:.3rem 0}
.foot{border-top:1px solid var(--line);padding-top:.6rem;margin:0}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`

export function renderEmbed(site: SiteData, o: EmbedParams): string {
  const { business, aggregate, urls } = site
  const shown = site.reviews.filter((r) => r.rating >= o.min_rating).slice(0, o.limit)
  return renderDocument(
    <html lang="en" class={o.theme}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The reviews' own pages are the ones to index; this is a copy of a few of them for another site. */}
        <meta name="robots" content="noindex" />
        <title>{`Reviews of ${business.name}`}</title>
        <style dangerouslySetInnerHTML={{ __html: EMBED_STYLES }} />
      </head>
      <body>
        <main>
          <h1>
            <NewTab href={absolute(urls, PATHS.home)}>{business.name}</NewTab>
          </h1>
          {aggregate.rating_value === null ? (
            <p class="quiet">No reviews have been published yet.</p>
          ) : (
            <p class="rating">
              <span class="value">{aggregate.rating_value.toFixed(1)}</span>
              <Stars rating={aggregate.rating_value} />
              <span>from {plural(aggregate.review_count, 'verified review')}</span>
            </p>
          )}
          {aggregate.review_count > 0 && <Newest site={site} reviews={shown} minRating={o.min_rating} />}
          <p class="foot">
            <NewTab href={absolute(urls, PATHS.reviews)}>{`Read all ${plural(aggregate.review_count, 'review')}`}</NewTab>
            {' · verified reviews published as open data'}
          </p>
        </main>
      </body>
    </html>
  )
}

function Newest({ site, reviews, minRating }: { site: SiteData; reviews: Review[]; minRating: number }) {
  return (
    <>
      <h2>{minRating > 1 ? `Newest reviews with ${plural(minRating, 'star')} or more` : 'Newest reviews'}</h2>
      {reviews.length === 0 ? (
        <p class="quiet">None yet.</p>
      ) : (
        <ul>
          {reviews.map((r) => (
            <li>
              <EmbeddedReview site={site} review={r} />
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

function EmbeddedReview({ site, review }: { site: SiteData; review: Review }) {
  const permalink = absolute(site.urls, reviewPath(review.id))
  const { text, cut } = excerpt(review.text)
  return (
    <article>
      <div class="head">
        <h3>{review.author}</h3>
        <Stars rating={review.rating} />
        <span class="meta">
          <NewTab href={permalink}>
            <time datetime={review.date}>{formatDate(review.date)}</time>
          </NewTab>
        </span>
      </div>
      {text ? (
        <p lang={foreignLanguage(review.language)}>
          {text}
          {cut && (
            <>
              {' '}
              <NewTab href={permalink}>
                Read on<span class="visually-hidden"> (the review by {review.author})</span>
              </NewTab>
            </>
          )}
        </p>
      ) : (
        <p class="quiet">Rated {review.rating} out of 5 without a written review.</p>
      )}
    </article>
  )
}

/** A link out of the frame: into a new tab, so the visitor does not leave the page the widget is on. */
function NewTab({ href, children }: { href: string; children: preact.ComponentChildren }) {
  return (
    <a href={href} target="_blank" rel="noopener">
      {children}
      <span class="visually-hidden"> (opens in a new tab)</span>
    </a>
  )
}

function excerpt(text: string | null): { text: string | null; cut: boolean } {
  if (!text) return { text: null, cut: false }
  const flat = oneLine(text)
  if (flat.length <= EMBED_EXCERPT_CHARS) return { text: flat, cut: false }
  return { text: `${flat.slice(0, EMBED_EXCERPT_CHARS).replace(/\s+\S*$/, '')}…`, cut: true }
}
