import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { buildUrls } from '../config/index.js'
import { Business, type InsightsDocument, type Review } from '../domain/index.js'
import { aggregateRating } from '../snapshot/index.js'
import { businessJsonLd, reviewJsonLd } from './json-ld.js'
import { scriptJson } from './layout.js'
import type { SiteData } from './site.js'

const BASE = 'https://reviews.test'

const BUSINESS = {
  id: 'copper-pipe',
  name: 'Copper Pipe Plumbing',
  category: 'Plumber',
  description: 'Licensed plumbers.',
  url: 'https://copper-pipe.example',
  telephone: '+1-555-0199',
  email: 'jobs@copper-pipe.example',
  address: { street: '88 Foundry Road', locality: 'Millbrook', region: 'WA', postal_code: '98001', country: 'US' },
  geo: { lat: 47.1, lng: -122.2 },
  hours: [
    ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({ day, opens: '07:00', closes: '19:00' })),
    { day: 'saturday', opens: '08:00', closes: '12:00' },
    { day: 'sunday', opens: '00:00', closes: '24:00' }
  ],
  service_areas: ['Millbrook', 'East Ridge'],
  same_as: ['https://social.example/copper-pipe']
}

let counter = 0
function published(overrides: Partial<Review> = {}): Review {
  counter++
  return {
    id: `r${counter}`,
    author: `Author ${counter}`,
    author_avatar_url: null,
    rating: 4,
    date: '2024-03-01',
    published_at: null,
    text: 'Fixed the leak the same day.',
    source: 'google',
    source_url: null,
    owner_reply: null,
    verified: true,
    language: 'en',
    updated_at: '2024-03-10T12:00:00.000Z',
    mentions: { technicians: [], services: [], service_areas: [] },
    ...overrides
  }
}

function site(reviews: Review[], business: Record<string, unknown> = BUSINESS): SiteData {
  return {
    version: 1,
    changedAt: new Date('2024-03-10T12:00:00Z'),
    business: Business.parse(business),
    aggregate: aggregateRating(reviews),
    insights: {} as InsightsDocument, // the JSON-LD does not read the insights
    reviews,
    positionOf: new Map(reviews.map((r, i) => [r.id, i])),
    urls: buildUrls(BASE)
  }
}

/** The JSON-LD as a page embeds it: serialised, so absent (undefined) values are gone. */
function jsonLd(s: SiteData, reviews: readonly Review[] = s.reviews): any {
  return JSON.parse(scriptJson(businessJsonLd(s, reviews)))
}

function assertHas(node: Record<string, unknown>, properties: string[], what: string): void {
  for (const p of properties) assert.ok(node[p] !== undefined && node[p] !== '', `${what} has ${p}`)
}

