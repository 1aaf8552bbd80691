/**
 * The learned part beside the rules: per aspect, a logistic regression over the review's lemma unigrams and bigrams,
 * trained by scripts/train-insights-model.ts on the labelled dev sets and kept as weights in aspect-model.json. It only
 * adds aspects the rules missed when it is confident; the rules judge polarity. Pure arithmetic over the tokens:
 * deterministic, no network.
 */
import shipped from './aspect-model.json' with { type: 'json' }
import type { Sentence, Token } from './nlp.js'

export interface AspectModel {
  /** Probability above which an aspect the rules did not find is added. */
  threshold: number
  /**
   * Probability below which an aspect the rules found is dropped (0: never). Optional: a model without it only adds.
   */
  keep?: number
  /**
   * Per aspect: bias and feature weights: lemma unigrams and bigrams ("kind", "call back") and, when the model was
   * trained with them, what the rules found for that aspect (`§found`, `§judged`, `§neutral`, `§single`: see
   * ruleFeatures).
   */
  aspects: Record<string, { bias: number; weights: Record<string, number> }>
}

/** What the rules found for one aspect of a review. */
export interface RuleEvidence {
  /** The aspect's mentions carry a judgement in their own words (not only the context or the stars). */
  judged: boolean
  sentiment: string
  /** How many distinct phrasings mention it. */
  phrases: number
}

/**
 * The rules' findings for one aspect as features of that aspect's model: found at all, found with words that judge it,
 * found only as a neutral fact, found once.
 */
export function ruleFeatures(evidence: RuleEvidence | undefined): string[] {
  if (!evidence) return []
  const out = ['§found']
  if (evidence.judged) out.push('§judged')
  if (evidence.sentiment === 'neutral') out.push('§neutral')
  if (evidence.phrases <= 1) out.push('§single')
  return out
}

const SKIP = new Set(['PUNCT', 'PROPN', 'SYM', 'NUM', 'X'])

/** The words a feature is made of: lemmas, names and punctuation left out. */
const lemmasOf = (s: Sentence) => s.tokens.filter((t: Token) => !SKIP.has(t.pos)).map((t) => t.lemma)

/** Features of a review as the trainer sees them: lemma unigrams and bigrams. */
export function features(sentences: readonly Sentence[]): Set<string> {
  const out = new Set<string>()
  for (const s of sentences) {
    const lemmas = lemmasOf(s)
    lemmas.forEach((l, i) => {
      out.add(l)
      if (i > 0) out.add(`${lemmas[i - 1]} ${l}`)
    })
  }
  return out
}

/**
 * The weights arranged for reading a review once: per unigram and per bigram (first word, then second) a vector of
 * one weight per aspect, so a review costs one lookup per word and no strings are built.
 */
export interface CompiledModel {
  threshold: number
  keep: number
  ids: string[]
  bias: Float64Array
  /**
   * Per feature, one weight per aspect and, in the last slot, the number of the last reading that counted it: a feature
   * counts once per review, as in training, without a set of seen features per review.
   */
  unigrams: Map<string, Float64Array>
  bigrams: Map<string, Map<string, Float64Array>>
  /** Readings so far (the stamp of the last slot). */
  readings: { n: number }
  /** The model was trained with the rules' findings as features. */
  withRules: boolean
}

export function compileModel(model: AspectModel): CompiledModel {
  const ids = Object.keys(model.aspects)
  const unigrams = new Map<string, Float64Array>()
  const bigrams = new Map<string, Map<string, Float64Array>>()
  const vector = (feature: string) => {
    const [a, b] = feature.split(' ')
    if (b === undefined) return unigrams.get(a!) ?? unigrams.set(a!, new Float64Array(ids.length + 1)).get(a!)!
    const inner = bigrams.get(a!) ?? bigrams.set(a!, new Map()).get(a!)!
    return inner.get(b) ?? inner.set(b, new Float64Array(ids.length + 1)).get(b)!
  }
  ids.forEach((id, k) => {
    for (const [feature, w] of Object.entries(model.aspects[id]!.weights)) vector(feature)[k] = w
  })
  const bias = Float64Array.from(ids.map((id) => model.aspects[id]!.bias))
  const withRules = ids.some((id) => Object.keys(model.aspects[id]!.weights).some((f) => f.startsWith('§')))
  return { threshold: model.threshold, keep: model.keep ?? 0, ids, bias, unigrams, bigrams, readings: { n: 0 }, withRules }
}

/** The model's probability for each of its aspects (in the order of `ids`), given the words and what the rules found. */
export function probabilities(model: CompiledModel, sentences: readonly Sentence[], rules: ReadonlyMap<string, RuleEvidence>): Float64Array {
  const z = Float64Array.from(model.bias)
  const n = z.length
  // Each feature counts once per review, as in training: a feature's last slot holds the reading that counted it.
  const stamp = ++model.readings.n
  for (const s of sentences) {
    let previous: string | undefined
    for (const t of s.tokens) {
      if (SKIP.has(t.pos)) continue
      const one = model.unigrams.get(t.lemma)
      if (one && one[n] !== stamp) {
        one[n] = stamp
        for (let k = 0; k < n; k++) z[k]! += one[k]!
      }
      const two = previous === undefined ? undefined : model.bigrams.get(previous)?.get(t.lemma)
      if (two && two[n] !== stamp) {
        two[n] = stamp
        for (let k = 0; k < n; k++) z[k]! += two[k]!
      }
      previous = t.lemma
    }
  }
  // The rule features are the aspect's own: only the weight of its own model counts.
  if (model.withRules) model.ids.forEach((id, k) => {
    for (const f of ruleFeatures(rules.get(id))) z[k]! += model.unigrams.get(f)?.[k] ?? 0
  })
  for (let k = 0; k < n; k++) z[k] = 1 / (1 + Math.exp(-z[k]!))
  return z
}

/** Aspects the model adds to those the rules found, and those of the rules' it drops. */
export function decide(model: CompiledModel, sentences: readonly Sentence[], rules: ReadonlyMap<string, RuleEvidence>): { added: string[]; dropped: string[] } {
  const p = probabilities(model, sentences, rules)
  return {
    added: model.ids.filter((id, k) => !rules.has(id) && p[k]! >= model.threshold),
    dropped: model.ids.filter((id, k) => rules.has(id) && p[k]! < model.keep)
  }
}

/**
 * The model trained on the seen sets (npm run train:insights -- --write), or null when cross-validation found that no
 * model helped the rules: then the engine runs the rules alone.
 */
export const ASPECT_MODEL: AspectModel | null = shipped as AspectModel | null
