import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compileModel, FEATURES_VERSION, ownFeatures, polarityFeatures, POLARITIES, readReview, sharedFeatures, wordFeatures, type LearnedModel, type RuleEvidence } from './model.js'
import { parseText } from './nlp.js'
import { clustersOf } from './word-clusters.js'

/** A hand-made model: compassion from "kind" (and from the rules finding it), pricing from the rules' compassion. */
const MODEL: LearnedModel = {
  features: FEATURES_VERSION,
  threshold: 0.5,
  presence: {
    compassion: { bias: -2, weights: { kind: 3, 'so kind': 1, '§own:found': 3 } },
    pricing: { bias: -2, weights: { '§any:compassion': 3, '§stars:1': -2 } }
  },
  polarity: { bias: [0.1, 0, 0, 0], weights: { kind: [2, -1, 0, 0], rude: [-2, 3, 0, 0], '§said:negative': [-4, 4, 0, 0] } }
}

const read = (text: string, o: { rating?: number; rules?: [string, RuleEvidence][]; model?: Partial<LearnedModel> } = {}) =>
  readReview(compileModel({ ...MODEL, ...o.model }), parseText(text), o.rating ?? 5, new Map(o.rules ?? []))

const rudeRules: RuleEvidence = { judged: true, sentiment: 'negative', score: -0.6, lemmas: ['rude'], sides: 'criticised', context: ['they', 'be', 'rude'] }

test('an aspect is found when its probability reaches the threshold, with the polarity whose probability is highest', () => {
  // Presence -2 + 3 + 1, and 3 + 1 again from its one sentence = 6 (p = 0.998); polarity logits [2.1, -1, 0, 0]:
  // P(positive) 0.775 - P(negative) 0.035.
  assert.deepEqual(read('She was so kind.'), [{ id: 'compassion', sentiment: 'positive', score: 0.74 }])
  assert.deepEqual(read('The chapel was fine.'), [])
})

test('a word counts once in a review and once in its sentence, however often it comes', () => {
  // Once in the review and once in its one sentence: -2 + 3 + 3 = 4, p = 0.982; three times it would be 16.
  assert.equal(read('Kind, kind, kind.', { model: { threshold: 0.99 } }).length, 0)
  assert.equal(read('Kind, kind, kind.', { model: { threshold: 0.98 } }).length, 1)
})

test('words said of an aspect in one sentence count for more than the same words said apart', () => {
  // The review's words count once (2), and its sentences' pooled by log-sum-exp: one sentence of both, 2 (p = 0.5);
  // two sentences of one each, log(e + e) = 1.69 (p = 0.42).
  const model = { threshold: 0.45, presence: { compassion: { bias: -4, weights: { kind: 1, warm: 1 } } } }
  assert.deepEqual(read('She was kind and warm.', { model }).map((a) => a.id), ['compassion'])
  assert.deepEqual(read('She was kind. She was warm.', { model }), [])
})

test("what the rules found is evidence: for the aspect itself, for the others, and for the polarity", () => {
  const found = read('They were rude.', { rules: [['compassion', rudeRules]] })
  assert.deepEqual(found.map((a) => [a.id, a.sentiment]), [['compassion', 'negative'], ['pricing', 'negative']])
  assert.ok(found[0]!.score < -0.9)
  // The stars count too: a one-star review moves pricing below the threshold.
  assert.deepEqual(read('They were rude.', { rating: 1, rules: [['compassion', rudeRules]] }).map((a) => a.id), ['compassion'])
})

test("the polarity of an aspect the rules found comes from the words around its mentions, not from the rest of the review", () => {
  // "Rude" speaks of compassion, so its sentence is the one read; "lovely", of the chapel, is not.
  const model = { presence: { compassion: { bias: -2, weights: { rude: 1, '§own:found': 3 } } }, polarity: { bias: [0, 0, 0, 0], weights: { lovely: [5, -5, 0, 0], '§context:rude': [-2, 2, 0, 0] } } }
  const text = 'They were rude. The chapel was lovely, lovely, lovely.'
  assert.equal(read(text, { rules: [['compassion', rudeRules]], model })[0]!.sentiment, 'negative')
})

