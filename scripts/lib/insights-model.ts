/**
 * Training and k-fold cross-validation of the learned reader (src/insights/model.ts), shared by
 * scripts/train-insights-model.ts (which writes the shipped weights) and scripts/eval-insights.ts (which prints CV).
 *
 * Presence: per aspect, L2-regularised logistic regression over features scaled by their naive Bayes log-count ratios
 * (NBLR), the sentences' words pooled beside the review's. Polarity: one L2-regularised softmax regression over the
 * labelled (review, aspect) pairs, each feature's weights partly shared between the polarities (PRAISE_AND_BLAME).
 * Features as model.ts defines them, seen in at least MIN_COUNT training reviews; fitted by full-batch gradient descent
 * with momentum from zero, so the same data give the same weights.
 */
import { existsSync, readFileSync } from 'node:fs'
import { Business } from '../../src/domain/index.js'
import { analyzeReview, readRules } from '../../src/insights/analyze.js'
import { asReview, type LabelledReview } from '../../src/insights/evaluate.js'
import { FUNERAL_HOME_TAXONOMY } from '../../src/insights/funeral-home-taxonomy.js'
import { compileModel, FEATURES_VERSION, ownFeatures, polarityFeatures, POLARITIES, sharedFeatures, wordFeatures, type CompiledModel, type LearnedModel, type Polarity, type RuleEvidence } from '../../src/insights/model.js'
import { compileTaxonomy } from '../../src/insights/taxonomy.js'
import { buildMentionIndex } from '../../src/mentions/index.js'

export const FOLDS = 5
/**
 * The sets whose labels may be read and trained on: the dev sets, the blind sets (each seen since its first run) and
 * the training corpus. Never test, and never a blind set before its first run.
 */
export const SEEN = ['dev', 'dev2', 'dev3', 'dev4', 'blind', 'blind2', 'blind3', 'blind4', 'blind5', 'blind6', 'blind7', 'blind8', 'blind9', 'blind10', 'blind11', 'blind12', 'blind13', 'blind14', 'blind15', 'blind16', 'blind17', 'blind18', 'blind19', 'blind20', 'blind21', 'blind22', 'blind23', 'blind24', 'blind25', 'blind26', 'blind27', 'blind28', 'blind29', 'blind30', 'train', 'train2', 'train3']
const ITERATIONS = 600
const RATE = 0.5
const MOMENTUM = 0.9
/**
 * The L2 penalty, one for every feature. It was 0.002 until blind16, then halved on the review's own words (by-batch
 * mean over blind4-16: 79.7 -> 80.7 F1 at equal polarity). By batch over blind4-17 (p >= 0.35), from there: 0.001 on
 * every feature 80.6 -> 80.8 F1 and 84.5 -> 84.9 polarity; 0.0005 on every feature 80.8 and 85.4 (eight batches up in
 * F1 and five down, ten up in polarity and four down); 0.00025 80.7 and 85.2; the words' own L2 for the words around
 * each mention, or rarer features (seen twice), 80.8 and at most 84.7. The reader was held too tightly, its polarity most.
 */
const L2 = 0.0005
const MIN_COUNT = 3
/** Weights smaller than this are dropped, in cross-validation too, so what is measured is what ships. */
const MIN_WEIGHT = 0.05

const root = new URL('../../', import.meta.url)
export const readEval = (f: string) => JSON.parse(readFileSync(new URL(`data/eval/${f}`, root), 'utf8'))
/** Whether data/eval/ holds the file (a second labeller's reading of a set is optional). */
export const hasEval = (f: string) => existsSync(new URL(`data/eval/${f}`, root))

const business = Business.parse(readEval('business.json'))
const mentions = buildMentionIndex(business)
const taxonomy = compileTaxonomy(FUNERAL_HOME_TAXONOMY)
const ASPECTS = FUNERAL_HOME_TAXONOMY.aspects.map((a) => a.id)

