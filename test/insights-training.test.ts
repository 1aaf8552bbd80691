import assert from 'node:assert/strict'
import { test } from 'node:test'
import { example, train } from '../scripts/lib/insights-model.js'
import type { LabelledReview } from '../src/insights/evaluate.js'

/** `n` three-star reviews of the same text, labelled with the same aspects. */
const reviews = (n: number, key: string, text: string, aspects: LabelledReview['labels']['aspects']) =>
  Array.from({ length: n }, (_, i) => example({ id: `${key}${i}`, rating: 3, text, labels: { aspects, technicians: [], services: [] }, tags: [] }))

// The polarity fit shares a praise weight between positive and mixed and a blame weight between negative and mixed
// (scripts/lib/insights-model.ts, PRAISE_AND_BLAME): what a word says in mixed judgements is learned as praise and as
// blame too, not as a fourth class apart. Without the sharing the word below leans to positive and negative by 0.05.
test('a word that comes only in mixed judgements is learned as praise and as blame', () => {
  const model = train([
    ...reviews(6, 'p', 'The lantern was teal.', { facilities: 'positive' }),
    ...reviews(6, 'n', 'The lantern was striped.', { facilities: 'negative' }),
    ...reviews(3, 'm', 'The lantern was octagonal.', { facilities: 'mixed' }),
    ...reviews(3, 'o', 'The lantern was there.', { facilities: 'neutral' })
  ], 0.5)
  const [positive, negative, neutral, mixed] = model.polarity.weights['octagonal']!
  assert.ok(mixed! > positive! && mixed! > negative!, `mixed first: ${model.polarity.weights['octagonal']}`)
  assert.ok(positive! - neutral! > 0.2 && negative! - neutral! > 0.2, `towards praise and blame: ${model.polarity.weights['octagonal']}`)
})
