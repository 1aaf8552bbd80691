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
  /** Per aspect: bias and feature weights ("kind", "call back"). */
  aspects: Record<string, { bias: number; weights: Record<string, number> }>
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
  ids: string[]
  bias: Float64Array
  unigrams: Map<string, Float64Array>
  bigrams: Map<string, Map<string, Float64Array>>
  /** Per aspect, the unigram weights, for finding the clause that carries an added aspect. */
  weights: Record<string, Record<string, number>>
}

export function compileModel(model: AspectModel): CompiledModel {
  const ids = Object.keys(model.aspects)
  const unigrams = new Map<string, Float64Array>()
  const bigrams = new Map<string, Map<string, Float64Array>>()
  const vector = (feature: string) => {
    const [a, b] = feature.split(' ')
    if (b === undefined) return unigrams.get(a!) ?? unigrams.set(a!, new Float64Array(ids.length)).get(a!)!
    const inner = bigrams.get(a!) ?? bigrams.set(a!, new Map()).get(a!)!
    return inner.get(b) ?? inner.set(b, new Float64Array(ids.length)).get(b)!
  }
  ids.forEach((id, k) => {
    for (const [feature, w] of Object.entries(model.aspects[id]!.weights)) vector(feature)[k] = w
  })
  const weights = Object.fromEntries(ids.map((id) => [id, model.aspects[id]!.weights]))
  return { threshold: model.threshold, ids, bias: Float64Array.from(ids.map((id) => model.aspects[id]!.bias)), unigrams, bigrams, weights }
}

/** Aspects the model adds to those the rules found: each feature counted once, as in training. */
export function addedAspects(model: CompiledModel, sentences: readonly Sentence[], ruleAspects: readonly string[]): string[] {
  const z = Float64Array.from(model.bias)
  const seen = new Set<Float64Array>()
  const add = (v: Float64Array | undefined) => {
    if (!v || seen.has(v)) return
    seen.add(v)
    for (let k = 0; k < z.length; k++) z[k]! += v[k]!
  }
  for (const s of sentences) {
    const lemmas = lemmasOf(s)
    lemmas.forEach((l, i) => {
      add(model.unigrams.get(l))
      if (i > 0) add(model.bigrams.get(lemmas[i - 1]!)?.get(l))
    })
  }
  return model.ids.filter((id, k) => !ruleAspects.includes(id) && 1 / (1 + Math.exp(-z[k]!)) >= model.threshold)
}

/** The model trained on the dev sets (npm run train:insights -- --write). */
export const ASPECT_MODEL: AspectModel = shipped as AspectModel
