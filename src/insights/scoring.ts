import { CONTRAST, ironic, splitClauses } from './clauses.js'
import { findIdioms } from './idioms.js'
import { BOOSTERS, HEDGES, NEGATORS, SERVICE_ACTIONS, valence } from './lexicon.js'
import { tokensText, type Sentence, type Token } from './nlp.js'
import { peopleHits } from './people.js'
import { findTerms, type CompiledTaxonomy, type TermHit } from './taxonomy.js'

/**
 * A stretch of a sentence with one point of view: contrast words ("but", "although"), ";" or ":", and a comma before a
 * new subject separate them (see clauses.ts).
 */
export interface ScoredClause {
  tokens: Token[]
  text: string
  /** Each token's contribution after idioms, cues, negation, boosters and hedges. */
  valences: number[]
  terms: TermHit[]
  /** Where a negation was applied, so phrases can keep the negator ("never felt rushed"). */
  negatedFrom: Map<number, number>
  /** The aspect whose cue gave a token its valence: "late" judges timeliness, not the procession beside it. */
  cueOwner: (string | undefined)[]
  /** Weight in the sentence score: what follows "but" counts more than what precedes it. */
  weight: number
  /**
   * How the clause follows the one before it (in the sentence, or the last of the previous sentence): `contrast` after
   * "but", "although" or a sentence opening "But"; `elaboration` after a colon ("The service was gorgeous: the music, the
   * flowers"); `list` after a comma ("the slideshow played, the flowers were nice"); otherwise null.
   */
  link: 'contrast' | 'elaboration' | 'list' | null
  /** The sentence praises in a way that, in a bad review, is irony (see `ironic`). */
  ironic: boolean
}

const DESCRIBING = new Set(['ADJ', 'ADV'])
const MODALS = new Set(['could', 'can', 'would', 'will', 'ca', 'wo'])
const EMPHASIS = new Set(['so', 'such', 'more', 'enough', 'better', 'happier', 'nicer', 'kinder'])

/** `previous` is the last clause of the sentence before, which a clause may continue ("Nobody did."). */
export function scoreSentence(sentence: Sentence, tax: CompiledTaxonomy, previous?: ScoredClause): ScoredClause[] {
  const parts = splitClauses(sentence.tokens)
  const turn = parts.findLastIndex((p, k) => k > 0 && CONTRAST.has(p.tokens[0]?.lower ?? ''))
  const clauses: ScoredClause[] = []
  const irony = ironic(sentence.tokens)
  parts.forEach(({ tokens, after }, k) => {
    const weight = turn < 0 ? 1 : k >= turn ? 1.5 : 0.5
    const link = CONTRAST.has(tokens[0]?.lower ?? '') ? 'contrast' : after === ':' ? 'elaboration' : after === ',' ? 'list' : null
    clauses.push(scoreClause(tokens, tax, { weight, link, ironic: irony }, k === 0, inherited(tokens, clauses.at(-1) ?? previous)))
  })
  return clauses
}

const PRONOUNS = new Set(['it', 'they', 'that', 'this', 'he', 'she', 'everything'])

/**
 * A clause with no aspect term of its own takes over the previous clause's aspects when it speaks of the same thing:
 * after a contrast word, through a subject pronoun ("The chapel was beautiful, but it was freezing"), anchored on the
 * pronoun; or by an elliptical negation ("Someone promised to call back. Nobody did."), anchored on the negator.
 */
function inherited(tokens: Token[], previous: ScoredClause | undefined): TermHit[] {
  if (!previous?.terms.length) return []
  const pronoun = CONTRAST.has(tokens[0]?.lower ?? '') ? tokens.slice(0, 3).findIndex((t) => PRONOUNS.has(t.lower)) : -1
  const anchor = pronoun >= 0 ? pronoun : tokens.findIndex((t, i) => isNegator(t) && elliptical(tokens, i))
  if (anchor < 0) return []
  return [...new Set(previous.terms.map((h) => h.aspect))].map((aspect) => ({ aspect, start: anchor, end: anchor + 1 }))
}

type Placement = Pick<ScoredClause, 'weight' | 'link' | 'ironic'>

