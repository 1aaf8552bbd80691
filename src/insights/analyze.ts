import type { Review, ReviewAnalysis } from '../domain/index.js'
import type { MentionIndex } from '../mentions/index.js'
import { statedDurations } from './durations.js'
import { keyphrases, type Keyphrase } from './keyphrases.js'
import { readReview, type CompiledModel, type RuleEvidence, type Sides } from './model.js'
import { parseText, tokensText, type Sentence, type Token } from './nlp.js'
import { scoreSentence, type ScoredClause } from './scoring.js'
import type { CompiledTaxonomy, TermHit } from './taxonomy.js'
import { clustersOf } from './word-clusters.js'

export interface AnalysisContext {
  taxonomy: CompiledTaxonomy
  mentions: MentionIndex
  /** The learned reader (model.ts, compiled), for the built-in taxonomy only. */
  model?: CompiledModel | undefined
}

export interface PhraseUse {
  aspect: string
  /** Lemmas of the phrase's content words: what makes two phrasings the same. */
  key: string
  surface: string
  /** The phrase holds the words that judge the aspect ("chapel was spotless"), not only its name. */
  judged: boolean
}

/** Everything later aggregation needs from one review; computed once per review version and reused. */
export interface ReviewWork {
  id: string
  rating: number
  date: string
  author: string
  analysis: ReviewAnalysis
  technicians: Map<string, number>
  services: Map<string, number>
  areas: string[]
  keyphrases: Keyphrase[]
  durations: number[]
  phrases: PhraseUse[]
  quote: { text: string; score: number } | null
}

/** With no judgement in the words themselves, a clause takes the stars' side: facts in a 5-star review are praise. */
const RATING_PRIOR = [-0.4, -0.2, 0, 0.2, 0.4]
const SIGNAL = 0.05
const prior = (rating: number) => RATING_PRIOR[rating - 1] ?? 0
const squash = (x: number) => Math.tanh(x)
const round = (x: number) => Math.round(x * 1000) / 1000

export function analyzeReview(review: Review, ctx: AnalysisContext): ReviewWork {
  const base = { id: review.id, rating: review.rating, date: review.date, author: review.author, areas: review.mentions.service_areas }
  if (!review.text || !english(review)) {
    // The rules are English; another language keeps its staff, services and stars, and gets no aspects.
    const named = (keys: string[]) => new Map(keys.map((k) => [k, prior(review.rating)]))
    return { ...base, ...ratingOnly(review), technicians: named(review.mentions.technicians), services: named(review.mentions.services), keyphrases: [], durations: [], phrases: [], quote: null }
  }
  const sentences = parseText(review.text)
  const scored = scoreSentences(sentences, review.rating, ctx)
  const clauses = scored.flat()
  const found = aspectMentions(clauses, review.rating)
  const aspects = ctx.model ? learnedAspects(ctx.model, sentences, found, review.rating) : found
  const judgements = aspects.map((a) => a.result.sentiment)
  return {
    ...base,
    analysis: { sentiment: reviewSentiment(clauses, review.rating, judgements), aspects: aspects.map((a) => a.result) },
    ...entityScores(scored, sentences, review, ctx.mentions),
    keyphrases: keyphrases(clauses),
    durations: statedDurations(sentences, ctx.taxonomy.turnaroundSubject),
    phrases: aspects.flatMap((a) => a.phrases),
    quote: review.rating >= 4 ? bestQuote(scored, sentences.map((s) => s.text)) : null
  }
}

/** Each sentence's clauses, scored (a clause may lean on the one before it, across sentences). */
function scoreSentences(sentences: Sentence[], rating: number, ctx: AnalysisContext): ScoredClause[][] {
  const scored: ScoredClause[][] = []
  for (const s of sentences) scored.push(scoreSentence(s, ctx.taxonomy, scored.at(-1)?.at(-1)).map((c) => readIrony(c, rating)))
  return scored
}

