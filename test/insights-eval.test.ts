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

// No blind set (issue 13) met the targets on its first run (data/eval/blind<n>-first-run.txt: the engine then,
// and its scores). These floors sit just below each first run, so the engine cannot get worse on reviews it was not
// written for; they are not the targets. blind4 was the first run with the learned reader; it has been trained on each
// set after that set's first run.
const FIRST_RUNS: [set: string, reviews: number, firstRun: string, floors: { aspectF1: number; polarity: number; entityF1: number }][] = [
  ['blind', 180, '77.1 / 82.1 / 97.9', { aspectF1: 0.765, polarity: 0.815, entityF1: 0.975 }],
  ['blind2', 179, '70.9 / 81.0 / 95.0', { aspectF1: 0.7, polarity: 0.8, entityF1: 0.945 }],
  ['blind3', 190, '72.2 / 84.7 / 98.8', { aspectF1: 0.715, polarity: 0.84, entityF1: 0.985 }],
  ['blind4', 170, '81.3 / 79.8 / 95.9', { aspectF1: 0.805, polarity: 0.79, entityF1: 0.955 }],
  ['blind5', 170, '77.0 / 82.8 / 96.5', { aspectF1: 0.765, polarity: 0.82, entityF1: 0.96 }],
  ['blind6', 160, '76.2 / 82.0 / 97.6', { aspectF1: 0.755, polarity: 0.815, entityF1: 0.97 }],
  ['blind7', 160, '77.1 / 83.8 / 97.5', { aspectF1: 0.765, polarity: 0.83, entityF1: 0.97 }],
  ['blind8', 160, '74.2 / 80.1 / 98.6', { aspectF1: 0.735, polarity: 0.795, entityF1: 0.98 }],
  ['blind9', 160, '79.3 / 85.3 / 98.0', { aspectF1: 0.785, polarity: 0.845, entityF1: 0.975 }],
  ['blind10', 160, '75.8 / 92.0 / 99.3', { aspectF1: 0.75, polarity: 0.915, entityF1: 0.99 }],
  ['blind11', 160, '78.4 / 83.8 / 98.1', { aspectF1: 0.775, polarity: 0.83, entityF1: 0.975 }],
  ['blind12', 160, '74.9 / 82.6 / 99.1', { aspectF1: 0.74, polarity: 0.82, entityF1: 0.985 }],
  ['blind13', 160, '80.9 / 81.0 / 98.4', { aspectF1: 0.8, polarity: 0.805, entityF1: 0.98 }],
  ['blind14', 160, '77.9 / 78.7 / 97.7', { aspectF1: 0.77, polarity: 0.78, entityF1: 0.97 }],
  ['blind15', 160, '79.9 / 86.3 / 98.4', { aspectF1: 0.79, polarity: 0.855, entityF1: 0.98 }],
  ['blind16', 160, '76.7 / 87.2 / 97.8', { aspectF1: 0.76, polarity: 0.865, entityF1: 0.975 }],
  ['blind17', 160, '81.6 / 85.8 / 98.0', { aspectF1: 0.81, polarity: 0.85, entityF1: 0.975 }],
  ['blind18', 160, '81.9 / 85.4 / 97.9', { aspectF1: 0.81, polarity: 0.85, entityF1: 0.975 }],
  ['blind19', 160, '80.2 / 82.6 / 97.9', { aspectF1: 0.795, polarity: 0.82, entityF1: 0.975 }],
  ['blind20', 160, '79.2 / 85.4 / 96.4', { aspectF1: 0.785, polarity: 0.85, entityF1: 0.96 }],
  ['blind21', 160, '77.9 / 83.1 / 96.1', { aspectF1: 0.775, polarity: 0.825, entityF1: 0.955 }],
  ['blind22', 160, '81.4 / 86.6 / 98.2', { aspectF1: 0.81, polarity: 0.86, entityF1: 0.975 }],
  ['blind23', 160, '82.5 / 85.9 / 97.0', { aspectF1: 0.82, polarity: 0.855, entityF1: 0.965 }],
  ['blind24', 160, '80.7 / 87.7 / 97.6', { aspectF1: 0.8, polarity: 0.87, entityF1: 0.97 }],
  ['blind25', 160, '81.0 / 87.0 / 97.8', { aspectF1: 0.805, polarity: 0.865, entityF1: 0.975 }],
  ['blind26', 160, '82.9 / 87.2 / 97.0', { aspectF1: 0.825, polarity: 0.865, entityF1: 0.965 }],
  ['blind27', 160, '82.6 / 85.7 / 96.8', { aspectF1: 0.82, polarity: 0.85, entityF1: 0.965 }],
  ['blind28', 160, '74.3 / 83.5 / 98.7', { aspectF1: 0.74, polarity: 0.83, entityF1: 0.98 }],
  ['blind29', 160, '79.3 / 87.0 / 96.4', { aspectF1: 0.79, polarity: 0.865, entityF1: 0.96 }],
  ['blind30', 160, '80.1 / 81.7 / 97.7', { aspectF1: 0.8, polarity: 0.815, entityF1: 0.975 }]
]

for (const [set, reviews, firstRun, floors] of FIRST_RUNS) {
  test(`and does not fall below its first run on ${set} (aspect F1 / polarity / entity F1 ${firstRun})`, () => {
    holds(read(`${set}.json`), { reviews, ...floors })
  })
}
