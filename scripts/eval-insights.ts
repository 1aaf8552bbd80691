/**
 * npm run eval:insights: scores the insights engine on the hand-labelled sets in data/eval/ (a fictional funeral home,
 * not the demo data). dev*.json were used while tuning the engine (each measured unseen first); test.json is held out
 * and never inspected (scored, its errors never listed); blind.json (issue 13) was written and labelled before the
 * engine ever ran on it, scored once as it was (data/eval/blind-first-run.txt), and is a development set since; so are
 * blind2.json to blind30.json, the later blind batches (their first runs: data/eval/blind<n>-first-run.txt).
 * train.json, the training corpus of the learned reader, is scored with --sets=train.
 *
 * Prints, per set, aspect precision/recall/F1, polarity accuracy and entity F1; per aspect, precision, recall and
 * polarity on the earlier sets and on each blind set; the polarity confusion tables; and k-fold cross-validation over
 * the seen sets (dev*, blind*, train; never test) of the rules with the learned reader (trained on the other folds) next
 * to the rules alone. With a learned reader shipped, each set is also scored by the rules alone.
 * Targets on the earlier sets together: aspect F1 >= 0.85, polarity accuracy >= 0.90, entity F1 >= 0.95.
 *
 *   --sets=dev,dev2,blind   score only these sets (default: dev, dev2, dev3, dev4, test and every seen blind set)
 *   --errors[=set]          every disagreement with the labels (not for test)
 *   --tags                  per hard-case tag       --no-cv   skip cross-validation
 *
 * Where a second labeller read a set independently (data/eval/<set>.second.json), it also prints how far the two
 * labellers agree, and the engine's score against each.
 */
import { compare, evaluate, readingOf, type LabelledReview, type Scores } from '../src/insights/evaluate.js'
import { LEARNED_MODEL } from '../src/insights/model.js'
import { crossValidate, example, FOLDS, hasEval, readEval, SEEN, settingName, tallyLine } from './lib/insights-model.js'

const args = process.argv.slice(2)
const flags = new Set(args)
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const EARLIER = ['dev', 'dev2', 'dev3', 'dev4', 'test']
/** The earlier sets and every blind set seen since its first run: SEEN is the one list a new batch joins. */
const DEFAULT_SETS = [...EARLIER, ...SEEN.filter((s) => s.startsWith('blind'))]
const names = option('sets')?.split(',') ?? DEFAULT_SETS

const business = readEval('business.json')
const sets: Record<string, LabelledReview[]> = Object.fromEntries(names.map((s) => [s, readEval(`${s}.json`)]))
const earlier = EARLIER.filter((s) => s in sets)

const pct = (x: number) => (x * 100).toFixed(1).padStart(5)
function line(name: string, s: Scores): string {
  return `${name.padEnd(22)} ${String(s.reviews).padStart(4)}  aspect P ${pct(s.aspect.precision)} R ${pct(s.aspect.recall)} F1 ${pct(s.aspect.f1)}  polarity ${pct(s.polarity.accuracy)} (${s.polarity.correct}/${s.polarity.total})  entity F1 ${pct(s.entity.f1)}`
}

function perAspect(title: string, s: Scores): void {
  console.log(`\nper aspect, ${title}\n${'aspect'.padEnd(16)}${['labelled', 'precision', 'recall', 'polarity'].map((h) => h.padStart(11)).join('')}`)
  for (const [id, c] of Object.entries(s.perAspect).sort(([a], [b]) => a.localeCompare(b))) {
    const cells = [String(c.tp + c.fn), pct(c.tp / (c.tp + c.fp || 1)), pct(c.tp / (c.tp + c.fn || 1)), pct(c.correct / (c.judged || 1))]
    console.log(id.padEnd(16) + cells.map((x) => x.padStart(11)).join(''))
  }
}

function confusion(title: string, s: Scores): void {
  const labels = ['positive', 'negative', 'neutral', 'mixed']
  console.log(`\npolarity, ${title}: labelled (rows) vs predicted (columns)\n${''.padEnd(10)}${labels.map((l) => l.padStart(10)).join('')}`)
  for (const g of labels) console.log(g.padEnd(10) + labels.map((p) => String(s.polarity.confusion[`${g}>${p}`] ?? 0).padStart(10)).join(''))
}