test('and from the sentence that speaks most of it, as for an aspect only the reader found', () => {
  // The rules found compassion in "cold", which says nothing of its polarity here; "staff" picks the sentence.
  const cold: RuleEvidence = { judged: true, sentiment: 'neutral', score: 0, lemmas: ['cold'], sides: 'neither', context: ['cold'] }
  const model = { presence: { compassion: { bias: 5, weights: { staff: 1 } } }, polarity: { bias: [0, 0, 0, 0], weights: { lovely: [3, -3, 0, 0], awful: [-3, 3, 0, 0] } } }
  const sentiment = (text: string) => read(text, { rules: [['compassion', cold]], model })[0]!.sentiment
  assert.equal(sentiment('The staff were awful and cold. The chapel was lovely.'), 'negative')
  assert.equal(sentiment('The staff were lovely, if cold. The chapel was awful.'), 'positive')
})

test('the polarity of an aspect only the reader found comes from the sentence that speaks most of it, not from the rest of the review', () => {
  // "Kind" finds compassion; read with the whole review, "awful" (of the parking) would make it negative.
  const model = { polarity: { bias: [0, 0, 0, 0], weights: { kind: [2, -1, 0, 0], awful: [-5, 5, 0, 0] } } }
  assert.deepEqual(read('The parking was awful. She was kind.', { model }).map((a) => [a.id, a.sentiment]), [['compassion', 'positive']])
  assert.deepEqual(read('She was kind and the parking was awful.', { model }).map((a) => [a.id, a.sentiment]), [['compassion', 'negative']])
})

test("a word around an aspect's mentions may judge each aspect its own way", () => {
  // "Long" is a fault in the wait and a virtue in a service that took its time.
  const model = { polarity: { bias: [0, 0, 0, 0], weights: { '§aspect:timeliness&context:long': [-2, 2, 0, 0], '§aspect:ceremony&context:long': [2, -2, 0, 0] } } }
  const long: RuleEvidence = { judged: false, sentiment: 'neutral', score: 0, lemmas: [], sides: 'neither', context: ['it', 'be', 'long'] }
  const readAs = (aspect: string) => read('It was long.', { rules: [[aspect, long]], model: { ...model, presence: { [aspect]: { bias: 5, weights: {} } } } })
  assert.deepEqual(readAs('timeliness').map((a) => [a.id, a.sentiment]), [['timeliness', 'negative']])
  assert.deepEqual(readAs('ceremony').map((a) => [a.id, a.sentiment]), [['ceremony', 'positive']])
})

test("the words around an aspect's mentions count for finding it, for that aspect alone", () => {
  const model = { presence: { compassion: { bias: -2, weights: { '§context:rude': 3 } }, pricing: { bias: -2, weights: { '§context:rude': -3 } } } }
  assert.deepEqual(read('They were rude.', { rules: [['compassion', rudeRules]], model }).map((a) => a.id), ['compassion'])
  assert.deepEqual(read('They were rude.', { rules: [['pricing', rudeRules]], model }).map((a) => a.id), [])
})

test('a word the model never met counts through its classes, as the words near it in meaning would', () => {
  // "Considerate" has no weight of its own; its fine class (shared with "thoughtful") has one.
  const [, fine] = clustersOf('considerate')
  assert.ok(fine && clustersOf('thoughtful').includes(fine))
  const model = { presence: { compassion: { bias: -2, weights: { [fine]: 3 } } }, polarity: { bias: [0, 0, 0, 0], weights: { [fine]: [2, 0, 0, 0] } } }
  assert.deepEqual(read('Everyone was so considerate.', { model }).map((a) => [a.id, a.sentiment]), [['compassion', 'positive']])
  assert.deepEqual(read('Everyone was so thoughtful.', { model }).map((a) => a.id), ['compassion'])
  assert.deepEqual(read('Everyone was there.', { model }), [])
})