/** In a review of one or two stars, the praise of an ironic sentence is criticism ("Such sensitivity."). */
function readIrony(c: ScoredClause, rating: number): ScoredClause {
  if (!c.ironic || rating > 2) return c
  const valences = c.valences.map((v) => (v > 0 ? -v : v))
  if (!valences.some((v) => v < 0) && c.terms[0]) valences[c.terms[0].start] = -0.4
  return { ...c, valences }
}

function english(review: Review): boolean {
  return review.language === null || /^en\b/i.test(review.language)
}

function ratingOnly(review: Review): { analysis: ReviewAnalysis } {
  const score = (review.rating - 3) / 2
  return { analysis: { sentiment: { score, label: label(score) }, aspects: [] } }
}

function label(score: number): 'positive' | 'negative' | 'neutral' {
  return score >= 0.15 ? 'positive' : score <= -0.15 ? 'negative' : 'neutral'
}

function clauseScore(c: ScoredClause): number {
  return squash(c.valences.reduce((a, b) => a + b, 0))
}

/**
 * Text and stars together: the words lead, the rating steadies them (sarcasm, understatement). A review is mixed
 * only when its judgements of the business disagree: sad words about the illness or the hospital do not count.
 */
function reviewSentiment(clauses: ScoredClause[], rating: number, judgements: string[]): ReviewAnalysis['sentiment'] {
  const stars = (rating - 3) / 2
  const judged = clauses.map((c) => ({ s: clauseScore(c), w: c.weight })).filter((x) => Math.abs(x.s) > 0.01)
  if (judged.length === 0) return { score: round(stars * 0.8), label: label(stars * 0.8) }
  const text = judged.reduce((a, x) => a + x.s * x.w, 0) / judged.reduce((a, x) => a + x.w, 0)
  const score = round(Math.max(-1, Math.min(1, 0.6 * text + 0.4 * stars)))
  const mixed = (judgements.includes('mixed') || (judgements.includes('positive') && judgements.includes('negative'))) && Math.abs(score) < 0.5
  return { score, label: mixed ? 'mixed' : label(score) }
}

const distance = (hit: TermHit, j: number) => (j < hit.start ? hit.start - j : j >= hit.end ? j - hit.end + 1 : 0)

function mentionScore(c: ScoredClause, hit: TermHit): { score: number; strongest: number | undefined } {
  let sum = 0
  let strongest: number | undefined
  let best = 0
  c.valences.forEach((v, j) => {
    // A cue judges its own aspect only; a setting is judged only by its own cues ("lovely at the arrangement meeting"
    // praises the person, "freezing in the chapel" the chapel).
    if (v === 0 || (c.cueOwner[j] !== undefined && c.cueOwner[j] !== hit.aspect) || (hit.setting && c.cueOwner[j] !== hit.aspect)) return
    const weighted = v / (1 + distance(hit, j) / 3)
    sum += weighted
    if (Math.abs(weighted) > best) [best, strongest] = [Math.abs(weighted), j]
  })
  return { score: squash(sum), strongest }
}

interface Evidence {
  score: number
  /** Contrast weight, halved when the score is implied or comes from the stars. */
  weight: number
  /** The clause's own words judge (not the context or the stars). */
  stated: boolean
}

/** Mixed only when praise and criticism each carry at least this share of the weighted evidence. */
const MIXED_SHARE = 0.3

function polarityOf(evidence: Evidence[]): ReviewAnalysis['aspects'][number]['sentiment'] {
  const pos = evidence.filter((e) => e.score > SIGNAL).reduce((a, e) => a + e.score * e.weight, 0)
  const neg = -evidence.filter((e) => e.score < -SIGNAL).reduce((a, e) => a + e.score * e.weight, 0)
  const total = pos + neg
  if (total === 0) return 'neutral'
  if (pos / total >= MIXED_SHARE && neg / total >= MIXED_SHARE) return 'mixed'
  return pos > neg ? 'positive' : 'negative'
}

