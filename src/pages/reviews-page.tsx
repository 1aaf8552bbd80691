import { ServiceError } from '../domain/index.js'
import { ReviewCard } from './components.js'
import { plural } from './format.js'
import { Page, renderDocument } from './layout.js'
import { reviewsPagePath, REVIEWS_PER_PAGE, type SiteData } from './site.js'

export function reviewsPageCount(site: SiteData): number {
  return Math.max(1, Math.ceil(site.reviews.length / REVIEWS_PER_PAGE))
}

/** Every published review, newest first, a page at a time; a page past the end is a 404. */
export function renderReviewsPage(site: SiteData, page: number): string {
  const pages = reviewsPageCount(site)
  if (page > pages) throw new ServiceError('not_found', `There are ${pages} pages of reviews; page ${page} does not exist.`)
  const start = (page - 1) * REVIEWS_PER_PAGE
  const shown = site.reviews.slice(start, start + REVIEWS_PER_PAGE)
  const title = page === 1 ? 'All reviews' : `All reviews, page ${page} of ${pages}`
  return renderDocument(
    <Page site={site} title={title} description={`${plural(site.reviews.length, 'verified review')} of ${site.business.name}, newest first.`} path={reviewsPagePath(page)}>
      <h1>{title}</h1>
      <p class="lede">
        {shown.length
          ? `Reviews ${start + 1} to ${start + shown.length} of ${site.reviews.length.toLocaleString('en-US')}, newest first.`
          : 'No reviews have been published yet.'}
      </p>
      {shown.map((r) => (
        <ReviewCard site={site} review={r} heading="h2" />
      ))}
      {pages > 1 && (
        <nav class="pager" aria-label="Pages">
          {page > 1 ? <a href={reviewsPagePath(page - 1)} rel="prev">← Newer reviews</a> : <span />}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? <a href={reviewsPagePath(page + 1)} rel="next">Older reviews →</a> : <span />}
        </nav>
      )}
    </Page>
  )
}