export interface Example {
  review: LabelledReview
  words: string[]
  /** Each sentence's words (wordFeatures of the sentence alone). */
  sentences: string[][]
  /** What the rules alone found, per aspect. */
  rules: Map<string, RuleEvidence>
}

export interface Tally {
  tp: number
  fp: number
  fn: number
  correct: number
  judged: number
}

const tally = (): Tally => ({ tp: 0, fp: 0, fn: 0, correct: 0, judged: 0 })

const asEngineReview = (l: LabelledReview) => asReview(l, mentions.detect(l.text))

export function example(review: LabelledReview): Example {
  const { sentences, rules } = readRules(asEngineReview(review), { taxonomy, mentions })
  const bySentence = sentences.map((s) => [...wordFeatures([s])])
  // wordFeatures starts each sentence afresh (no bigram across two), so the review's words are its sentences' together.
  return { review, words: [...new Set(bySentence.flat())], sentences: bySentence, rules }
}

/** Feature names to column numbers: those seen in at least MIN_COUNT rows. */
function vocabulary(rows: string[][]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const row of rows) for (const f of new Set(row)) counts.set(f, (counts.get(f) ?? 0) + 1)
  const kept = [...counts].filter(([, n]) => n >= MIN_COUNT).map(([f]) => f).sort()
  return new Map(kept.map((f, i) => [f, i]))
}

const columns = (rows: string[][], index: Map<string, number>) => rows.map((row) => [...new Set(row)].flatMap((f) => (index.has(f) ? [index.get(f)!] : [])))

/** Rows of column numbers packed in two typed arrays (compressed sparse rows): row r is cols[start[r]] to cols[start[r + 1] - 1]. */
interface Packed {
  start: Int32Array
  cols: Int32Array
}

/** Where each of a run of parts starts, given their lengths, and (last) where the run ends. */
function offsets(lengths: number[]): Int32Array {
  const start = new Int32Array(lengths.length + 1)
  lengths.forEach((length, i) => (start[i + 1] = start[i]! + length))
  return start
}

const packed = (rows: number[][]): Packed => ({ start: offsets(rows.map((row) => row.length)), cols: Int32Array.from(rows.flat()) })

/**
 * Full-batch gradient descent with Nesterov momentum from zero, ITERATIONS steps over `rows` examples: `gradient` gives
 * the summed gradient at the look-ahead point; the first `decayed` parameters are held back by the L2 `l2`, the rest
 * (the biases) are not. Plain descent stopped ITERATIONS steps short of the optimum (its regularised objective 4 to 13%
 * above what momentum reaches in the same steps, on the presence of pricing, timeliness, professionalism and compassion
 * over the seen sets), and the reader fitted closer to it reads unseen batches better. Left out: L-BFGS run to the
 * optimum, with this L2 or twice it (by batch over blind23-30 at p >= 0.3, 81.4 and 81.3 F1 against 81.4, polarity 87.2
 * all three): past this point the fit is not what holds the reader back.
 */
function descend(length: number, decayed: number, rows: number, gradient: (at: Float64Array) => Float64Array, rate: number, l2: number): Float64Array {
  const w = new Float64Array(length)
  const velocity = new Float64Array(length)
  const ahead = new Float64Array(length)
  for (let it = 0; it < ITERATIONS; it++) {
    for (let i = 0; i < length; i++) ahead[i] = w[i]! + MOMENTUM * velocity[i]!
    const grad = gradient(ahead)
    for (let i = 0; i < length; i++) {
      velocity[i] = MOMENTUM * velocity[i]! - rate * (grad[i]! / rows + (i < decayed ? l2 * ahead[i]! : 0))
      w[i]! += velocity[i]!
    }
  }
  return w
}

/**
 * Softmax regression over 0/1 features. `shared` lists weights each feature carries besides its own one per class,
 * each added to the logits of the classes it names (Sharing); the weights returned are the sums per class (share), as
 * model.ts reads them.
 */