function scoreClause(tokens: Token[], tax: CompiledTaxonomy, placement: Placement, first: boolean, fallback: TermHit[]): ScoredClause {
  const idioms = findIdioms(tokens)
  const locked = new Set<number>()
  const blocked = new Set<number>()
  const hedgeEnds = new Set<number>()
  const valences = tokens.map(() => 0)
  for (const h of idioms) {
    for (let i = h.start; i < h.end; i++) {
      locked.add(i)
      if (h.blocksAspects) blocked.add(i)
    }
    if (h.valence !== null) valences[h.start] = h.valence
    if (h.hedge) hedgeEnds.add(h.end)
  }
  for (const i of othersWaiting(tokens)) [blocked, locked].forEach((set) => set.add(i))
  const found = withPeople(findTerms(tax, tokens, blocked).filter((h) => !modifier(tokens, h, tax)), tokens, tax, blocked)
  for (const h of found) if (setting(tokens, h)) h.setting = true
  const terms = found.length ? found : fallback
  const here = [...new Set(terms.map((t) => t.aspect))]
  // The nouns and verbs of a multi-word name ("honor guard", "VA benefits") name a thing; they do not judge it. Its
  // adjectives and adverbs still do ("did a beautiful job", "made it easier").
  const naming = new Set(
    terms.filter((h) => h.end - h.start > 1).flatMap((h) => Array.from({ length: h.end - h.start }, (_, k) => h.start + k)).filter((i) => !DESCRIBING.has(tokens[i]!.pos))
  )
  const cueOwner: (string | undefined)[] = tokens.map(() => undefined)
  for (const h of terms.filter((h) => h.sign)) {
    ;[valences[h.start], cueOwner[h.start]] = [h.sign! * 0.4, h.aspect]
    for (let i = h.start; i < h.end; i++) locked.add(i)
  }
  tokens.forEach((t, i) => {
    if (locked.has(i) || isName(tokens, i, first)) return
    const cue = cueValence(t, i, terms, here, tax)
    if (cue) [valences[i], cueOwner[i]] = [cue.value, cue.aspect]
    // The tagger takes a capitalised first word for a name ("Unacceptable.", "Good: the chapel"); it is not one.
    else valences[i] = naming.has(i) ? 0 : valence(t.lower, t.lemma, i === 0 && t.pos === 'PROPN' ? 'ADJ' : t.pos)
  })
  const termSigns = new Map(terms.map((h) => [h.start, tax.negatedSign.get(h.aspect) ?? -1]))
  silenceExpectations(tokens, valences)
  applyExcess(tokens, valences, locked)
  const negatedFrom = applyNegation(tokens, valences, locked, termSigns)
  for (const [j] of negatedFrom) if (valences[j] !== 0 && termSigns.has(j)) cueOwner[j] ??= terms.find((h) => h.start === j)?.aspect
  applyIntensity(tokens, valences, hedgeEnds, locked)
  return { tokens, text: tokensText(tokens), valences, terms, negatedFrom, cueOwner, ...placement }
}

/** Adjectives said of the staff ("so tactful", "they seemed scatterbrained") join the terms, in order. */
function withPeople(terms: TermHit[], tokens: Token[], tax: CompiledTaxonomy, blocked: Set<number>): TermHit[] {
  if (!tax.people) return terms
  const taken = new Set(blocked)
  for (const h of terms) for (let i = h.start; i < h.end; i++) taken.add(i)
  const people = peopleHits(tokens, tax.people, taken)
  return people.length ? [...terms, ...people].sort((a, b) => a.start - b.start) : terms
}

const FIRST_PERSON = new Set(['i', 'we', 'us', 'me'])

/**
 * Waiting is a complaint when the family waits ("we waited six weeks", "made us wait", "the wait"); staff who wait
 * while a family says goodbye, or a hearse waiting at the church, are care and readiness, not delay.
 */
function othersWaiting(tokens: Token[]): number[] {
  return tokens.flatMap((t, i) => {
    if (t.lemma !== 'wait' || t.pos !== 'VERB' || i === 0) return []
    return tokens.slice(Math.max(0, i - 4), i).some((x) => FIRST_PERSON.has(x.lower)) ? [] : [i]
  })
}

/** A one-word noun term that modifies the noun after it names something else: "prayer cards", "her garden club". */
function modifier(tokens: Token[], hit: TermHit, tax: CompiledTaxonomy): boolean {
  const t = tokens[hit.start]!
  const judging = valence(t.lower, t.lemma) !== 0 || tax.cues.get(hit.aspect)?.has(t.lemma) // "kind staff" is praise
  return hit.end - hit.start === 1 && t.pos === 'NOUN' && tokens[hit.end]?.pos === 'NOUN' && !judging
}

