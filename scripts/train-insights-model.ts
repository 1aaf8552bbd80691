/**
 * npm run train:insights: trains the learned aspect detector (src/insights/model.ts) and measures, by k-fold
 * cross-validation, whether its confident finds help the rules (scripts/lib/insights-model.ts does the work).
 *
 *   npm run train:insights                 5-fold CV on the training sets (dev*.json): rules alone vs rules + model
 *   npm run train:insights -- --write      also writes src/insights/aspect-model.json, trained on all training sets,
 *                                          with the threshold that CV scored best
 *   npm run train:insights -- --sets=dev,dev2,dev3,dev4,test,blind   CV over other sets (measurement only, never --write)
 *
 * The shipped model is trained on the dev sets only: test.json and blind.json are never trained on. With the rules'
 * own findings as extra features the model added nothing in CV, so it reads the text alone.
 */
import { writeFileSync } from 'node:fs'
import type { LabelledReview } from '../src/insights/evaluate.js'
import { crossValidate, example, f1, FOLDS, readEval, tallyLine, train } from './lib/insights-model.js'

const TRAINING = ['dev', 'dev2', 'dev3', 'dev4']
const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.9]

const args = process.argv.slice(2)
const sets = args.find((a) => a.startsWith('--sets='))?.slice(7).split(',') ?? TRAINING
const write = args.includes('--write')
if (write && sets.some((s) => !TRAINING.includes(s))) throw new Error('the shipped model is trained on the dev sets only')

const examples = sets.flatMap((s) => readEval(`${s}.json`) as LabelledReview[]).map(example)
console.log(`${FOLDS}-fold cross-validation over ${sets.join(', ')} (${examples.length} reviews)`)
const { rules, learned } = crossValidate(examples, THRESHOLDS)
console.log(tallyLine('rules alone', rules))
for (const [t, tally] of learned) console.log(tallyLine(`rules + model (p >= ${t})`, tally))
if (write) {
  const [best] = [...learned].sort((a, b) => f1(b[1]) - f1(a[1]) || a[0] - b[0])
  const model = train(examples, best![0])
  writeFileSync(new URL('../src/insights/aspect-model.json', import.meta.url), `${JSON.stringify(model)}\n`)
  console.log(`wrote src/insights/aspect-model.json (threshold ${best![0]}, ${Object.values(model.aspects).reduce((n, a) => n + Object.keys(a.weights).length, 0)} weights)`)
}