function fit(rows: string[][], y: number[], classes: number, shared: Sharing): { index: Map<string, number>; w: Float64Array; bias: Float64Array } {
  const index = vocabulary(rows)
  const x = packed(columns(rows, index))
  // Each feature's own and shared weights, then the biases, in one vector that each step moves as a whole.
  const size = index.size * (classes + shared.length)
  const w = descend(size + classes, size, y.length, (at) => share(gradient(x, y, share(at, index.size, classes, shared), index.size * classes, classes), index.size, classes, shared, true), RATE, L2)
  const per = share(w, index.size, classes, shared)
  return { index, w: per.subarray(0, index.size * classes), bias: per.subarray(index.size * classes) }
}

/**
 * Weights a feature carries besides its own per class, each one listing the classes whose logits it adds to. The
 * softmax is the same one; what changes is what the L2 holds back: evidence two classes have in common can be learned
 * once from the examples of both.
 */
type Sharing = readonly (readonly number[])[]

/**
 * The linear map from the parameters (per feature its own weight for each class, then its shared ones; the biases) to
 * the weights per class that the softmax reads (each class's own weight plus the shared ones that name it), or, with
 * `back`, its transpose: a gradient over those weights carried back to the parameters (a shared one sums its classes').
 */
function share(from: Float64Array, features: number, classes: number, shared: Sharing, back = false): Float64Array {
  const width = classes + shared.length
  const out = new Float64Array(features * (back ? width : classes) + classes)
  const move = (param: number, perClass: number) => {
    if (back) out[param]! += from[perClass]!
    else out[perClass]! += from[param]!
  }
  for (let j = 0; j < features; j++) {
    for (let c = 0; c < classes; c++) move(j * width + c, j * classes + c)
    shared.forEach((to, s) => {
      for (const c of to) move(j * width + classes + s, j * classes + c)
    })
  }
  out.set(from.subarray(features * (back ? classes : width)), features * (back ? width : classes))
  return out
}

/**
 * Per column, the log of how much likelier it is in a row of class 1 than in one of class 0, smoothed by one: the naive
 * Bayes log-count ratio that scales each presence feature (NBLR: Wang and Manning, "Baselines and bigrams", 2012). The
 * scaling changes what the L2 holds back: a feature whose presence already tells the classes apart needs a small weight
 * to count, one that does not needs a large one. By batch over blind4-18, presence with the ratios read 82.2 F1 / 85.1
 * polarity at p >= 0.35 (82.3 / 85.2 at 0.3) where 0/1 read 81.0 / 85.4 (80.9 / 85.4); the ratios held within +-3 or
 * +-5 read the same, and with twice the L2 82.3 / 84.9. Polarity with each class's ratio against the rest read 85.3
 * against 85.2 at 0.3, and is left 0/1.
 */
function naiveBayesRatios(x: number[][], y: number[], width: number): Float64Array {
  const counts = [new Float64Array(width).fill(1), new Float64Array(width).fill(1)] as const
  x.forEach((row, n) => {
    for (const j of row) counts[y[n] === 1 ? 1 : 0][j]! += 1
  })
  const [total0, total1] = counts.map((c) => c.reduce((a, b) => a + b, 0)) as [number, number]
  return counts[1].map((c1, j) => Math.log(c1 / total1) - Math.log(counts[0][j]! / total0))
}

/** The gradient of the summed cross-entropy at `w` (weights then biases, as fit() lays them out). */
function gradient({ start, cols }: Packed, y: number[], w: Float64Array, size: number, classes: number): Float64Array {
  const grad = new Float64Array(w.length)
  const z = new Float64Array(classes)
  const err = new Float64Array(classes)
  for (let n = 0; n < y.length; n++) {
    z.set(w.subarray(size))
    for (let k = start[n]!; k < start[n + 1]!; k++) for (let c = 0; c < classes; c++) z[c]! += w[cols[k]! * classes + c]!
    const top = Math.max(...z)
    let sum = 0
    for (let c = 0; c < classes; c++) sum += Math.exp(z[c]! - top)
    for (let c = 0; c < classes; c++) {
      err[c] = Math.exp(z[c]! - top) / sum - (y[n] === c ? 1 : 0)
      grad[size + c]! += err[c]!
    }
    // A row names each column once, so every weight's gradient still adds the rows' errors in row order.
    for (let k = start[n]!; k < start[n + 1]!; k++) for (let c = 0; c < classes; c++) grad[cols[k]! * classes + c]! += err[c]!
  }
  return grad
}

