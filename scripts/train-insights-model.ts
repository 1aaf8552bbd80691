/**
 * npm run train:insights: trains the learned reader (src/insights/model.ts) and measures, by k-fold cross-validation
 * over the seen sets, whether it helps the rules (scripts/lib/insights-model.ts does the work).
 *
 *   npm run train:insights                 5-fold CV over the seen sets (dev*, blind*, train): the rules
 *                                          alone, and the rules with the model at several presence thresholds
 *   npm run train:insights -- --write      also writes src/insights/learned-model.json at the threshold CV scored best,
 *                                          trained on all seen sets, if it beats the rules alone by MARGIN in aspect F1
 *                                          without losing polarity; else null (the engine runs the rules alone)
 *   npm run train:insights -- --sets=dev,dev2   CV over fewer sets (measurement only, never --write)
 *   npm run train:insights -- --by-batch   instead of CV, each blind batch from blind4 on scored by a model trained on
 *                                          every other seen set: an estimate of a new batch's first run
 *
 * test.json is held out: it is never read here (nor is a blind set before its first run).
 */
import { writeFileSync } from 'node:fs'
import type { LabelledReview } from '../src/insights/evaluate.js'
import { accuracy, batchValidate, crossValidate, example, f1, FOLDS, readEval, SEEN, settingName, tallyLine, train, type Example } from './lib/insights-model.js'

const args = process.argv.slice(2)
const sets = args.find((a) => a.startsWith('--sets='))?.slice(7).split(',') ?? SEEN
if (sets.some((s) => !SEEN.includes(s))) throw new Error(`only the seen sets (${SEEN.join(', ')}) are trained or measured on`)
const write = args.includes('--write')
if (write && sets.length !== SEEN.length) throw new Error('the shipped model is trained on all seen sets')

/** F1 in tenths of a point: thresholds that score the same to that precision are equal, and the higher one wins. */
const points = (f: number) => Math.round(f * 1000)
/** What a model must add to the rules' cross-validated aspect F1, in tenths of a point, to ship: less is within the spread between folds. */
const MARGIN = 5
const THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5]

const bySet = new Map<string, Example[]>(sets.map((s) => [s, (readEval(`${s}.json`) as LabelledReview[]).map(example)]))
const examples = [...bySet.values()].flat()
if (args.includes('--by-batch')) {
  if (write) throw new Error('--by-batch measures; it does not write')
  printByBatch()
  process.exit(0)
}
console.log(`${FOLDS}-fold cross-validation over ${sets.join(', ')} (${examples.length} reviews)`)
const { rules, learned } = crossValidate(examples, THRESHOLDS)
console.log(tallyLine('rules alone', rules))
for (const t of THRESHOLDS) console.log(tallyLine(settingName(t), learned.get(t)!))
if (write) {
  const [best] = [...THRESHOLDS].sort((a, b) => points(f1(learned.get(b)!)) - points(f1(learned.get(a)!)) || b - a)
  const target = new URL('../src/insights/learned-model.json', import.meta.url)
  const chosen = learned.get(best!)!
  if (points(f1(chosen)) < points(f1(rules)) + MARGIN || accuracy(chosen) < accuracy(rules)) {
    writeFileSync(target, 'null\n')
    console.log(`the model did not beat the rules alone by ${MARGIN / 10} points of aspect F1 without losing polarity: src/insights/learned-model.json is null`)
  } else {
    const model = train(examples, best!)
    writeFileSync(target, `${JSON.stringify(model)}\n`)
    const count = Object.values(model.presence).reduce((n, a) => n + Object.keys(a.weights).length, 0) + Object.keys(model.polarity.weights).length
    console.log(`wrote src/insights/learned-model.json (${settingName(best!)}, ${count} features with weights)`)
  }
}

function printByBatch(): void {
  const runs = batchValidate(bySet, THRESHOLDS)
  const pct = (x: number) => (x * 100).toFixed(1).padStart(5)
  const cells = (f: (t: number) => [number, number]) => THRESHOLDS.map((t) => `p >= ${String(t).padEnd(4)} ${f(t).map(pct).join(' / ')}`).join('   ')
  console.log(`each blind batch scored by a model trained on every other seen set: aspect F1 / polarity at each threshold`)
  for (const { batch, learned } of runs) console.log(`${batch.padEnd(8)} ${cells((t) => [f1(learned.get(t)!), accuracy(learned.get(t)!)])}`)
  const mean = (t: number, m: typeof f1) => runs.reduce((sum, r) => sum + m(r.learned.get(t)!), 0) / runs.length
  console.log(`${'mean'.padEnd(8)} ${cells((t) => [mean(t, f1), mean(t, accuracy)])}`)
}
