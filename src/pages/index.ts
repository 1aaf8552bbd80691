/** Pages: the human and discovery layer (HTML pages, llms.txt, robots.txt, sitemap), rendered from one data version. */
export { STYLES as PAGE_STYLES } from './styles.js'
export { PATHS, REVIEWS_PER_PAGE, type SiteData } from './site.js'
export { renderHome } from './home.js'
export { renderReviewPage } from './review-page.js'
export { renderReviewsPage } from './reviews-page.js'
export { renderErrorPage } from './error-page.js'