const rounded = (x: number) => Math.round(x * 1000) / 1000

/**
 * Presence for one aspect: a logistic regression over features scaled by their naive Bayes log-count ratios, whose
 * logit adds to the review's features (its words, the stars, what the rules found) the words of its sentences pooled by
 * log-sum-exp (the same weights once more, for each sentence's own words): a soft maximum, so one sentence that speaks
 * of the aspect counts for more than the same words strewn over the review (model.ts reads it the same way). By batch
 * over blind16-25 (p >= 0.3): 81.3 -> 81.6 F1 (seven batches up by 0.2 to 1.7, three down by 0.3 to 0.8), polarity 87.3
 * -> 87.2. Left out: the sentences pooled alone, without the review's words (by log-sum-exp 79.9 F1 on blind25 against
 * 81.0, by log-mean-exp 79.0 on blind24-25 against 80.9); log-mean-exp beside the review's words (81.6 / 87.1); a
 * weight per feature shared by the presence of professionalism, compassion and communication (81.3 / 87.2 by batch over
 * blind16-25; with arrangements in the group too, or with two more pairs, arrangements and ceremony, timeliness and
 * communication, no better than those three alone on blind24-25); and each clause's words (clauses.ts) pooled in place
 * of each sentence's (by batch over blind23-30 at p >= 0.3, 81.4 -> 81.2 F1, 87.2 -> 87.1 polarity).
 * The descent is fit()'s for the difference of a two-class softmax's weights, at twice its rate and half its L2, which
 * without the sentences gives the same weights.
 */
function presence(examples: Example[], aspect: string): LearnedModel['presence'][string] {
  const review = examples.map((e) => [...e.words, ...sharedFeatures(e.review.rating, e.rules), ...ownFeatures(e.rules.get(aspect))])
  const y = examples.map((e) => (aspect in e.review.labels.aspects ? 1 : 0))
  const index = vocabulary(review)
  const x = columns(review, index)
  const value = naiveBayesRatios(x, y, index.size)
  const V = index.size
  const rows = packed(x)
  // Every review's sentences in one packed block, those of review n from sentence firstSentence[n] on.
  const bySentence = examples.map((e) => columns(e.sentences, index))
  const sentences = packed(bySentence.flat())
  const firstSentence = offsets(bySentence.map((s) => s.length))
  const scaled = new Float64Array(V)
  const soft = new Float64Array(Math.max(0, ...bySentence.map((s) => s.length)))
  /** The weights (scaled by the ratios) of the columns of packed row r, summed in order from zero. */
  const weigh = ({ start, cols }: Packed, r: number) => {
    let z = 0
    for (let k = start[r]!; k < start[r + 1]!; k++) z += scaled[cols[k]!]!
    return z
  }
  const spread = ({ start, cols }: Packed, r: number, err: number, grad: Float64Array) => {
    for (let k = start[r]!; k < start[r + 1]!; k++) grad[cols[k]!]! += err * value[cols[k]!]!
  }
  const w = descend(V + 1, V, examples.length, (at) => {
    const grad = new Float64Array(at.length)
    for (let j = 0; j < V; j++) scaled[j] = at[j]! * value[j]!
    for (let n = 0; n < examples.length; n++) {
      const from = firstSentence[n]!
      const count = firstSentence[n + 1]! - from
      let top = -Infinity
      for (let i = 0; i < count; i++) top = Math.max(top, (soft[i] = weigh(sentences, from + i)))
      let sum = 0
      for (let i = 0; i < count; i++) sum += soft[i] = Math.exp(soft[i]! - top)
      const z = at[V]! + weigh(rows, n) + (count ? top + Math.log(sum) : 0)
      const err = 1 / (1 + Math.exp(-z)) - y[n]!
      grad[V]! += err
      spread(rows, n, err, grad)
      for (let i = 0; i < count; i++) spread(sentences, from + i, (err * soft[i]!) / sum, grad)
    }
    return grad
  }, 2 * RATE, L2 / 2)
  const weights: Record<string, number> = {}
  for (const [f, j] of index) {
    const v = w[j]! * value[j]!
    if (Math.abs(v) >= MIN_WEIGHT) weights[f] = rounded(v)
  }
  return { bias: rounded(w[V]!), weights }
}