test('the same review read twice gives the same answer', () => {
  const model = compileModel(MODEL)
  const sentences = parseText('So kind, and kind again.')
  assert.deepEqual(readReview(model, sentences, 5, new Map()), readReview(model, sentences, 5, new Map()))
})

test('weights trained for other features are refused', () => {
  assert.throws(() => compileModel({ ...MODEL, features: 1 as typeof FEATURES_VERSION }), /trained for features 1/)
})

test('a model with more word features than the compiler first makes room for keeps every weight', () => {
  // The shipped model has about 50,000 word features; the compiler's block of rows grows as they come (from 4,096).
  const lemmas = Array.from({ length: 20_000 }, (_, i) => `w${i}`)
  const weightOf = (i: number, a: number) => Math.fround(((i * 7919 + a * 104729) % 1000) / 1000 - 0.5)
  const bigrams = lemmas.slice(0, 3000).map((w, i) => `${w} ${lemmas[i + 1]}`)
  const features = [...lemmas, ...bigrams]
  const model: LearnedModel = {
    features: FEATURES_VERSION,
    threshold: 0.5,
    presence: Object.fromEntries(['compassion', 'pricing'].map((id, a) => [id, { bias: 0, weights: Object.fromEntries(features.map((f, i) => [f, weightOf(i, a)])) }])),
    polarity: { bias: [0, 0, 0, 0], weights: Object.fromEntries(features.map((f, i) => [f, [0, 1, 2, 3].map((c) => weightOf(i, c + 2))])) }
  }
  const compiled = compileModel(model)
  const rowOf = (f: string): number => {
    const [first, second] = f.split(' ').map((w) => compiled.lemmas.get(w)!)
    if (second === undefined) return compiled.lemmaRow[first!]!
    for (let j = compiled.bigramStart[first!]!; j < compiled.bigramStart[first! + 1]!; j++) if (compiled.bigramSecond[j] === second) return compiled.bigramRow[j]!
    return -1
  }
  const ROW = compiled.rows.length / new Set(features.map(rowOf)).size
  features.forEach((f, i) => {
    const row = rowOf(f)
    assert.ok(row >= 0, f)
    const got = [0, 1, 2, 3, 4, 5].map((c) => compiled.rows[row * ROW + c])
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5].map((c) => weightOf(i, c)), f)
  })
})

