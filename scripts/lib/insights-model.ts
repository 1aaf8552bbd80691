/**
 * Training and k-fold cross-validation of the learned aspect detector (src/insights/model.ts), shared by
 * scripts/train-insights-model.ts (which writes the shipped weights) and scripts/eval-insights.ts (which prints CV).
 *
 * Per aspect, L2-regularised logistic regression over lemma unigrams and bigrams seen in at least two training reviews,
 * fitted by full-batch gradient descent from zero: the same data give the same weights.
 */
import { existsSync, readFileSync } from 'node:fs'
import { Business, type Review } from '../../src/domain/index.js'
import { analyzeReview } from '../../src/insights/analyze.js'
import type { LabelledReview } from '../../src/insights/evaluate.js'
import { FUNERAL_HOME_TAXONOMY } from '../../src/insights/funeral-home-taxonomy.js'
import { compileModel, features, ruleFeatures, type AspectModel, type CompiledModel, type RuleEvidence } from '../../src/insights/model.js'
import { parseText } from '../../src/insights/nlp.js'
import { compileTaxonomy } from '../../src/insights/taxonomy.js'
import { buildMentionIndex } from '../../src/mentions/index.js'

export const FOLDS = 5
/** The sets whose labels and errors may be read and trained on: the dev sets and the blind sets (each seen since its first run). Never test. */
export const SEEN = ['dev', 'dev2', 'dev3', 'dev4', 'blind', 'blind2', 'blind3']
const ITERATIONS = 400
const RATE = 0.5
const L2 = 0.01
const MIN_COUNT = 2
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
  /** Lemma unigrams and bigrams. */
  feats: Set<string>
  /** What the rules alone found, per aspect. */
  rules: Map<string, RuleEvidence>
}

/** The rule features the model may use (model.ts ruleFeatures). */
const RULE_FEATURES = ['§found', '§judged', '§neutral', '§single']

export interface Tally {
  tp: number
  fp: number
  fn: number
  correct: number
  judged: number
}

const tally = (): Tally => ({ tp: 0, fp: 0, fn: 0, correct: 0, judged: 0 })

function asReview(l: LabelledReview): Review {
  return {
    id: l.id, author: 'evaluation', author_avatar_url: null, rating: l.rating, date: '2024-01-01', published_at: null, text: l.text, source: 'evaluation',
    source_url: null, owner_reply: null, verified: true, language: 'en', updated_at: '2024-01-01T00:00:00Z', mentions: mentions.detect(l.text)
  }
}

export function example(review: LabelledReview): Example {
  const work = analyzeReview(asReview(review), { taxonomy, mentions })
  const rules = new Map(
    work.analysis.aspects.map((a) => {
      const phrases = work.phrases.filter((p) => p.aspect === a.id)
      return [a.id, { judged: phrases.some((p) => p.judged), sentiment: a.sentiment, phrases: phrases.length }] as const
    })
  )
  return { review, feats: features(parseText(review.text)), rules }
}

/** Logistic regression for one aspect; with `withRules`, the rules' findings for that aspect are features too. */
function fit(examples: Example[], aspect: string, vocabulary: string[], withRules: boolean): AspectModel['aspects'][string] {
  const index = new Map(vocabulary.map((f, i) => [f, i]))
  const own = (e: Example) => (withRules ? ruleFeatures(e.rules.get(aspect)) : [])
  const rows = examples.map((e) => [...e.feats, ...own(e)].flatMap((f) => (index.has(f) ? [index.get(f)!] : [])))
  const y = examples.map((e) => (aspect in e.review.labels.aspects ? 1 : 0))
  const w = new Float64Array(vocabulary.length)
  let bias = 0
  for (let it = 0; it < ITERATIONS; it++) {
    const grad = new Float64Array(vocabulary.length)
    let gBias = 0
    rows.forEach((row, n) => {
      let z = bias
      for (const j of row) z += w[j]!
      const err = 1 / (1 + Math.exp(-z)) - y[n]!
      gBias += err
      for (const j of row) grad[j]! += err
    })
    for (let j = 0; j < w.length; j++) w[j] = w[j]! - RATE * (grad[j]! / rows.length + L2 * w[j]!)
    bias -= (RATE * gBias) / rows.length
  }
  const weights: Record<string, number> = {}
  vocabulary.forEach((f, j) => {
    if (Math.abs(w[j]!) >= MIN_WEIGHT) weights[f] = Math.round(w[j]! * 1000) / 1000
  })
  return { bias: Math.round(bias * 1000) / 1000, weights }
}

export interface Setting {
  /** Add an aspect the rules missed at p >= threshold. */
  threshold: number
  /** Drop an aspect the rules found at p < keep (0: never). */
  keep: number
  /** The rules' findings are features. */
  withRules: boolean
}

export function train(examples: Example[], setting: Setting): AspectModel {
  const counts = new Map<string, number>()
  for (const e of examples) for (const f of e.feats) counts.set(f, (counts.get(f) ?? 0) + 1)
  const vocabulary = [...[...counts].filter(([, n]) => n >= MIN_COUNT).map(([f]) => f), ...(setting.withRules ? RULE_FEATURES : [])].sort()
  const model: AspectModel = { threshold: setting.threshold, aspects: Object.fromEntries(ASPECTS.map((a) => [a, fit(examples, a, vocabulary, setting.withRules)])) }
  if (setting.keep > 0) model.keep = setting.keep
  return model
}

function score(examples: Example[], model: CompiledModel | undefined, into: Tally): void {
  for (const { review } of examples) {
    const got = new Map(analyzeReview(asReview(review), { taxonomy, mentions, model }).analysis.aspects.map((a) => [a.id, a.sentiment]))
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

export const settingName = (s: Setting) => `${s.withRules ? 'words + rules' : 'words'}, add p >= ${s.threshold}${s.keep ? `, drop p < ${s.keep}` : ''}`

/**
 * Each fold scored by the rules alone and by the rules with a model trained on the other folds, in each setting
 * (models with and without rule features are trained once per fold each; thresholds only change the decision).
 */
export function crossValidate(examples: Example[], settings: Setting[]): { rules: Tally; learned: Map<string, Tally> } {
  const split = folds(examples)
  const rules = tally()
  const learned = new Map(settings.map((s) => [settingName(s), tally()]))
  split.forEach((held, k) => {
    const rest = split.filter((_, j) => j !== k).flat()
    const models = new Map([false, true].filter((r) => settings.some((s) => s.withRules === r)).map((r) => [r, train(rest, { threshold: 0, keep: 0, withRules: r })]))
    score(held, undefined, rules)
    for (const s of settings) score(held, compileModel({ ...models.get(s.withRules)!, threshold: s.threshold, keep: s.keep }), learned.get(settingName(s))!)
  })
  return { rules, learned }
}

export const f1 = (t: Tally) => (2 * t.tp) / (2 * t.tp + t.fp + t.fn || 1)

export function tallyLine(name: string, t: Tally): string {
  const p = t.tp / (t.tp + t.fp || 1)
  const r = t.tp / (t.tp + t.fn || 1)
  const pct = (x: number) => (x * 100).toFixed(1).padStart(5)
  return `${name.padEnd(30)} aspect P ${pct(p)} R ${pct(r)} F1 ${pct(f1(t))}  polarity ${pct(t.correct / (t.judged || 1))} (${t.correct}/${t.judged})`
}
