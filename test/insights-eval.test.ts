import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { evaluate, type LabelledReview } from '../src/insights/evaluate.js'

const read = (f: string) => JSON.parse(readFileSync(new URL(`../data/eval/${f}`, import.meta.url), 'utf8'))
const business = read('business.json')
const all: LabelledReview[] = ['dev.json', 'dev2.json', 'dev3.json', 'dev4.json', 'test.json'].flatMap(read)

/** The set's scores are at least these floors (and it holds `reviews` reviews, when given). */
function holds(reviews: LabelledReview[], floors: { aspectF1: number; polarity: number; entityF1: number; reviews?: number }): void {
  const s = evaluate(business, reviews)
  if (floors.reviews !== undefined) assert.equal(s.reviews, floors.reviews)
  assert.ok(s.aspect.f1 >= floors.aspectF1, `aspect F1 ${s.aspect.f1}`)
  assert.ok(s.polarity.accuracy >= floors.polarity, `polarity ${s.polarity.accuracy}`)
  assert.ok(s.entity.f1 >= floors.entityF1, `entity F1 ${s.entity.f1}`)
}

// The targets on the whole hand-labelled set (npm run eval:insights prints the scores), with floors just below
// the levels reached so that the engine does not get worse while it is improved.
test('the engine meets the targets on the earlier hand-labelled sets', () => {
  holds(all, { reviews: 313, aspectF1: 0.87, polarity: 0.905, entityF1: 0.985 })
})

test('and keeps its scores on the held-out part', () => {
  holds(read('test.json'), { aspectF1: 0.835, polarity: 0.86, entityF1: 0.985 })
})

// The blind set (issue 13) did not meet the targets on its first run (aspect F1 77.1, polarity 82.1, entity F1
// 97.9; data/eval/blind-first-run.txt). These floors sit just below that run so the engine cannot get worse on reviews
// it was not written for; they are not the targets.
test('and does not fall below its first run on the blind set', () => {
  holds(read('blind.json'), { reviews: 180, aspectF1: 0.765, polarity: 0.815, entityF1: 0.975 })
})

// Nor did the second blind set (aspect F1 70.9, polarity 81.0, entity F1 95.0; data/eval/blind2-first-run.txt).
test('and does not fall below its first run on the second blind set', () => {
  holds(read('blind2.json'), { reviews: 179, aspectF1: 0.7, polarity: 0.8, entityF1: 0.945 })
})

// Nor did the third (aspect F1 72.2, polarity 84.7, entity F1 98.8; data/eval/blind3-first-run.txt).
test('and does not fall below its first run on the third blind set', () => {
  holds(read('blind3.json'), { reviews: 190, aspectF1: 0.715, polarity: 0.84, entityF1: 0.985 })
})

// The fourth (issue 13, the first run with the learned reader): aspect F1 81.3, polarity 79.8, entity F1 95.9
// (data/eval/blind4-first-run.txt). The reader has been trained on it since.
test('and does not fall below its first run on the fourth blind set', () => {
  holds(read('blind4.json'), { reviews: 170, aspectF1: 0.805, polarity: 0.79, entityF1: 0.955 })
})

// The fifth, the first run after the reader was trained on blind4: aspect F1 77.0, polarity 82.8, entity F1 96.5
// (data/eval/blind5-first-run.txt). The reader has been trained on it since.
test('and does not fall below its first run on the fifth blind set', () => {
  holds(read('blind5.json'), { reviews: 170, aspectF1: 0.765, polarity: 0.82, entityF1: 0.96 })
})

// The sixth, the first run after the reader was trained on blind5: aspect F1 76.2, polarity 82.0, entity F1 97.6
// (data/eval/blind6-first-run.txt). The reader has been trained on it since.
test('and does not fall below its first run on the sixth blind set', () => {
  holds(read('blind6.json'), { reviews: 160, aspectF1: 0.755, polarity: 0.815, entityF1: 0.97 })
})

// The seventh, the first run after the reader was trained on blind6: aspect F1 77.1, polarity 83.8, entity F1 97.5
// (data/eval/blind7-first-run.txt). The reader has been trained on it since.
test('and does not fall below its first run on the seventh blind set', () => {
  holds(read('blind7.json'), { reviews: 160, aspectF1: 0.765, polarity: 0.83, entityF1: 0.97 })
})

// The eighth, the first run after the reader was told which sides the rules' words took: aspect F1 74.2, polarity
// 80.1, entity F1 98.6 (data/eval/blind8-first-run.txt). The reader has been trained on it since.
test('and does not fall below its first run on the eighth blind set', () => {
  holds(read('blind8.json'), { reviews: 160, aspectF1: 0.735, polarity: 0.795, entityF1: 0.98 })
})