/** Aspects whose terms name an occasion or a place, which can be the setting of one another. */
const EVENTS_AND_PLACES = new Set(['ceremony', 'facilities'])

/** The strength of a judgement a clause implies rather than states. */
const IMPLIED = 0.3

const mood = (c: ScoredClause | undefined) => (c ? Math.sign(Math.round(clauseScore(c) / SIGNAL)) : 0)

/** The judgement of clause k together with the clauses a comma lists with it ("the slideshow played, the flowers were nice"). */
function groupMood(clauses: ScoredClause[], k: number): number {
  if (!clauses[k]) return 0
  let [a, b] = [k, k]
  while (a > 0 && clauses[a]!.link === 'list') a--
  while (clauses[b + 1]?.link === 'list') b++
  return Math.sign(Math.round(clauses.slice(a, b + 1).reduce((x, c) => x + clauseScore(c), 0) / SIGNAL))
}

/**
 * A clause that judges nothing itself can take its judgement from the clauses it is linked to: those a comma lists
 * with it; the opposite of a contrasted one ("the livestream worked well, although the camera only showed the back of
 * the officiant's head"); the heading a colon elaborates ("Bad: the parking"); the verdict after a label (a clause with no
 * verb) and a colon ("Communication: poor"). 0 when there is no such link.
 */
