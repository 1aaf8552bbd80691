import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { evaluate, type LabelledReview } from '../src/insights/evaluate.js'

const read = (f: string) => JSON.parse(readFileSync(new URL(`../data/eval/${f}`, import.meta.url), 'utf8'))
const business = read('business.json')
const all: LabelledReview[] = ['dev.json', 'dev2.json', 'dev3.json', 'test.json'].flatMap(read)
const heldOut: LabelledReview[] = read('test.json')

// Regression guard at the levels reached (npm run eval:insights prints them). The polarity target (0.90) is
// not reached; these floors stop the engine from getting worse while it is improved.
test('the engine keeps its scores on the hand-labelled set', () => {
  const s = evaluate(business, all)
  assert.equal(s.reviews, 240)
  assert.ok(s.aspect.f1 >= 0.84, `aspect F1 ${s.aspect.f1}`)
  assert.ok(s.polarity.accuracy >= 0.86, `polarity ${s.polarity.accuracy}`)
  assert.ok(s.entity.f1 >= 0.98, `entity F1 ${s.entity.f1}`)
})

test('and on the held-out part', () => {
  const s = evaluate(business, heldOut)
  assert.ok(s.aspect.f1 >= 0.81, `aspect F1 ${s.aspect.f1}`)
  assert.ok(s.polarity.accuracy >= 0.84, `polarity ${s.polarity.accuracy}`)
  assert.ok(s.entity.f1 >= 0.97, `entity F1 ${s.entity.f1}`)
})
