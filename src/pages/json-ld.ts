import type { LocalBusinessLeaf, OpeningHoursSpecification, Place, PostalAddress, Review as ReviewNode, WithContext } from 'schema-dts'
import type { Business, Review } from '../domain/index.js'
import { dayName, sourceLabel } from './format.js'
import type { SiteData } from './site.js'

/*
 * schema.org JSON-LD for the pages. Every value comes from the data; absent fields are left `undefined`, which
 * JSON.stringify drops, so the markup never claims an empty address or a null rating.
 *
 * The type is LocalBusiness whatever the category: schema.org has no FuneralHome (Crematorium and Cemetery exist,
 * but as civic structures, places rather than businesses), and mapping free-text categories to subtypes would be a
 * guess. Staff and services are left out because the pages do not show them, and markup should describe what the
 * page shows; agents get both from reviews.json and the MCP tools.
 */

const CONTEXT = 'https://schema.org'

/** The business with its rating and the given reviews embedded (the front page passes its newest ones). */
export function businessJsonLd(site: SiteData, reviews: readonly Review[]): WithContext<LocalBusinessLeaf> {
  const { business, aggregate } = site
  return {
    '@context': CONTEXT,
    ...businessNode(site),
    description: business.description ?? undefined,
    telephone: business.telephone ?? undefined,
    email: business.email ?? undefined,
    geo: business.geo ? { '@type': 'GeoCoordinates', latitude: business.geo.lat, longitude: business.geo.lng } : undefined,
    openingHoursSpecification: openingHours(business),
    areaServed: business.service_areas.length ? business.service_areas.map((name): Place => ({ '@type': 'Place', name })) : undefined,
    sameAs: business.same_as.length ? business.same_as : undefined,
    // ratingValue is required, so a business without reviews carries no aggregate at all.
    aggregateRating:
      aggregate.rating_value === null
        ? undefined
        : {
            '@type': 'AggregateRating',
            ratingValue: aggregate.rating_value,
            reviewCount: aggregate.review_count,
            bestRating: aggregate.best_rating,
            worstRating: aggregate.worst_rating
          },
    review: reviews.map((r) => reviewNode(site, r))
  }
}

/** One review for its own page; `itemReviewed` names the business by the same @id as the front page's node. */
export function reviewJsonLd(site: SiteData, review: Review): WithContext<ReviewNode> {
  return { '@context': CONTEXT, ...reviewNode(site, review), itemReviewed: businessNode(site) }
}

function businessId(site: SiteData): string {
  return `${site.urls.base}/#business`
}

/** What identifies the business, enough for a review's itemReviewed to stand on its own. */
function businessNode(site: SiteData): LocalBusinessLeaf {
  const { business, urls } = site
  return {
    '@type': 'LocalBusiness',
    '@id': businessId(site),
    name: business.name,
    url: business.url ?? `${urls.base}/`,
    address: postalAddress(business)
  }
}

function postalAddress(business: Business): PostalAddress | undefined {
  const a = business.address
  if (!Object.values(a).some(Boolean)) return undefined
  return {
    '@type': 'PostalAddress',
    streetAddress: a.street ?? undefined,
    addressLocality: a.locality ?? undefined,
    addressRegion: a.region ?? undefined,
    postalCode: a.postal_code ?? undefined,
    addressCountry: a.country ?? undefined
  }
}

/** One specification per distinct opening span, listing every day that has it (Monday to Friday 9-5 is one entry). */
function openingHours(business: Business): OpeningHoursSpecification[] | undefined {
  const spans = new Map<string, OpeningHoursSpecification & { dayOfWeek: string[] }>()
  for (const h of business.hours) {
    // schema.org times are xsd:time, which has no 24:00; Google documents 23:59 as the end of the day.
    const closes = h.closes === '24:00' ? '23:59' : h.closes
    const key = `${h.opens}-${closes}`
    const span = spans.get(key) ?? { '@type': 'OpeningHoursSpecification', dayOfWeek: [], opens: h.opens, closes }
    span.dayOfWeek.push(dayName(h.day))
    spans.set(key, span)
  }
  return spans.size ? [...spans.values()] : undefined
}

function reviewNode(site: SiteData, review: Review): ReviewNode {
  const permalink = site.urls.reviewPermalink(review.id)
  return {
    '@type': 'Review',
    '@id': permalink,
    url: permalink,
    author: { '@type': 'Person', name: review.author },
    datePublished: review.date,
    reviewBody: review.text ?? undefined,
    inLanguage: review.language ?? undefined,
    reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: site.aggregate.best_rating, worstRating: site.aggregate.worst_rating },
    publisher: { '@type': 'Organization', name: sourceLabel(review) },
    sameAs: review.source_url ?? undefined,
    comment: review.owner_reply
      ? { '@type': 'Comment', text: review.owner_reply.text, dateCreated: review.owner_reply.date, author: { '@id': businessId(site) } }
      : undefined
  }
}
