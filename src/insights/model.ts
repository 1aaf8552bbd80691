/**
 * The learned part beside the rules (issue 13): a reader trained on labelled reviews that decides, for each aspect,
 * whether a review judges it (logistic regression: its words once, and its sentences' words pooled, so that one
 * sentence that speaks of the aspect weighs more than the same words strewn about) and with what polarity (softmax
 * regression), from the review's words, its stars and what the rules found in it, down to the words of the clauses
 * where they found each aspect (the polarity of an aspect is read from those and from the sentence that speaks most of
 * it: not from the whole review). scripts/train-insights-model.ts trains it (5-fold cross-validation decides whether it
 * ships) and writes the weights to learned-model.json. Pure arithmetic over the tokens: deterministic, no network.
 */
import shipped from './learned-model.json' with { type: 'json' }
import type { Sentence } from './nlp.js'
import { clusteredWords, clustersOf } from './word-clusters.js'

export const POLARITIES = ['positive', 'negative', 'neutral', 'mixed'] as const
export type Polarity = (typeof POLARITIES)[number]

/** What the rules found for one aspect of a review. */
export interface RuleEvidence {
  /** Its phrases hold words that judge it, not only its name. */
  judged: boolean
  sentiment: Polarity
  score: number
  /** The lemmas of its phrases' content words. */
  lemmas: string[]
  /** Whether their own words praise it, criticise it, or both. */
  sides: Sides
  /**
   * The lemmas of the clauses that mention it and their classes (word-clusters.ts), a negated one as "not <lemma>" or
   * "not <class>": what is said around each mention.
   */
  context: string[]
}

export const SIDES = ['both', 'praised', 'criticised', 'neither'] as const
export type Sides = (typeof SIDES)[number]

export interface LearnedModel {
  /** The version of the features below: weights trained for other features are refused. */
  features: typeof FEATURES_VERSION
  /** Probability from which an aspect is found. */
  threshold: number
  /** Per aspect: the bias and the feature weights of its presence model. */
  presence: Record<string, { bias: number; weights: Record<string, number> }>
  /** The polarity model: a bias and, per feature, a weight for each of POLARITIES in order. */
  polarity: { bias: number[]; weights: Record<string, number[]> }
}

export const FEATURES_VERSION = 9

const SKIP = new Set(['PUNCT', 'PROPN', 'SYM', 'NUM', 'X'])

/**
 * A review's words as features: lemma unigrams and bigrams, and the classes of each lemma (word-clusters.ts); names,
 * numbers and punctuation left out.
 */
export function wordFeatures(sentences: readonly Sentence[]): Set<string> {
  const out = new Set<string>()
  for (const s of sentences) {
    let previous: string | undefined
    for (const t of s.tokens) {
      if (SKIP.has(t.pos)) continue
      out.add(t.lemma)
      for (const c of clustersOf(t.lemma)) out.add(c)
      if (previous !== undefined) out.add(`${previous} ${t.lemma}`)
      previous = t.lemma
    }
  }
  return out
}

/** The names of the features besides the words, for training (the functions below) and for compiling alike. */
const NAMES = {
  stars: (rating: number) => `§stars:${rating}`,
  any: (aspect: string) => `§any:${aspect}`,
  judged: (aspect: string) => `§judged:${aspect}`,
  said: (said: string) => `§said:${said}`,
  strength: (strength: number | 'none') => `§strength:${strength}`,
  saidStars: (said: string, rating: number) => `§said:${said}&stars:${rating}`,
  aspect: (aspect: string) => `§aspect:${aspect}`,
  aspectSaid: (aspect: string, said: string) => `§aspect:${aspect}&said:${said}`,
  aspectStars: (aspect: string, rating: number) => `§aspect:${aspect}&stars:${rating}`,
  phrase: (lemma: string) => `§phrase:${lemma}`,
  sides: (sides: Sides | 'none') => `§sides:${sides}`,
  sidesStars: (sides: Sides | 'none', rating: number) => `§sides:${sides}&stars:${rating}`,
  context: (lemma: string) => `§context:${lemma}`,
  aspectContext: (aspect: string, lemma: string) => `§aspect:${aspect}&context:${lemma}`
}
/** What the rules said of an aspect, for the polarity features: a polarity, or nothing. */
const SAID = [...POLARITIES, 'none'] as const
const SIDES_OR_NONE = [...SIDES, 'none'] as const
const RATINGS = [1, 2, 3, 4, 5]
/** The rules' score in quarters, -4 to 4. */
const STRENGTHS = [-4, -3, -2, -1, 0, 1, 2, 3, 4]
const strengthOf = (score: number) => Math.max(-4, Math.min(4, Math.round(score * 4)))
const OWN = { none: '§own:none', found: '§own:found', several: '§own:several', one: '§own:one', judged: '§own:judged', neutral: '§own:neutral' }

