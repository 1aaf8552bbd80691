/**
 * The learned part beside the rules: per aspect, a logistic regression over the review's lemma unigrams and bigrams,
 * trained by scripts/train-insights-model.ts on the labelled sets and kept as weights in
 * aspect-model.json. It only adds aspects the rules missed when it is confident; the rules judge polarity. Pure
 * arithmetic over the tokens: deterministic, no network.
 */
import shipped from './aspect-model.json' with { type: 'json' }
import type { Sentence } from './nlp.js'

export interface AspectModel {
  /** Probability above which an aspect the rules did not find is added. */
  threshold: number
  /** Per aspect: bias and feature weights. */
  aspects: Record<string, { bias: number; weights: Record<string, number> }>
}

const SKIP = new Set(['PUNCT', 'PROPN', 'SYM', 'NUM', 'X'])

/** Features of a review: lemma unigrams and bigrams, names and punctuation left out. */
export function features(sentences: readonly Sentence[]): Set<string> {
  const out = new Set<string>()
  for (const s of sentences) {
    const lemmas = s.tokens.filter((t) => !SKIP.has(t.pos)).map((t) => t.lemma)
    lemmas.forEach((l, i) => {
      out.add(l)
      if (i > 0) out.add(`${lemmas[i - 1]} ${l}`)
    })
  }
  return out
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x))

export function probability(model: AspectModel['aspects'][string], feats: ReadonlySet<string>): number {
  let z = model.bias
  for (const f of feats) z += model.weights[f] ?? 0
  return sigmoid(z)
}

/** Aspects the model adds to those the rules found. */
export function addedAspects(model: AspectModel, feats: ReadonlySet<string>, ruleAspects: readonly string[]): string[] {
  return Object.entries(model.aspects)
    .filter(([id, m]) => !ruleAspects.includes(id) && probability(m, feats) >= model.threshold)
    .map(([id]) => id)
}

/** The model trained on the dev sets (npm run train:insights -- --write). */
export const ASPECT_MODEL: AspectModel = shipped as AspectModel