test('the compiled reader gives what the weights give feature by feature, as training sees them', () => {
  // A model with a weight on every kind of feature, and a plain reading of it by feature names.
  const aspects = ['compassion', 'pricing', 'timeliness']
  let seed = 1
  const w = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1
  const CONTEXT = ['§context:kind', '§context:not call', '§context:late']
  const symbols = [...CONTEXT, ...[1, 2, 3, 4, 5].map((r) => `§stars:${r}`)].concat(aspects.flatMap((a) => [`§any:${a}`, `§judged:${a}`]), ['§own:none', '§own:found', '§own:several', '§own:one', '§own:judged', '§own:neutral'])
  const polaritySymbols = ['positive', 'negative', 'neutral', 'mixed', 'none'].flatMap((s) => [`§said:${s}`, ...[1, 2, 3, 4, 5].map((r) => `§said:${s}&stars:${r}`), ...aspects.map((a) => `§aspect:${a}&said:${s}`)])
    .concat([-4, -3, -2, -1, 0, 1, 2, 3, 4, 'none'].map((x) => `§strength:${x}`), [1, 2, 3, 4, 5].map((r) => `§stars:${r}`), aspects.map((a) => `§aspect:${a}`), ['§phrase:kind', '§phrase:late'])
    .concat(aspects.flatMap((a) => [1, 2, 3, 4, 5].map((r) => `§aspect:${a}&stars:${r}`)))
    .concat(['both', 'praised', 'criticised', 'neither', 'none'].flatMap((s) => [`§sides:${s}`, ...[1, 2, 3, 4, 5].map((r) => `§sides:${s}&stars:${r}`)]))
    .concat(CONTEXT, aspects.flatMap((a) => CONTEXT.map((c) => c.replace('§', `§aspect:${a}&`))))
  const words = ['kind', 'late', 'price', 'so kind', 'too late', 'the price', 'call', ...['kind', 'late', 'price', 'fair'].flatMap(clustersOf)]
  const model: LearnedModel = {
    features: FEATURES_VERSION,
    threshold: 0.4,
    presence: Object.fromEntries(aspects.map((a) => [a, { bias: w(), weights: Object.fromEntries([...symbols, ...words].map((f) => [f, w()])) }])),
    polarity: { bias: [w(), w(), w(), w()], weights: Object.fromEntries([...polaritySymbols, ...words].map((f) => [f, [w(), w(), w(), w()]])) }
  }
  const likeliestSentence = (text: string, a: string) => {
    const weigh = (s: Set<string>) => [...s].reduce((sum, x) => sum + (model.presence[a]!.weights[x] ?? 0), 0)
    return parseText(text).map((s) => wordFeatures([s])).reduce((best, s) => (weigh(s) > weigh(best) ? s : best))
  }
  const plain = (text: string, rating: number, rules: Map<string, RuleEvidence>) => {
    const ws = wordFeatures(parseText(text))
    return aspects.flatMap((a) => {
      const f = new Set([...ws, ...sharedFeatures(rating, rules), ...ownFeatures(rules.get(a))])
      const weigh = (fs: Set<string>) => [...fs].reduce((sum, x) => sum + (model.presence[a]!.weights[x] ?? 0), 0)
      // The review's features once, and its sentences' words pooled by log-sum-exp.
      const z = model.presence[a]!.bias + weigh(f) + Math.log(parseText(text).reduce((sum, s) => sum + Math.exp(weigh(wordFeatures([s]))), 0))
      if (1 / (1 + Math.exp(-z)) < model.threshold) return []
      const logits = [...model.polarity.bias]
      // The likeliest sentence speaks for the polarity of every aspect, and the words around its mentions for one the rules found.
      for (const x of new Set([...likeliestSentence(text, a), ...polarityFeatures(a, rules.get(a), rating)])) model.polarity.weights[x]?.forEach((v, c) => (logits[c]! += v))
      const e = logits.map((v) => Math.exp(v))
      const sum = e.reduce((x, y) => x + y, 0)
      return [{ id: a, sentiment: POLARITIES[logits.indexOf(Math.max(...logits))], score: Math.round(((e[0]! - e[1]!) / sum) * 1000) / 1000 }]
    })
  }
  const compiled = compileModel(model)
  const texts = ['So kind, and the price was fair.', 'Too late to call. Late again!', 'The price. The price.', 'Nothing here.']
  const evidence: [string, RuleEvidence][][] = [
    [],
    [['compassion', { judged: true, sentiment: 'positive', score: 0.7, lemmas: ['kind', 'kind'], sides: 'praised', context: ['so', 'kind'] }]],
    [['pricing', { judged: false, sentiment: 'neutral', score: 0, lemmas: ['price'], sides: 'neither', context: ['the', 'price'] }], ['timeliness', { judged: true, sentiment: 'mixed', score: -0.12, lemmas: ['late', 'call'], sides: 'both', context: ['too', 'late', 'to', 'not call'] }]]
  ]
  const sentiments = new Set<string>()
  for (const text of texts) for (const rating of [1, 3, 5]) for (const rules of evidence) {
    const read = readReview(compiled, parseText(text), rating, new Map(rules))
    assert.deepEqual(read, plain(text, rating, new Map(rules)), `${text} ${rating} ${JSON.stringify(rules)}`)
    for (const a of read) sentiments.add(a.sentiment)
  }
  assert.ok(sentiments.size >= 3, 'the comparison covers aspects found with several polarities')
})