/** Presence features every aspect's model sees: the stars, and which aspects the rules found (and judged). */
export function sharedFeatures(rating: number, rules: ReadonlyMap<string, RuleEvidence>): string[] {
  const out = [NAMES.stars(rating)]
  for (const [id, e] of rules) {
    out.push(NAMES.any(id))
    if (e.judged) out.push(NAMES.judged(id))
  }
  return out
}

/** Presence features of one aspect from the rules' own finding on it. */
export function ownFeatures(evidence: RuleEvidence | undefined): string[] {
  if (!evidence) return [OWN.none]
  const out = [OWN.found, evidence.lemmas.length > 1 ? OWN.several : OWN.one, ...evidence.context.map(NAMES.context)]
  if (evidence.judged) out.push(OWN.judged)
  if (evidence.sentiment === 'neutral') out.push(OWN.neutral)
  return out
}

/**
 * Polarity features of one aspect besides the words: what the rules said of it, the stars, and the words around its
 * mentions, each alone and paired with the aspect. By batch over blind4-19 (p >= 0.3) the pairs moved polarity from
 * 85.1 to 85.8 (the words) and 86.1 (the stars too), aspect F1 unchanged at 82.2; the rules' phrase lemmas paired with
 * the aspect added nothing (85.8), and the bigrams of the words around each mention little (85.1 -> 85.3, left out).
 */
export function polarityFeatures(aspect: string, evidence: RuleEvidence | undefined, rating: number): string[] {
  const said = evidence ? evidence.sentiment : 'none'
  const strength = evidence ? strengthOf(evidence.score) : 'none'
  const sides = evidence ? evidence.sides : 'none'
  return [
    NAMES.said(said), NAMES.strength(strength), NAMES.stars(rating), NAMES.saidStars(said, rating), NAMES.aspect(aspect), NAMES.aspectSaid(aspect, said), NAMES.aspectStars(aspect, rating),
    NAMES.sides(sides), NAMES.sidesStars(sides, rating), ...(evidence?.lemmas ?? []).map(NAMES.phrase), ...(evidence?.context ?? []).flatMap((w) => [NAMES.context(w), NAMES.aspectContext(aspect, w)])
  ]
}

/**
 * The weights arranged for reading a review once, with no string built: the word features' weights in one block, a
 * row each (a presence weight per aspect, then a polarity weight per polarity, then the number of the last reading
 * that counted the feature: a feature counts once per review, as in training), found by lemma; the other features as
 * vectors by what they stand for (an aspect's index, a rating, what the rules said). Amid the rest of the analysis a
 * reading spends its time waiting for memory, so a row is 32-bit and fills one 64-byte cache line, and a lemma's
 * number sits in the map itself.
 */