const PLACE = new Set(['in', 'at', 'inside'])
const MODIFIERS = new Set(['DET', 'PRON', 'ADJ', 'NUM', 'PART', 'PROPN'])

/**
 * Where and when, not how: a term after a preposition of place ("held in their main chapel", "at the graveside"), a
 * term placed by "be" and a preposition ("the funeral mass was at Holy Rosary"), or held ("we held the memorial").
 */
function setting(tokens: Token[], hit: TermHit): boolean {
  if (tokens[hit.start]!.pos === 'ADP') return false
  let i = hit.start - 1
  while (i >= 0 && MODIFIERS.has(tokens[i]!.pos)) i--
  const placed = tokens[hit.end]?.lemma === 'be' && tokens[hit.end + 1]?.pos === 'ADP'
  return PLACE.has(tokens[i]?.lower ?? '') || tokens[i]?.lemma === 'hold' || placed
}

/** A capitalised word inside a sentence is a name ("Cold Spring Cemetery", "Grace"), not a judgement. */
function isName(tokens: Token[], i: number, first: boolean): boolean {
  const v = tokens[i]!.value
  if (v === tokens[i]!.lower || (i === 0 && first) || v === 'I') return false
  return /^\p{Lu}\p{Ll}/u.test(v)
}

/**
 * Inside a clause about an aspect, that aspect's cue words decide the sign ("long" wait, "small" parking lot). A cue
 * of several aspects there judges the one whose term is nearest, a setting last ("at the viewing she was in the wrong
 * blouse" is about the blouse).
 */
function cueValence(t: Token, i: number, terms: TermHit[], aspects: string[], tax: CompiledTaxonomy): { value: number; aspect: string } | undefined {
  const sign = (aspect: string) => tax.cues.get(aspect)?.get(t.lemma) ?? tax.cues.get(aspect)?.get(t.lower)
  const fitting = aspects.filter(sign)
  if (!fitting.length) return undefined
  const gap = (h: TermHit) => (h.setting ? 1000 : 0) + (i < h.start ? h.start - i : i >= h.end ? i - h.end + 1 : 0)
  const aspect = fitting.length === 1 ? fitting[0]! : terms.filter((h) => fitting.includes(h.aspect)).sort((a, b) => gap(a) - gap(b))[0]!.aspect
  return { value: sign(aspect)! * Math.max(0.4, Math.abs(valence(t.lower, t.lemma))), aspect }
}

const EXPECTING = new Set(['expect', 'promise', 'assure', 'suppose', 'hope', 'imagine', 'fear'])

/** What was expected or promised did not necessarily happen: "fully expecting voicemail", "promised she would look peaceful". */
function silenceExpectations(tokens: Token[], v: number[]): void {
  tokens.forEach((t, i) => {
    if (!EXPECTING.has(t.lemma)) return
    for (let j = i + 1; j <= i + 5 && j < tokens.length && tokens[j]!.pos !== 'PUNCT'; j++) v[j] = 0
  })
}

const isComparative = (t: Token) => EMPHASIS.has(t.lower) || ((t.pos === 'ADJ' || t.pos === 'ADV') && t.lower.endsWith('er') && t.lower !== t.lemma)

/**
 * Negation, by the first judgement within six words ("not once did we feel rushed"):
 * - flipped and softened: "not helpful", "never felt rushed", "no hidden fees"; a negated criticism is faint
 *   praise ("wouldn't say they were unkind");
 * - emphasised instead after a negated modal or "never" with a comparative, "so"/"such" or "enough":
 *   "couldn't have been kinder", "can't thank them enough", "never seen such kindness";
 * - a negated action with no judgement means something was not done: "never returned our calls";
 * - a negated aspect term with neither means something was missing: "no ramp", "no updates" are criticism,
 *   "no fees", "at no charge" praise, as the aspect's `negated` says.
 */