function implied(clauses: ScoredClause[], k: number): number {
  const c = clauses[k]!
  if (mood(c) !== 0) return 0
  const next = clauses[k + 1]
  const sign =
    (c.link === 'list' || next?.link === 'list' ? groupMood(clauses, k) : 0) ||
    (c.link === 'contrast' ? -groupMood(clauses, k - 1) : 0) ||
    (next?.link === 'contrast' ? -groupMood(clauses, k + 1) : 0) ||
    (c.link === 'elaboration' ? groupMood(clauses, k - 1) : 0) ||
    (next?.link === 'elaboration' && !c.tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX') ? groupMood(clauses, k + 1) : 0)
  return sign * IMPLIED
}

/** "We paid about $7,800": what the family paid, with no word on it, is a fact. */
const statesAmount = (c: ScoredClause) =>
  mood(c) === 0 && c.tokens.some((t) => t.lemma === 'pay' && t.pos === 'VERB') && c.tokens.some((t, i) => t.lower === '$' || (t.lemma === 'dollar' && c.tokens[i - 1]?.pos === 'NUM'))

function aspectMentions(clauses: ScoredClause[], rating: number) {
  const byAspect = new Map<string, { evidence: Evidence[]; phrases: PhraseUse[]; context: Set<string> }>()
  clauses.forEach((c, k) => {
    if (c.terms.length === 0) return
    const fact = statesAmount(c)
    // The words around each mention of this clause: its own, and those of a clause after it that names no aspect and
    // so goes on about this one ("The tribute page was a lovely idea. Two weeks later it still showed the wrong date").
    const next = clauses[k + 1]
    const around = next && next.terms.length === 0 ? [...clauseWords(c), ...clauseWords(next)] : clauseWords(c)
    for (const hit of c.terms) {
      const { score, strongest } = mentionScore(c, hit)
      const stated = Math.abs(score) >= SIGNAL
      // The place or time of what the clause says is not a topic: "at the viewing she was in the wrong blouse", "after
      // the service we went home", "held the door for every guest at the graveside service". An event and its place
      // are facts about each other ("the service was in the chapel at 11").
      if (hit.setting && !stated && !c.terms.some((h) => h !== hit && EVENTS_AND_PLACES.has(h.aspect))) continue
      const entry = byAspect.get(hit.aspect) ?? { evidence: [], phrases: [], context: new Set<string>() }
      const weight = stated ? c.weight : c.weight / 2
      // Facts (a setting, an amount, what the reviewer says is no one's fault) judge nothing, so neither the context
      // nor the stars make them praise.
      const unstated = fact || hit.setting || c.excused ? 0 : c.section * IMPLIED || implied(clauses, k) || prior(rating)
      entry.evidence.push({ score: stated ? score : unstated, weight, stated })
      entry.phrases.push(phraseOf(c, hit, strongest))
      for (const word of around) entry.context.add(word)
      byAspect.set(hit.aspect, entry)
    }
  })
  return [...byAspect].map(([id, { evidence, phrases, context }]) => {
    const score = round(evidence.reduce((a, e) => a + e.score * e.weight, 0) / evidence.reduce((a, e) => a + e.weight, 0))
    const sentiment = polarityOf(evidence)
    const unique = [...new Map(phrases.map((p) => [p.key, p])).values()]
    return { result: { id, sentiment, score, phrases: unique.map((p) => p.surface) } as ReviewAnalysis['aspects'][number], phrases: unique, sides: sidesOf(evidence), context: [...context] }
  })
}

const NOT_WORDS = new Set(['PUNCT', 'PROPN', 'SYM', 'NUM', 'X', 'SPACE'])

/**
 * The lemmas of a clause's words and their classes (word-clusters.ts), a negated one marked ("not rush"): what the
 * clause says around a mention.
 */
function clauseWords(c: ScoredClause): string[] {
  const negated = new Set(c.negatedFrom.keys())
  return c.tokens.flatMap((t, i) => (NOT_WORDS.has(t.pos) ? [] : [t.lemma, ...clustersOf(t.lemma)].map((w) => (negated.has(i) ? `not ${w}` : w))))
}

type Mention = ReturnType<typeof aspectMentions>[number]

/** Whether the words themselves praise the aspect somewhere, criticise it somewhere, or both (what "mixed" needs). */
function sidesOf(evidence: { score: number; stated: boolean }[]): Sides {
  const praised = evidence.some((e) => e.stated && e.score > 0)
  const criticised = evidence.some((e) => e.stated && e.score < 0)
  return praised ? (criticised ? 'both' : 'praised') : criticised ? 'criticised' : 'neither'
}

/** What the rules found, as the learned reader takes it in. */
function evidenceOf(found: Mention[]): Map<string, RuleEvidence> {
  return new Map(
    found.map((a) => [a.result.id, { judged: a.phrases.some((p) => p.judged), sentiment: a.result.sentiment, score: a.result.score, lemmas: a.phrases.flatMap((p) => p.key.split(' ')), sides: a.sides, context: a.context }])
  )
}

/** What the rules alone find in a review, per aspect, as the learned reader sees it (for training it). */
export function readRules(review: Review, ctx: AnalysisContext): { sentences: Sentence[]; rules: Map<string, RuleEvidence> } {
  const sentences = parseText(review.text ?? '')
  return { sentences, rules: evidenceOf(aspectMentions(scoreSentences(sentences, review.rating, ctx).flat(), review.rating)) }
}

/**
 * The aspects as the learned reader decides them, with what the rules found among its features: which aspects the
 * review judges, and their polarity. One the rules found keeps their phrases; one they missed has none.
 */
function learnedAspects(model: CompiledModel, sentences: Sentence[], found: Mention[], rating: number): Mention[] {
  const evidence = evidenceOf(found)
  const read = new Map(readReview(model, sentences, rating, evidence).map((a) => [a.id, a]))
  const kept = found.filter((a) => read.has(a.result.id)).map((a) => ({ ...a, result: { ...a.result, ...read.get(a.result.id)!, phrases: a.result.phrases } }))
  const added = [...read.values()].filter((a) => !evidence.has(a.id)).map((a) => ({ result: { ...a, phrases: [] as string[] }, phrases: [] as PhraseUse[], sides: 'neither' as const, context: [] }))
  return [...kept, ...added]
}

const FUNCTION_POS = new Set(['DET', 'PRON', 'AUX', 'PUNCT', 'ADP', 'CCONJ', 'SCONJ', 'PART', 'SYM', 'NUM'])

const MAX_PHRASE = 6

/**
 * The words that carry a mention: the term and its strongest judgement when they sit close together with no
 * punctuation between ("chapel was spotless", "didn't rush us"), otherwise the term with the adjective before it
 * ("renovated chapel").
 */
function phraseOf(c: ScoredClause, hit: TermHit, strongest: number | undefined): PhraseUse {
  let from = hit.start
  let to = hit.end - 1
  let judged = false
  if (strongest !== undefined) {
    const a = Math.min(from, c.negatedFrom.get(strongest) ?? strongest)
    const b = Math.max(to, strongest)
    if (b - a < MAX_PHRASE && !c.tokens.slice(a, b + 1).some((t) => t.pos === 'PUNCT')) [from, to, judged] = [a, b, true]
  }
  if (!judged && c.tokens[from - 1]?.pos === 'ADJ') from--
  if (c.tokens[from]?.lower === 'not' && c.tokens[from - 1]?.pos === 'AUX') from--
  const span = trim(c.tokens.slice(from, to + 1))
  const key = span
    .filter((t) => !FUNCTION_POS.has(t.pos) || ['not', 'never', 'no'].includes(t.lower))
    .map((t) => t.lemma)
    .join(' ')
  return { aspect: hit.aspect, key, surface: tokensText(span).toLowerCase(), judged }
}

function trim(tokens: Token[]): Token[] {
  let a = 0
  let b = tokens.length
  while (a < b && ['DET', 'PUNCT', 'CCONJ', 'PRON'].includes(tokens[a]!.pos) && tokens[a]!.lower !== 'no') a++
  while (b > a && ['PUNCT', 'CCONJ', 'DET'].includes(tokens[b - 1]!.pos)) b--
  return tokens.slice(a, b)
}

/** Staff and services get the judgement of the clauses that name them. */
function entityScores(scored: ScoredClause[][], sentences: Sentence[], review: Review, mentions: MentionIndex) {
  const technicians = new Map<string, number[]>()
  const services = new Map<string, number[]>()
  const named = review.mentions.technicians.length + review.mentions.services.length > 0
  // Only the clauses of sentences that name someone are searched: detection is the costly part.
  const naming = (i: number) => {
    const found = mentions.detect(sentences[i]!.text)
    return found.technicians.length + found.services.length > 0
  }
  for (const c of named ? scored.flatMap((clauses, i) => (clauses.length === 1 || naming(i) ? clauses : [])) : []) {
    const found = mentions.detect(c.text)
    if (!found.technicians.length && !found.services.length) continue
    const s = clauseScore(c)
    const score = Math.abs(s) < SIGNAL ? prior(review.rating) : s
    for (const n of found.technicians) technicians.set(n, [...(technicians.get(n) ?? []), score])
    for (const n of found.services) services.set(n, [...(services.get(n) ?? []), score])
  }
  const mean = (named: string[], scores: Map<string, number[]>) =>
    new Map(named.map((n) => [n, scores.has(n) ? scores.get(n)!.reduce((a, b) => a + b, 0) / scores.get(n)!.length : prior(review.rating)]))
  return { technicians: mean(review.mentions.technicians, technicians), services: mean(review.mentions.services, services) }
}

/** A sentence worth quoting: warm, about something specific, neither a fragment nor a speech. */
function bestQuote(scored: ScoredClause[][], texts: string[]): ReviewWork['quote'] {
  let best: ReviewWork['quote'] = null
  scored.forEach((clauses, i) => {
    const words = texts[i]!.split(/\s+/).length
    if (words < 8 || words > 32) return
    const score = squash(clauses.reduce((a, c) => a + c.valences.reduce((x, y) => x + y, 0), 0))
    const specific = clauses.some((c) => c.terms.length > 0)
    if (!specific || score < 0.5) return
    if (!best || score > best.score) best = { text: texts[i]!.trim(), score }
  })
  return best
}
