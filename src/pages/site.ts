import type { Urls } from '../config/index.js'
import type { AggregateRating, Business, InsightsDocument, Review } from '../domain/index.js'

/** Everything a page may show: one data version, read from the snapshot by the caller. Pages never reach further. */
export interface SiteData {
  version: number
  changedAt: Date
  business: Business
  aggregate: AggregateRating
  insights: InsightsDocument
  /** Published reviews, newest first. */
  reviews: readonly Review[]
  /** Position of each review in `reviews`, by id. */
  positionOf: ReadonlyMap<string, number>
  urls: Urls
}

/** Site paths, relative to BASE_URL; absolute URLs come from `absolute`. */
export const PATHS = {
  home: '/',
  reviews: '/reviews',
  developers: '/developers',
  apiReference: '/developers/api',
  badge: '/badge.svg',
  embed: '/embed',
  llms: '/llms.txt',
  robots: '/robots.txt',
  sitemap: '/sitemap.xml'
} as const

export function absolute(urls: Urls, path: string): string {
  return `${urls.base}${path}`
}

/** A day for "reviews since" examples that finds something: the newest review's, or the last change's. */
export function exampleSinceDate(site: SiteData): string {
  return site.reviews[0]?.date ?? site.changedAt.toISOString().slice(0, 10)
}

/** Path of a page of the all-reviews list; page 1 is the bare path. */
export function reviewsPagePath(page: number): string {
  return page <= 1 ? PATHS.reviews : `${PATHS.reviews}?page=${page}`
}

export const REVIEWS_PER_PAGE = 20