export interface CompiledModel {
  ids: string[]
  threshold: number
  /** The presence biases: where a reading starts. */
  start: Float64Array
  polarityBias: Float64Array
  /** Per lemma of a feature or with classes, its number; by that number, its row (-1: none). */
  lemmas: Map<string, number>
  lemmaRow: Int32Array
  /** The rows of the classes of lemma f (those with weights) are classRow[classStart[f]] to classRow[classStart[f + 1] - 1]. */
  classStart: Int32Array
  classRow: Int32Array
  /**
   * The bigrams by their lemmas' numbers, in compressed sparse rows: those that start with lemma f are at
   * [bigramStart[f], bigramStart[f + 1]) of bigramSecond (the second lemma's number, in order) and bigramRow (their
   * row). A few kilobytes of integers, searched by bisection: no string, and little memory to wait for.
   */
  bigramStart: Int32Array
  bigramSecond: Int32Array
  bigramRow: Int32Array
  /** The rows, ROW floats each; the same memory as 32-bit integers, for the reading stamps (at STAMP and SENTENCE_STAMP of each row). */
  rows: Float32Array
  stamps: Int32Array
  /** Presence weights (one per aspect): by rating; by the index of the aspect the rules found, or found judged. */
  stars: Float64Array[]
  any: Float64Array[]
  judged: Float64Array[]
  /** Presence weights of the rules' own finding (OWN), each aspect's for itself. */
  own: Record<keyof typeof OWN, Float64Array>
  /** Presence weights of the words of the clauses that mention an aspect (RuleEvidence.context), each aspect's for itself. */
  ownContext: Map<string, Float64Array>
  /** Polarity weights (one per polarity) by what the rules said (SAID index), strength, rating, aspect. */
  said: Float64Array[]
  strength: Float64Array[]
  noStrength: Float64Array
  polarityStars: Float64Array[]
  saidStars: Float64Array[][]
  aspect: Float64Array[]
  aspectSaid: Float64Array[][]
  /** Polarity weights of each aspect by rating: the stars say more of some aspects than of others. */
  aspectStars: Float64Array[][]
  /** Polarity weights by which sides the rules' words took (SIDES index, then none), alone and with the rating. */
  sides: Float64Array[]
  sidesStars: Float64Array[][]
  phrase: Map<string, Float64Array>
  /** Polarity weights of the words of the clauses that mention the aspect (RuleEvidence.context). */
  context: Map<string, Float64Array>
  /**
   * The same, each aspect's for itself (by the index of the aspect): a word may judge one aspect and not another ("long"
   * of a wait and of a eulogy).
   */
  aspectContext: Map<string, Float64Array>[]
  /** Scratch space of one reading (its presence logits, then one aspect's polarity logits), and the number of readings so far. */
  logits: Float64Array
  scratch: Float64Array
  readings: { n: number }
}

/**
 * Floats per row, and where in a row its stamps are (the last reading of a review, and of a sentence, that counted it):
 * 16 floats of 4 bytes fill a 64-byte cache line.
 */
const ROW = 16
const STAMP = ROW - 1
const SENTENCE_STAMP = ROW - 2

const isSymbol = (feature: string) => feature.startsWith('§')

