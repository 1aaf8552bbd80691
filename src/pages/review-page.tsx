import type { Review } from '../domain/index.js'
import { ReviewCard, reviewPath } from './components.js'
import { formatDate, oneLine } from './format.js'
import { reviewJsonLd } from './json-ld.js'
import { Page, renderDocument } from './layout.js'
import { PATHS, reviewsPagePath, REVIEWS_PER_PAGE, type SiteData } from './site.js'

/** One review's permalink page: the URL the feeds give as each item's link. */
export function renderReviewPage(site: SiteData, position: number): string {
  const review = site.reviews[position]!
  const newer = site.reviews[position - 1]
  const older = site.reviews[position + 1]
  const listPage = Math.floor(position / REVIEWS_PER_PAGE) + 1
  return renderDocument(
    <Page
      site={site}
      title={`Review by ${review.author}`}
      description={excerpt(review, site.business.name)}
      path={reviewPath(review.id)}
      jsonLd={reviewJsonLd(site, review)}
    >
      <h1>Review by {review.author}</h1>
      <p class="lede">
        {review.rating} out of 5 stars for <a href={PATHS.home}>{site.business.name}</a>, {formatDate(review.date)}
      </p>
      <ReviewCard site={site} review={review} heading="h2" />
      <nav class="pager" aria-label="More reviews">
        {newer ? <a href={reviewPath(newer.id)} rel="prev">← Newer review</a> : <span />}
        <a href={`${reviewsPagePath(listPage)}#review-${review.id}`}>All reviews</a>
        {older ? <a href={reviewPath(older.id)} rel="next">Older review →</a> : <span />}
      </nav>
    </Page>
  )
}

function excerpt(review: Review, businessName: string): string {
  const head = `${review.rating}-star review of ${businessName} by ${review.author}`
  if (!review.text) return `${head}.`
  const text = oneLine(review.text)
  return `${head}: ${text.length > 150 ? `${text.slice(0, 150).replace(/\s\S*$/, '')}…` : text}`
}