describe('businessJsonLd', () => {
  const reviews = [
    published({ rating: 5, owner_reply: { text: 'Thank you!', date: '2024-03-11' }, source_url: 'https://maps.example/review/1' }),
    published({ rating: 3, text: null, source: 'yelp' })
  ]
  const ld = jsonLd(site(reviews))

  test('is a LocalBusiness with a stable @id and what Google requires and recommends, all from the data', () => {
    assert.equal(ld['@context'], 'https://schema.org')
    assert.equal(ld['@type'], 'LocalBusiness')
    assert.equal(ld['@id'], `${BASE}/#business`)
    assertHas(ld, ['name', 'address', 'url', 'telephone', 'geo', 'openingHoursSpecification', 'aggregateRating', 'review'], 'LocalBusiness')
    assert.equal(ld.name, BUSINESS.name)
    assert.equal(ld.description, BUSINESS.description)
    assert.equal(ld.url, BUSINESS.url)
    assert.equal(ld.email, BUSINESS.email)
    assert.deepEqual(ld.geo, { '@type': 'GeoCoordinates', latitude: 47.1, longitude: -122.2 })
    assert.deepEqual(ld.sameAs, BUSINESS.same_as)
    assert.deepEqual(ld.areaServed, [
      { '@type': 'Place', name: 'Millbrook' },
      { '@type': 'Place', name: 'East Ridge' }
    ])
  })

  test('has a complete PostalAddress', () => {
    assert.deepEqual(ld.address, {
      '@type': 'PostalAddress',
      streetAddress: '88 Foundry Road',
      addressLocality: 'Millbrook',
      addressRegion: 'WA',
      postalCode: '98001',
      addressCountry: 'US'
    })
  })

  test('groups days with equal hours into one OpeningHoursSpecification; 24:00 becomes 23:59', () => {
    assert.deepEqual(ld.openingHoursSpecification, [
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '07:00', closes: '19:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Saturday'], opens: '08:00', closes: '12:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Sunday'], opens: '00:00', closes: '23:59' }
    ])
  })

  test('carries the AggregateRating with ratingValue, reviewCount and the scale', () => {
    assert.deepEqual(ld.aggregateRating, { '@type': 'AggregateRating', ratingValue: 4, reviewCount: 2, bestRating: 5, worstRating: 1 })
  })

  test('embeds each given review with author, rating, date, permalink and source; a rating-only review has no body', () => {
    assert.equal(ld.review.length, 2)
    const [first, second] = ld.review
    for (const r of ld.review) {
      assert.equal(r['@type'], 'Review')
      assertHas(r, ['author', 'reviewRating', 'datePublished', 'url'], 'Review')
      assert.equal(r.author['@type'], 'Person')
      assert.equal(r.reviewRating['@type'], 'Rating')
      assertHas(r.reviewRating, ['ratingValue', 'bestRating', 'worstRating'], 'Rating')
    }
    assert.equal(first.url, `${BASE}/reviews/${reviews[0]!.id}`)
    assert.equal(first['@id'], first.url)
    assert.equal(first.author.name, reviews[0]!.author)
    assert.equal(first.datePublished, reviews[0]!.date)
    assert.equal(first.reviewBody, reviews[0]!.text)
    assert.equal(first.reviewRating.ratingValue, 5)
    assert.equal(first.sameAs, 'https://maps.example/review/1')
    assert.deepEqual(first.publisher, { '@type': 'Organization', name: 'Google' })
    assert.deepEqual(first.comment, { '@type': 'Comment', text: 'Thank you!', dateCreated: '2024-03-11', author: { '@id': `${BASE}/#business` } })
    assert.ok(!('reviewBody' in second), 'a rating-only review has no reviewBody')
    assert.ok(!('comment' in second))
    assert.deepEqual(second.publisher, { '@type': 'Organization', name: 'Yelp' })
  })

  test('embeds only the reviews it is given', () => {
    assert.deepEqual(
      jsonLd(site(reviews), reviews.slice(0, 1)).review.map((r: { url: string }) => r.url),
      [`${BASE}/reviews/${reviews[0]!.id}`]
    )
  })

  test('without reviews there is no aggregateRating, since ratingValue is required', () => {
    const empty = jsonLd(site([]))
    assert.ok(!('aggregateRating' in empty))
    assert.deepEqual(empty.review, [])
  })

  test('leaves out what the business file does not give, and falls back to BASE_URL for url', () => {
    const bare = jsonLd(site([], { id: 'bare', name: 'Bare Business', address: {} }))
    assert.deepEqual(Object.keys(bare).sort(), ['@context', '@id', '@type', 'name', 'review', 'url'])
    assert.equal(bare.url, `${BASE}/`)
  })

  test('hostile review text stays data: no </script> in the embedded JSON, and it round-trips', () => {
    const hostile = '</script><script>alert(1)</script> <!-- \u2028 & "quotes"'
    const s = site([published({ text: hostile, author: '</SCRIPT>Eve' })])
    const embedded = scriptJson(businessJsonLd(s, s.reviews))
    assert.doesNotMatch(embedded, /<\/script/i)
    assert.doesNotMatch(embedded, /<!--/)
    const parsed = JSON.parse(embedded)
    assert.equal(parsed.review[0].reviewBody, hostile)
    assert.equal(parsed.review[0].author.name, '</SCRIPT>Eve')
  })
})

describe('reviewJsonLd', () => {
  test('is a Review whose itemReviewed is the business, by the front page @id, with name and address', () => {
    const r = published({ rating: 2 })
    const s = site([r])
    const ld = JSON.parse(scriptJson(reviewJsonLd(s, r)))
    assert.equal(ld['@context'], 'https://schema.org')
    assert.equal(ld['@type'], 'Review')
    assertHas(ld, ['author', 'reviewRating', 'itemReviewed', 'datePublished', 'reviewBody'], 'Review')
    assert.equal(ld.reviewRating.ratingValue, 2)
    assert.equal(ld.itemReviewed['@type'], 'LocalBusiness')
    assert.equal(ld.itemReviewed['@id'], jsonLd(s)['@id'])
    assert.equal(ld.itemReviewed.name, BUSINESS.name)
    assert.equal(ld.itemReviewed.address.streetAddress, BUSINESS.address.street)
  })
})