export function compileModel(model: LearnedModel): CompiledModel {
  if (model.features !== FEATURES_VERSION) throw new Error(`the learned model was trained for features ${model.features}, not ${FEATURES_VERSION}: train it again (npm run train:insights -- --write)`)
  const ids = Object.keys(model.presence)
  const n = ids.length
  const k = POLARITIES.length
  if (n + k > SENTENCE_STAMP) throw new Error(`a row holds ${SENTENCE_STAMP} weights, not ${n + k}`)
  const lemmas = new Map<string, number>()
  const lemmaRow: number[] = []
  // Bigrams by their lemmas' numbers (first * 2^32 + second: no string per bigram), and as (first, second, row).
  const bigramRows = new Map<number, number>()
  const bigrams: [number, number, number][] = []
  const rows = new Rows(n + k)
  const lemmaId = (lemma: string) => lemmas.get(lemma) ?? lemmas.set(lemma, lemmaRow.push(-1) - 1).get(lemma)!
  /** The row of a word feature: a lemma, or two separated by a space (split(' '), first two parts). */
  const words = (feature: string): number => {
    const space = feature.indexOf(' ')
    const first = lemmaId(space < 0 ? feature : feature.slice(0, space))
    if (space < 0) return lemmaRow[first]! >= 0 ? lemmaRow[first]! : (lemmaRow[first] = rows.add())
    const end = feature.indexOf(' ', space + 1)
    const second = lemmaId(feature.slice(space + 1, end < 0 ? undefined : end))
    const key = first * 2 ** 32 + second
    let row = bigramRows.get(key)
    if (row === undefined) {
      bigramRows.set(key, (row = rows.add()))
      bigrams.push([first, second, row])
    }
    return row
  }
  // Presence symbols: the weight each aspect's model gives it.
  const presence = new Map<string, Float64Array>()
  ids.forEach((id, a) => {
    const weights = model.presence[id]!.weights
    for (const feature in weights) {
      const w = weights[feature]!
      if (!isSymbol(feature)) rows.put(words(feature), a, w)
      else (presence.get(feature) ?? presence.set(feature, new Float64Array(n)).get(feature)!)[a] = w
    }
  })
  const polarity = new Map<string, Float64Array>()
  for (const feature in model.polarity.weights) {
    const ws = model.polarity.weights[feature]!
    if (isSymbol(feature)) polarity.set(feature, Float64Array.from(ws))
    else rows.put(words(feature), n, ...ws)
  }
  const classes = classRows(lemmaId, (cls) => lemmas.get(cls), lemmaRow)
  const P = (name: string) => presence.get(name) ?? new Float64Array(n)
  const Q = (name: string) => polarity.get(name) ?? new Float64Array(k)
  const start = Float64Array.from(ids, (id) => model.presence[id]!.bias)
  return {
    ids,
    threshold: model.threshold,
    start,
    polarityBias: Float64Array.from(model.polarity.bias),
    lemmas,
    lemmaRow: Int32Array.from(lemmaRow),
    ...classes,
    ...sparseRows(bigrams, lemmaRow.length),
    ...rows.pack(),
    stars: [0, ...RATINGS].map((r) => P(NAMES.stars(r))),
    any: ids.map((id) => P(NAMES.any(id))),
    judged: ids.map((id) => P(NAMES.judged(id))),
    own: Object.fromEntries(Object.entries(OWN).map(([key, name]) => [key, P(name)])) as CompiledModel['own'],
    ownContext: prefixed(presence, NAMES.context('')),
    said: SAID.map((s) => Q(NAMES.said(s))),
    strength: STRENGTHS.map((x) => Q(NAMES.strength(x))),
    noStrength: Q(NAMES.strength('none')),
    polarityStars: [0, ...RATINGS].map((r) => Q(NAMES.stars(r))),
    saidStars: SAID.map((s) => [0, ...RATINGS].map((r) => Q(NAMES.saidStars(s, r)))),
    aspect: ids.map((id) => Q(NAMES.aspect(id))),
    aspectSaid: ids.map((id) => SAID.map((s) => Q(NAMES.aspectSaid(id, s)))),
    aspectStars: ids.map((id) => [0, ...RATINGS].map((r) => Q(NAMES.aspectStars(id, r)))),
    sides: SIDES_OR_NONE.map((s) => Q(NAMES.sides(s))),
    sidesStars: SIDES_OR_NONE.map((s) => [0, ...RATINGS].map((r) => Q(NAMES.sidesStars(s, r)))),
    phrase: prefixed(polarity, NAMES.phrase('')),
    context: prefixed(polarity, NAMES.context('')),
    aspectContext: ids.map((id) => prefixed(polarity, NAMES.aspectContext(id, ''))),
    logits: new Float64Array(n),
    scratch: new Float64Array(k),
    readings: { n: 0 }
  }
}

/** One aspect as the model reads it: its polarity, and a score in [-1, 1], P(positive) - P(negative). */
export interface LearnedAspect {
  id: string
  sentiment: Polarity
  score: number
}

/** The aspects the model finds in a review (in the order of its ids), given its words, stars and what the rules found. */
export function readReview(model: CompiledModel, sentences: readonly Sentence[], rating: number, rules: ReadonlyMap<string, RuleEvidence>): LearnedAspect[] {
  const n = model.ids.length
  // Presence logits of each aspect: the review's words once, and each sentence's words pooled (countWords); the words'
  // polarity columns count only in the sentence that judges an aspect (below).
  const z = model.logits
  z.set(model.start)
  const bySentence = countWords(model, sentences, z)
  for (let a = 0; a < n; a++) z[a]! += pooled(bySentence, a)
  add(z, model.stars[rating])
  model.ids.forEach((id, a) => {
    const e = rules.get(id)
    if (!e) return
    add(z, model.any[a])
    if (e.judged) add(z, model.judged[a])
  })
  const found: LearnedAspect[] = []
  model.ids.forEach((id, a) => {
    const e = rules.get(id)
    const own = model.own
    let presence = z[a]! + (e ? own.found[a]! + (e.lemmas.length > 1 ? own.several[a]! : own.one[a]!) + (e.judged ? own.judged[a]! : 0) + (e.sentiment === 'neutral' ? own.neutral[a]! : 0) : own.none[a]!)
    for (const word of e?.context ?? []) presence += model.ownContext.get(word)?.[a] ?? 0
    if (1 / (1 + Math.exp(-presence)) < model.threshold) return
    // Every aspect is judged by the words of the sentence that speaks most of it, each word once.
    found.push({ id, ...polarityOf(model, likeliest(bySentence, a).subarray(n), a, e, rating) })
  })
  return found
}

