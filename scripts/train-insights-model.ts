/**
 * npm run train:insights: trains the learned aspect detector (src/insights/model.ts) and measures, by k-fold
 * cross-validation over the seen sets, whether it helps the rules (scripts/lib/insights-model.ts does the work).
 *
 *   npm run train:insights                 5-fold CV over the seen sets (dev*.json, blind*.json): the rules alone, and
 *                                          the rules with models of lemma n-grams, with and without the rules' own
 *                                          findings as features, adding at several thresholds and dropping at several
 *   npm run train:insights -- --write      also writes src/insights/aspect-model.json in the setting CV scored best,
 *                                          trained on all seen sets, if it beats the rules alone by MARGIN; else null
 *                                          (no model: the engine runs the rules alone)
 *   npm run train:insights -- --sets=dev,dev2   CV over fewer sets (measurement only, never --write)
 *
 * test.json is held out: it is never read here.
 */
import { writeFileSync } from 'node:fs'
import type { LabelledReview } from '../src/insights/evaluate.js'
import { crossValidate, example, f1, FOLDS, readEval, SEEN, settingName, tallyLine, train, type Setting } from './lib/insights-model.js'

const args = process.argv.slice(2)
const sets = args.find((a) => a.startsWith('--sets='))?.slice(7).split(',') ?? SEEN
if (sets.some((s) => !SEEN.includes(s))) throw new Error(`only the seen sets (${SEEN.join(', ')}) are trained or measured on`)
const write = args.includes('--write')
if (write && sets.length !== SEEN.length) throw new Error('the shipped model is trained on all seen sets')

/** F1 in tenths of a point: settings that score the same to that precision are equal, and the simpler one wins. */
const points = (f: number) => Math.round(f * 1000)
/**
 * What a model must add to the rules' cross-validated F1, in tenths of a point, to ship: less is within the spread
 * between folds. (Its best, +0.1 over the sets before blind2, came with -0.2 on blind2's first run.)
 */
const MARGIN = 5

const SETTINGS: Setting[] = [false, true].flatMap((withRules) =>
  [0.6, 0.7, 0.8, 0.9].flatMap((threshold) => [0, 0.1, 0.2, 0.3].map((keep) => ({ threshold, keep, withRules })))
).filter((s) => s.withRules || s.keep === 0)

const examples = sets.flatMap((s) => readEval(`${s}.json`) as LabelledReview[]).map(example)
console.log(`${FOLDS}-fold cross-validation over ${sets.join(', ')} (${examples.length} reviews)`)
const { rules, learned } = crossValidate(examples, SETTINGS)
console.log(tallyLine('rules alone', rules))
for (const s of SETTINGS) console.log(tallyLine(`rules + model (${settingName(s)})`, learned.get(settingName(s))!))
if (write) {
  // The best setting by F1; on a tie, the simpler one (words only, no dropping, a higher bar to add).
  const simpler = (a: Setting, b: Setting) => Number(a.withRules) - Number(b.withRules) || a.keep - b.keep || b.threshold - a.threshold
  const score = (s: Setting) => points(f1(learned.get(settingName(s))!))
  const [best] = [...SETTINGS].sort((a, b) => score(b) - score(a) || simpler(a, b))
  const target = new URL('../src/insights/aspect-model.json', import.meta.url)
  if (score(best!) < points(f1(rules)) + MARGIN) {
    writeFileSync(target, 'null\n')
    console.log(`no setting beat the rules alone by ${MARGIN / 10} points: src/insights/aspect-model.json is null (the engine runs the rules alone)`)
  } else {
    const model = train(examples, best!)
    writeFileSync(target, `${JSON.stringify(model)}\n`)
    console.log(`wrote src/insights/aspect-model.json (${settingName(best!)}, ${Object.values(model.aspects).reduce((n, a) => n + Object.keys(a.weights).length, 0)} weights)`)
  }
}