function applyNegation(tokens: Token[], v: number[], locked: Set<number>, termSigns: Map<number, number>): Map<number, number> {
  const negatedFrom = new Map<number, number>()
  tokens.forEach((t, i) => {
    if (locked.has(i) || !isNegator(t)) return
    const scope = scopeAfter(tokens, i)
    // "couldn't believe how clean it was" is amazement, not denial.
    if (tokens[scope[0]!]?.lemma === 'believe' && ['how', 'what'].includes(tokens[scope[1]!]?.lower ?? '')) return
    // "Nobody did.", "some never", "the customer service was not": what is denied is what came before, something
    // expected that did not happen.
    if (elliptical(tokens, i)) {
      v[i] = -0.4
      return
    }
    const modal = t.lower === 'cannot' || MODALS.has(tokens[i - 1]?.lower ?? '')
    if ((modal || t.lower === 'never') && scope.some((j) => isComparative(tokens[j]!))) {
      const praised = scope.filter((j) => v[j]! > 0)
      if (praised.length) for (const j of praised) v[j] = Math.min(1, v[j]! * 1.5)
      else v[scope.find((j) => isComparative(tokens[j]!))!] = 0.5
      return
    }
    // The first judgement or service action in scope is what is negated.
    const isAction = (j: number) => SERVICE_ACTIONS.has(tokens[j]!.lemma) && tokens[j]!.pos === 'VERB' && !obligation(tokens, j) && v[j] === 0
    // A term reached through a preposition is not what is missing: "wasn't in the quote" denies a relation.
    const missing = scope.find((j) => termSigns.has(j))
    const through = missing !== undefined && scope.some((j) => j < missing && tokens[j]!.pos === 'ADP')
    const target = scope.find((j) => v[j] !== 0 || isAction(j)) ?? (through ? undefined : missing)
    if (target === undefined) return
    // "not helpful" is plainly negative; "not unkind" is faint praise.
    v[target] = v[target] !== 0 ? (v[target]! > 0 ? -0.75 : -0.5) * v[target]! : isAction(target) ? -0.4 : 0.3 * termSigns.get(target)!
    negatedFrom.set(target, i)
  })
  return negatedFrom
}

const isNegator = (t: Token) => NEGATORS.has(t.lower) || NEGATORS.has(t.lemma)

/**
 * A negator that ends its clause with only auxiliaries after it ("Nobody did.", "some never", "not so much") stands
 * for a clause left out. Not an imperative ("If you are putting it off, don't.").
 */
const ELLIDED = new Set(['so', 'much', 'either', 'ever', 'yet', 'really'])
function elliptical(tokens: Token[], i: number): boolean {
  const end = tokens.findIndex((t, j) => j > i && t.pos === 'PUNCT')
  const rest = tokens.slice(i + 1, end < 0 ? undefined : end)
  const imperative = tokens[i - 1]?.lemma === 'do' && (i === 1 || tokens[i - 2]?.pos === 'PUNCT')
  return !imperative && rest.every((t) => t.pos === 'AUX' || t.pos === 'PART' || ELLIDED.has(t.lower))
}

/** "didn't have to call", "never needed to ask": not a failure to act. */
function obligation(tokens: Token[], j: number): boolean {
  return tokens[j - 1]?.lower === 'to' && ['have', 'need', 'had', 'needed', 'has'].includes(tokens[j - 2]?.lower ?? '')
}

const QUOTES = new Set(['"', "'", '“', '”', '‘', '’'])

function scopeAfter(tokens: Token[], i: number): number[] {
  const scope: number[] = []
  for (let j = i + 1; j < tokens.length && scope.length < 6; j++) {
    const t = tokens[j]!
    // Quotation marks do not end a negation's reach: Nothing says "we care" like a chapel at 58 degrees.
    if (QUOTES.has(t.lower)) continue
    if (t.pos === 'PUNCT' || t.pos === 'CCONJ' || t.pos === 'SCONJ' || EXPECTING.has(t.lemma)) break
    scope.push(j)
  }
  return scope
}

/** "too" before a word that does not judge by itself is a complaint of excess: "far too heavy", "too loud". */
function applyExcess(tokens: Token[], v: number[], locked: Set<number>): void {
  tokens.forEach((t, j) => {
    const next = tokens[j + 1]
    if (t.lower === 'too' && next && !locked.has(j + 1) && (next.pos === 'ADJ' || next.pos === 'ADV') && v[j + 1] === 0) v[j + 1] = -0.3
  })
}

function applyIntensity(tokens: Token[], v: number[], hedgeEnds: Set<number>, locked: Set<number>): void {
  tokens.forEach((_, j) => {
    if (v[j] === 0 || locked.has(j)) return
    const before = [tokens[j - 1], tokens[j - 2]].filter((t): t is Token => t !== undefined && t.lower !== 'not')
    if (before.some((t) => BOOSTERS.has(t.lower))) v[j] = Math.max(-1, Math.min(1, v[j]! * 1.4))
    else if (before.some((t) => HEDGES.has(t.lower)) || hedgeEnds.has(j) || hedgeEnds.has(j - 1)) v[j] = v[j]! * 0.5
  })
}