// Stamps wrap around as 32-bit integers; a row counted 2^32 readings ago is long forgotten.
const nextStamp = (model: CompiledModel) => (model.readings.n = (model.readings.n + 1) | 0 || 1)

/**
 * Adds the rows of the review's words into `review` (presence columns), each row once a review, and returns each
 * sentence's own sum of them (presence and polarity columns), each row once a sentence: one pass, a stamp for each.
 */
function countWords(model: CompiledModel, sentences: readonly Sentence[], review: Float64Array): Float64Array[] {
  const { rows, stamps } = model
  const n = review.length
  const width = n + POLARITIES.length
  const block = new Float64Array(sentences.length * width)
  const reviewStamp = nextStamp(model)
  return sentences.map((s, i) => {
    const z = block.subarray(i * width, (i + 1) * width)
    const sentenceStamp = nextStamp(model)
    const count = (r: number | undefined) => {
      if (r === undefined || r < 0) return
      const o = r * ROW
      if (stamps[o + SENTENCE_STAMP] !== sentenceStamp) {
        stamps[o + SENTENCE_STAMP] = sentenceStamp
        for (let c = 0; c < width; c++) z[c]! += rows[o + c]!
      }
      if (stamps[o + STAMP] !== reviewStamp) {
        stamps[o + STAMP] = reviewStamp
        for (let c = 0; c < n; c++) review[c]! += rows[o + c]!
      }
    }
    let previous: number | undefined
    for (const t of s.tokens) {
      if (SKIP.has(t.pos)) continue
      const id = model.lemmas.get(t.lemma)
      if (id !== undefined) {
        count(model.lemmaRow[id])
        if (previous !== undefined) count(bigramRow(model, previous, id))
        for (let c = model.classStart[id]!; c < model.classStart[id + 1]!; c++) count(model.classRow[c])
      }
      previous = id
    }
    return z
  })
}

/**
 * The sentences' presence logits of aspect `a` pooled by log-sum-exp, a soft maximum: one sentence that speaks of the
 * aspect counts for more than the same words strewn over several (0 for a review with no sentence, as in training).
 */
function pooled(bySentence: readonly Float64Array[], a: number): number {
  if (bySentence.length === 0) return 0
  let top = -Infinity
  for (const s of bySentence) if (s[a]! > top) top = s[a]!
  let sum = 0
  for (const s of bySentence) sum += Math.exp(s[a]! - top)
  return top + Math.log(sum)
}

/** Of the sentences' word logits, those whose words weigh most for the presence of aspect `a` (the first of equals). */
function likeliest(bySentence: Float64Array[], a: number): Float64Array {
  let best = bySentence[0]
  for (const s of bySentence) if (s[a]! > best![a]!) best = s
  return best ?? new Float64Array(0)
}

/**
 * The polarity of aspect `a`, from the words' part of the logits of the sentence that speaks most of it and its other
 * polarity features (for an aspect the rules found, the words around its mentions among them).
 */
function polarityOf(model: CompiledModel, words: Float64Array, a: number, e: RuleEvidence | undefined, rating: number): { sentiment: Polarity; score: number } {
  const z = model.scratch
  z.set(model.polarityBias)
  add(z, words)
  const said = e ? POLARITIES.indexOf(e.sentiment) : SAID.length - 1
  add(z, model.said[said])
  add(z, e ? model.strength[strengthOf(e.score) + 4] : model.noStrength)
  add(z, model.polarityStars[rating])
  add(z, model.saidStars[said]?.[rating])
  add(z, model.aspect[a])
  add(z, model.aspectSaid[a]![said])
  add(z, model.aspectStars[a]![rating])
  const sides = e ? SIDES.indexOf(e.sides) : SIDES.length
  add(z, model.sides[sides])
  add(z, model.sidesStars[sides]![rating])
  // Each lemma once, as in training.
  for (const lemma of new Set(e?.lemmas)) add(z, model.phrase.get(lemma))
  for (const word of e?.context ?? []) {
    add(z, model.context.get(word))
    add(z, model.aspectContext[a]!.get(word))
  }
  let top = 0
  for (let c = 1; c < z.length; c++) if (z[c]! > z[top]!) top = c
  let sum = 0
  for (let c = 0; c < z.length; c++) sum += Math.exp(z[c]! - z[top]!)
  const p = (c: number) => Math.exp(z[c]! - z[top]!) / sum
  return { sentiment: POLARITIES[top]!, score: Math.round((p(0) - p(1)) * 1000) / 1000 }
}

