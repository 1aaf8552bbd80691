import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { evaluate, type LabelledReview } from '../src/insights/evaluate.js'

const read = (f: string) => JSON.parse(readFileSync(new URL(`../data/eval/${f}`, import.meta.url), 'utf8'))
const business = read('business.json')
const all: LabelledReview[] = ['dev.json', 'dev2.json', 'dev3.json', 'dev4.json', 'test.json'].flatMap(read)
const heldOut: LabelledReview[] = read('test.json')
const blind: LabelledReview[] = read('blind.json')
const blind2: LabelledReview[] = read('blind2.json')

// The targets on the whole hand-labelled set (npm run eval:insights prints the scores), with floors just below
// the levels reached so that the engine does not get worse while it is improved.
test('the engine meets the targets on the earlier hand-labelled sets', () => {
  const s = evaluate(business, all)
  assert.equal(s.reviews, 313)
  assert.ok(s.aspect.f1 >= 0.865, `aspect F1 ${s.aspect.f1}`)
  assert.ok(s.polarity.accuracy >= 0.905, `polarity ${s.polarity.accuracy}`)
  assert.ok(s.entity.f1 >= 0.98, `entity F1 ${s.entity.f1}`)
})

test('and keeps its scores on the held-out part', () => {
  const s = evaluate(business, heldOut)
  assert.ok(s.aspect.f1 >= 0.815, `aspect F1 ${s.aspect.f1}`)
  assert.ok(s.polarity.accuracy >= 0.85, `polarity ${s.polarity.accuracy}`)
  assert.ok(s.entity.f1 >= 0.98, `entity F1 ${s.entity.f1}`)
})

// The blind set (issue 13) did not meet the targets on its first run (aspect F1 77.1, polarity 82.1, entity F1
// 97.9; data/eval/blind-first-run.txt). These floors sit just below that run so the engine cannot get worse on reviews
// it was not written for; they are not the targets.
test('and does not fall below its first run on the blind set', () => {
  const s = evaluate(business, blind)
  assert.equal(s.reviews, 180)
  assert.ok(s.aspect.f1 >= 0.765, `aspect F1 ${s.aspect.f1}`)
  assert.ok(s.polarity.accuracy >= 0.815, `polarity ${s.polarity.accuracy}`)
  assert.ok(s.entity.f1 >= 0.975, `entity F1 ${s.entity.f1}`)
})

// Nor did the second blind set (aspect F1 70.9, polarity 81.0, entity F1 95.0; data/eval/blind2-first-run.txt).
test('and does not fall below its first run on the second blind set', () => {
  const s = evaluate(business, blind2)
  assert.equal(s.reviews, 179)
  assert.ok(s.aspect.f1 >= 0.7, `aspect F1 ${s.aspect.f1}`)
  assert.ok(s.polarity.accuracy >= 0.8, `polarity ${s.polarity.accuracy}`)
  assert.ok(s.entity.f1 >= 0.945, `entity F1 ${s.entity.f1}`)
})
