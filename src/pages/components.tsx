import type { Review } from '../domain/index.js'
import { formatDate, initials, sourceLabel } from './format.js'
import type { SiteData } from './site.js'

/** Stars as text for sighted readers, the number for everyone else. */
export function Stars({ rating, max = 5 }: { rating: number; max?: number }) {
  const full = Math.round(rating)
  return (
    <span class="stars" role="img" aria-label={`${rating} out of ${max} stars`}>
      {'★'.repeat(full)}
      {'☆'.repeat(max - full)}
    </span>
  )
}

/** One review with its owner reply; the date links to the review's own page, the source to where it was first posted. */
export function ReviewCard({ site, review, heading = 'h3' }: { site: SiteData; review: Review; heading?: 'h2' | 'h3' }) {
  const Heading = heading
  return (
    <article class="review card" id={`review-${review.id}`}>
      <header>
        <span class="avatar" aria-hidden="true">
          {initials(review.author)}
        </span>
        <Heading class="who">{review.author}</Heading>
        <Stars rating={review.rating} />
        <span class="meta">
          <a href={reviewPath(review.id)}>
            <time datetime={review.date}>{formatDate(review.date)}</time>
          </a>
          {' · '}
          <Source review={review} />
        </span>
      </header>
      {review.text ? <ReviewText text={review.text} lang={foreignLanguage(review.language)} /> : <p class="quiet">Rated {review.rating} out of 5 without a written review.</p>}
      {review.owner_reply && (
        <div class="reply">
          <p>
            <strong>Response from {site.business.name}</strong>{' '}
            <span class="meta">
              <time datetime={review.owner_reply.date}>{formatDate(review.owner_reply.date)}</time>
            </span>
          </p>
          <ReviewText text={review.owner_reply.text} />
        </div>
      )}
    </article>
  )
}

function Source({ review }: { review: Review }) {
  const label = `Posted on ${sourceLabel(review)}`
  return review.source_url ? (
    <a href={review.source_url} rel="nofollow noopener external">
      {label}
    </a>
  ) : (
    <span>{label}</span>
  )
}

/** The pages are in English; a review in another language says so, for screen readers and hyphenation. */
export function foreignLanguage(language: string | null): string | undefined {
  return language && !/^en\b/i.test(language) ? language : undefined
}

/** Paragraphs as the reviewer wrote them. */
function ReviewText({ text, lang }: { text: string; lang?: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => (
          <p lang={lang}>{p}</p>
        ))}
    </>
  )
}

export function reviewPath(id: string): string {
  return `/reviews/${encodeURIComponent(id)}`
}

/** A link to a cited review, named by its author and month so a list of them reads well. */
export function CitedReview({ site, id }: { site: SiteData; id: string }) {
  const position = site.positionOf.get(id)
  const review = position === undefined ? undefined : site.reviews[position]
  if (!review) return null
  return <a href={reviewPath(id)}>{`${review.author}, ${formatDate(review.date)}`}</a>
}

export function CitationList({ site, ids, label = 'From reviews by' }: { site: SiteData; ids: readonly string[]; label?: string }) {
  const known = ids.filter((id) => site.positionOf.has(id))
  if (!known.length) return null
  return (
    <p class="cites">
      {label}{' '}
      {known.map((id, i) => (
        <>
          {i > 0 && '; '}
          <CitedReview site={site} id={id} />
        </>
      ))}
      .
    </p>
  )
}