/** The weights of the features named `prefix` + something, by that something. */
const prefixed = (weights: Map<string, Float64Array>, prefix: string) => new Map([...weights].filter(([name]) => name.startsWith(prefix)).map(([name, v]) => [name.slice(prefix.length), v]))

/** The bigrams (first lemma, second lemma, row) as compressed sparse rows over `lemmas` first lemmas. */
function sparseRows(bigrams: [number, number, number][], lemmas: number) {
  bigrams.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const bigramStart = new Int32Array(lemmas + 1)
  for (const [first] of bigrams) bigramStart[first + 1]!++
  for (let f = 0; f < lemmas; f++) bigramStart[f + 1]! += bigramStart[f]!
  return { bigramStart, bigramSecond: Int32Array.from(bigrams, (b) => b[1]), bigramRow: Int32Array.from(bigrams, (b) => b[2]) }
}

/** The row of the bigram of these two lemmas, or undefined. */
function bigramRow(model: CompiledModel, first: number, second: number): number | undefined {
  let lo = model.bigramStart[first]!
  let hi = model.bigramStart[first + 1]!
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const at = model.bigramSecond[mid]!
    if (at === second) return model.bigramRow[mid]
    if (at < second) lo = mid + 1
    else hi = mid
  }
  return undefined
}

/**
 * Every word with classes gets a lemma number, and the rows of its classes that carry weights are listed under it (in
 * compressed sparse rows), so a token's classes cost no string and no lookup beyond its lemma's.
 */
function classRows(lemmaId: (lemma: string) => number, classId: (cls: string) => number | undefined, lemmaRow: number[]): { classStart: Int32Array; classRow: Int32Array } {
  // Each class's row (-1: none), looked up once per class rather than once per word.
  const rowOf = new Map<string, number>()
  const rowOfClass = (cls: string) => {
    let row = rowOf.get(cls)
    if (row === undefined) {
      const id = classId(cls)
      rowOf.set(cls, (row = id !== undefined ? lemmaRow[id]! : -1))
    }
    return row
  }
  const byLemma = new Map<number, number[]>()
  for (const word of clusteredWords()) {
    const rows: number[] = []
    for (const cls of clustersOf(word)) {
      const row = rowOfClass(cls)
      if (row >= 0) rows.push(row)
    }
    if (rows.length) byLemma.set(lemmaId(word), rows)
  }
  const classStart = new Int32Array(lemmaRow.length + 1)
  const classRow: number[] = []
  for (let f = 0; f < lemmaRow.length; f++) {
    classRow.push(...(byLemma.get(f) ?? []))
    classStart[f + 1] = classRow.length
  }
  return { classStart, classRow: Int32Array.from(classRow) }
}

/**
 * The rows of weights while compiling, `width` floats each in one block that grows as rows are added (one typed array
 * per row cost a third of the compile in allocation and collection), then packed ROW floats each.
 */
class Rows {
  private values: Float64Array
  private count = 0

  constructor(private readonly width: number) {
    this.values = new Float64Array(width * 4096)
  }

  /** Writes `ws` into row `row` from column `column`. */
  put(row: number, column: number, ...ws: number[]): void {
    this.values.set(ws, row * this.width + column)
  }

  /** A new row of zeros; its number. */
  add(): number {
    if ((this.count + 1) * this.width > this.values.length) {
      const grown = new Float64Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    return this.count++
  }

  /** The rows in one block of ROW floats each, with an integer view of the same memory for the stamps. */
  pack(): { rows: Float32Array; stamps: Int32Array } {
    const block = new Float32Array(this.count * ROW)
    for (let r = 0; r < this.count; r++) block.set(this.values.subarray(r * this.width, (r + 1) * this.width), r * ROW)
    return { rows: block, stamps: new Int32Array(block.buffer) }
  }
}

/** Adds `v` into the start of `into` (presence vectors are shorter than a reading's logits). */
function add(into: Float64Array, v: Float64Array | undefined): void {
  if (v) for (let i = 0; i < v.length; i++) into[i]! += v[i]!
}

/**
 * The model trained on the seen sets and the training corpus (npm run train:insights -- --write), or null when
 * cross-validation found that it does not help the rules: then the engine runs the rules alone.
 */
export const LEARNED_MODEL: LearnedModel | null = shipped as LearnedModel | null