console.log('set                    reviews')
const scores: Record<string, Scores> = {}
for (const name of names) {
  scores[name] = evaluate(business, sets[name]!)
  console.log(line(name, scores[name]))
}
const all = earlier.length ? evaluate(business, earlier.flatMap((s) => sets[s]!)) : undefined
if (all && earlier.length > 1) console.log(line(earlier.length === EARLIER.length ? 'all earlier sets' : `earlier: ${earlier.join(',')}`, all))
const blinds = names.filter((s) => s.startsWith('blind'))
// The learned part is trained on the seen sets, so on them its lines are in-sample; the rules alone are not trained.
if (LEARNED_MODEL) for (const name of names) console.log(line(`${name}, rules alone`, evaluate(business, sets[name]!, { model: null })))
const tagged = names.flatMap((s) => sets[s]!)
if (flags.has('--tags')) {
  const tags = [...new Set(tagged.flatMap((r) => r.tags))].sort()
  for (const tag of tags) console.log(line(`  ${tag}`, evaluate(business, tagged.filter((r) => r.tags.includes(tag)))))
}
if (all) perAspect(earlier.length === EARLIER.length ? 'all earlier sets' : earlier.join(', '), all)
for (const b of blinds) perAspect(b, scores[b]!)
if (all) confusion(earlier.length === EARLIER.length ? 'all earlier sets' : earlier.join(', '), all)
for (const b of blinds) confusion(b, scores[b]!)
agreement()
if (!flags.has('--no-cv')) {
  const seen = SEEN.flatMap((s) => readEval(`${s}.json`) as LabelledReview[]).map(example)
  const shipped = LEARNED_MODEL ? [LEARNED_MODEL.threshold] : []
  const { rules, learned } = crossValidate(seen, shipped)
  console.log(`\n${FOLDS}-fold cross-validation over the seen sets, ${SEEN.join(', ')} (${seen.length} reviews; the model of each fold is trained on the other folds)`)
  console.log(tallyLine('rules alone', rules))
  for (const t of shipped) console.log(tallyLine(settingName(t), learned.get(t)!))
}
/**
 * Where a second labeller read a set on their own (data/eval/<set>.second.json: the same reviews' labels, written
 * without seeing the first labeller's, the engine's or its code), how far two careful readers agree: the second
 * labeller scored against the set's labels (F1 is symmetric: either can be the reference), and the engine against each.
 */
function agreement(): void {
  for (const name of names.filter((s) => hasEval(`${s}.second.json`))) {
    const second = new Map((readEval(`${name}.second.json`) as Pick<LabelledReview, 'id' | 'labels'>[]).map((r) => [r.id, r.labels]))
    const relabelled = sets[name]!.map((r) => ({ ...r, labels: second.get(r.id) ?? missing(name, r.id) }))
    const labellers = compare(sets[name]!, new Map([...second].map(([id, labels]) => [id, readingOf(labels)])))
    console.log(`
agreement between labellers, ${name} (${second.size} reviews read by both)`)
    console.log(line('second labeller vs first', labellers))
    console.log(line('engine vs first labeller', scores[name]!))
    console.log(line('engine vs second labeller', evaluate(business, relabelled)))
    perAspect(`${name}, second labeller vs first`, labellers)
  }
}

function missing(set: string, id: string): never {
  throw new Error(`${set}.second.json has no labels for review ${id}`)
}

const errorsOf = args.find((a) => a.startsWith('--errors'))
if (errorsOf) {
  const set = errorsOf.split('=')[1] ?? 'dev'
  if (set === 'test') throw new Error('the test set is held out: its errors are not listed')
  if (!sets[set]) throw new Error(`--errors=${set}: that set is not scored in this run`)
  for (const e of scores[set]!.errors) console.log(e)
}
if (all && earlier.length === EARLIER.length) {
  const met = all.aspect.f1 >= 0.85 && all.polarity.accuracy >= 0.9 && all.entity.f1 >= 0.95
  console.log(met ? '\ntargets met on the earlier sets (aspect F1 >= 85, polarity >= 90, entity F1 >= 95)' : '\ntargets NOT met on the earlier sets (aspect F1 >= 85, polarity >= 90, entity F1 >= 95)')
  process.exitCode = met ? 0 : 1
}
