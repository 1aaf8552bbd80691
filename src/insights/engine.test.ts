import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { test } from 'node:test'
import { Business, type AggregateRating, type Review } from '../domain/index.js'
import { buildMentionIndex } from '../mentions/index.js'
import { PARALLEL_FROM } from './analysis-pool.js'
import { InsightsEngine } from './engine.js'

const read = (f: string) => JSON.parse(readFileSync(new URL(`../../data/eval/${f}`, import.meta.url), 'utf8')) as { text: string; rating: number }[]

test('insights made on every core are the document one core makes', { skip: availableParallelism() < 2 && 'one core: nothing runs in parallel' }, async () => {
  const business = Business.parse(JSON.parse(readFileSync(new URL('../../data/eval/business.json', import.meta.url), 'utf8')))
  const mentions = buildMentionIndex(business)
  // Enough reviews for the work to be shared with other threads; the labelled sets' texts, each under new ids.
  const texts = ['train.json', 'blind.json', 'blind2.json', 'blind3.json'].flatMap(read)
  const reviews: Review[] = Array.from({ length: PARALLEL_FROM + 200 }, (_, i) => {
    const { text, rating } = texts[i % texts.length]!
    return {
      id: `r${i}`, author: 'A', author_avatar_url: null, rating, date: `2025-${String((i % 12) + 1).padStart(2, '0')}-01`, published_at: null, text, source: 'test',
      source_url: null, owner_reply: null, verified: true, language: 'en', updated_at: '2025-12-01T00:00:00Z', mentions: mentions.detect(text)
    }
  })
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 }
  for (const r of reviews) distribution[String(r.rating) as keyof typeof distribution]++
  const rating: AggregateRating = { rating_value: 4, review_count: reviews.length, best_rating: 5, worst_rating: 1, distribution }
  const oneCore = new InsightsEngine(business, mentions).compute(reviews, rating, '2025-12-01T00:00:00Z')
  const everyCore = new InsightsEngine(business, mentions)
  await everyCore.prepare(reviews)
  assert.equal(JSON.stringify(everyCore.compute(reviews, rating, '2025-12-01T00:00:00Z')), JSON.stringify(oneCore))
})