/**
 * Besides its own weight for each polarity, every polarity feature carries a weight for praise, added to the positive
 * and the mixed logits, and one for blame, added to the negative and the mixed ones: a mixed judgement is praise and
 * blame together, so the words that praise in the positive examples and blame in the negative ones speak for mixed too,
 * where on its own weights mixed, one label in fifteen, learned from its few examples alone. By batch over
 * blind16-23 (p >= 0.3) polarity read 87.0 where it read 86.7 (four batches up by 0.5 to 1.2, three down by 0.3 to 0.9;
 * aspect F1 the same, 81.1). Left out: praise and blame alone, the softmax held to their sum (85.7); the shared weights
 * held four times less tightly (87.0); twice or half the L2 on the polarity fit (86.6, 86.9).
 */
const PRAISE_AND_BLAME: Sharing = [[POLARITIES.indexOf('positive'), POLARITIES.indexOf('mixed')], [POLARITIES.indexOf('negative'), POLARITIES.indexOf('mixed')]]

/**
 * Polarity over every labelled (review, aspect) pair, each judged by the words of the sentence whose words weigh most
 * for its presence (the rest of the review speaks of other things) and, for an aspect the rules found, the words around
 * its mentions (RuleEvidence.context); model.ts reads it the same way. The sentence's words were once for an aspect the
 * rules missed alone. By batch over blind18-27 (p >= 0.35), given to every aspect they moved polarity from 86.6 to 88.0
 * (nine batches up by 0.3 to 3.0, blind25 down by 0.3); aspect F1 is unchanged (82.0), as presence is. Left out: the
 * words of the two sentences that weigh most, added together (86.6); mixed made likelier at run time, by 0.25 to 1.5 on
 * its logit (87.7 down to 85.3: what mixed gains, positive and negative lose more); and the words of the likeliest
 * clause (clauses.ts) in place of its sentence's, by batch over blind23-30 (p >= 0.3) 87.2 -> 86.3, every batch down;
 * and mixed where another sentence nearly as likely to speak of the aspect reads the other side (blind23-30 read by one
 * reader trained on the rest: 86.2 as shipped, 86.1 at best; ADR 0003).
 */
function polarity(examples: Example[], presence: LearnedModel['presence']): LearnedModel['polarity'] {
  const pairs = examples.flatMap((e) => Object.entries(e.review.labels.aspects).map(([aspect, gold]) => ({ e, aspect, gold: gold as Polarity })))
  const rows = pairs.map(({ e, aspect }) => [...polarityFeatures(aspect, e.rules.get(aspect), e.review.rating), ...likeliest(e.sentences, presence[aspect]!.weights)])
  const k = POLARITIES.length
  const { index, w, bias } = fit(rows, pairs.map((p) => POLARITIES.indexOf(p.gold)), k, PRAISE_AND_BLAME)
  const weights: Record<string, number[]> = {}
  for (const [f, j] of index) {
    const ws = Array.from(w.subarray(j * k, j * k + k), rounded)
    if (ws.some((v) => Math.abs(v) >= MIN_WEIGHT)) weights[f] = ws
  }
  return { bias: Array.from(bias, rounded), weights }
}

/** The words of the sentence whose words weigh most for an aspect's presence (the first of equals), as model.ts picks it. */
function likeliest(sentences: string[][], weights: Record<string, number>): string[] {
  let best: string[] = []
  let top = -Infinity
  for (const s of sentences) {
    const z = s.reduce((sum, f) => sum + (weights[f] ?? 0), 0)
    if (z > top) [best, top] = [s, z]
  }
  return best
}

export function train(examples: Example[], threshold: number): LearnedModel {
  const found = Object.fromEntries(ASPECTS.map((a) => [a, presence(examples, a)]))
  return { features: FEATURES_VERSION, threshold, presence: found, polarity: polarity(examples, found) }
}

/** How the engine (with `model`, or the rules alone) scores on `examples`, added into `into`. */
function score(examples: Example[], model: CompiledModel | undefined, into: Tally): void {
  for (const { review } of examples) {
    const got = new Map(analyzeReview(asEngineReview(review), { taxonomy, mentions, model }).analysis.aspects.map((a) => [a.id, a.sentiment]))
    for (const [id, gold] of Object.entries(review.labels.aspects)) {
      if (!got.has(id)) into.fn++
      else {
        into.tp++
        into.judged++
        if (got.get(id) === gold) into.correct++
      }
    }
    for (const id of got.keys()) if (!(id in review.labels.aspects)) into.fp++
  }
}

/** Deterministic folds: reviews in id order, dealt round-robin. */
function folds(examples: Example[]): Example[][] {
  const sorted = [...examples].sort((a, b) => a.review.id.localeCompare(b.review.id))
  return Array.from({ length: FOLDS }, (_, k) => sorted.filter((_, i) => i % FOLDS === k))
}

export const settingName = (threshold: number) => `rules + model, p >= ${threshold}`

/**
 * Each fold scored by the rules alone and by the rules with a model trained on the other folds, at each threshold
 * (one model per fold; the threshold only changes the decision).
 */
export function crossValidate(examples: Example[], thresholds: number[]): { rules: Tally; learned: Map<number, Tally> } {
  const split = folds(examples)
  const rules = tally()
  const learned = new Map(thresholds.map((t) => [t, tally()]))
  split.forEach((held, k) => {
    const model = train(split.filter((_, j) => j !== k).flat(), 0.5)
    score(held, undefined, rules)
    for (const t of thresholds) score(held, compileModel({ ...model, threshold: t }), learned.get(t)!)
  })
  return { rules, learned }
}

/**
 * Each blind batch from blind4 on (the first the reader met unseen) scored by the rules with a model trained on every
 * other seen set, at each threshold: what a batch's first run would have been with this design and the data of today,
 * closer to a first run than random folds, whose test reviews share their labellers with the training ones.
 */
export function batchValidate(sets: Map<string, Example[]>, thresholds: number[]): { batch: string; learned: Map<number, Tally> }[] {
  const batches = [...sets.keys()].filter((s) => /^blind([4-9]|\d\d)$/.test(s))
  return batches.map((batch) => {
    const model = train([...sets].filter(([s]) => s !== batch).flatMap(([, e]) => e), 0.5)
    const learned = new Map(thresholds.map((t) => [t, tally()]))
    for (const t of thresholds) score(sets.get(batch)!, compileModel({ ...model, threshold: t }), learned.get(t)!)
    return { batch, learned }
  })
}

export const f1 = (t: Tally) => (2 * t.tp) / (2 * t.tp + t.fp + t.fn || 1)
export const accuracy = (t: Tally) => t.correct / (t.judged || 1)

export function tallyLine(name: string, t: Tally): string {
  const p = t.tp / (t.tp + t.fp || 1)
  const r = t.tp / (t.tp + t.fn || 1)
  const pct = (x: number) => (x * 100).toFixed(1).padStart(5)
  return `${name.padEnd(30)} aspect P ${pct(p)} R ${pct(r)} F1 ${pct(f1(t))}  polarity ${pct(accuracy(t))} (${t.correct}/${t.judged})`
}
