import { CONTRAST, excuses, ironic, splitClauses } from './clauses.js'
import { eventHits, mayFail, names } from './events.js'
import { findIdioms } from './idioms.js'
import { BOOSTERS, HEDGES, NEGATORS, SERVICE_ACTIONS, valence } from './lexicon.js'
import { tokensText, type Sentence, type Token } from './nlp.js'
import { peopleHits } from './people.js'
import { headingSide } from './sections.js'
import { aimAtSubjects } from './subjects.js'
import { durationAt, findTerms, type CompiledTaxonomy, type TermHit } from './taxonomy.js'

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
  /**
   * The clause, or one after it in the sentence, clears the business of its criticism ("not their fault", see
   * `excuses`): what it names is a fact.
   */
  excused: boolean
  /** The side of the list heading the clause comes under ("Cons: the bill"): +1, -1, or 0 outside such a list (sections.ts). */
  section: number
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
  // The excuse covers what came before it in the sentence, not what follows ("..., which is the state's doing, and
  // Marisol kept us updated").
  const excusedUpTo = parts.findLastIndex((p) => excuses(p.tokens))
  let section = 0
  // An event in one clause belongs to the task another clause of the sentence names (events.ts).
  const task = tax.events !== undefined && parts.length > 1 && mayFail(sentence.tokens, tax.events) && findTerms(tax, sentence.tokens, NONE).some((h) => names(sentence.tokens, h, tax.events!))
  parts.forEach(({ tokens, after }, k) => {
    const weight = turn < 0 ? 1 : k >= turn ? 1.5 : 0.5
    const link = CONTRAST.has(tokens[0]?.lower ?? '') ? 'contrast' : after === ':' ? 'elaboration' : after === ',' ? 'list' : null
    section = headingSide(tokens) || section
    clauses.push(scoreClause(tokens, tax, { weight, link, ironic: irony, excused: k <= excusedUpTo, section }, k === 0, inherited(tokens, clauses.at(-1) ?? previous), task))
  })
  return clauses
}

const NONE: ReadonlySet<number> = new Set()

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

type Placement = Pick<ScoredClause, 'weight' | 'link' | 'ironic' | 'excused' | 'section'>

function scoreClause(tokens: Token[], tax: CompiledTaxonomy, placement: Placement, first: boolean, fallback: TermHit[], task: boolean): ScoredClause {
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
  const named = withPeople(findTerms(tax, tokens, blocked).filter((h) => !modifier(tokens, h, tax) && !(first && transition(tokens, h))), tokens, tax, blocked)
  for (const h of named) if (setting(tokens, h)) h.setting = true
  aimAtSubjects(tokens, named)
  const delay = tax.events ? delayed(tokens, named) : undefined
  if (delay) named.push(delay)
  const events = tax.events ? eventHits(tokens, tax.events, tax.people, named, blocked, task) : undefined
  const found = events?.hits.length ? [...named.filter((h) => !events.objects.includes(h)), ...events.hits].sort((a, b) => a.start - b.start) : named
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
  applyScores(tokens, valences, locked)
  silenceOwnFailures(tokens, valences, tax)
  const termSigns = new Map(terms.map((h) => [h.start, tax.negatedSign.get(h.aspect) ?? -1]))
  silenceExpectations(tokens, valences)
  applyExpectations(tokens, valences, locked)
  applyEffort(tokens, valences, locked)
  applyExcess(tokens, valences, locked)
  const denied = new Set(terms.filter((h) => h.denied).map((h) => h.start))
  const negatedFrom = applyNegation(tokens, valences, locked, termSigns, denied)
  applyCessation(tokens, valences, locked, termSigns)
  applyWishes(tokens, valences, locked)
  applyNeeds(tokens, valences, locked, tax.people?.persons)
  applyCounterfactuals(tokens, valences, locked, tax.people?.kin)
  for (const [j] of negatedFrom) if (valences[j] !== 0 && termSigns.has(j)) cueOwner[j] ??= terms.find((h) => h.start === j)?.aspect
  // A one-word term that judges judges its own aspect: "calm" (compassion) says nothing of the paperwork beside it.
  for (const h of terms) if (h.end - h.start === 1 && !h.setting && valences[h.start] !== 0) cueOwner[h.start] ??= h.aspect
  applyIntensity(tokens, valences, hedgeEnds, locked)
  // Criticism the reviewer lifts from the business judges nothing of it ("late, which isn't really anyone's fault").
  if (placement.excused) valences.forEach((v, i) => v < 0 && (valences[i] = 0))
  // Praise in quotation marks is someone else's word ("Their website says 'transparent pricing'"): in a bad review, irony.
  const ironic = placement.ironic || quoted(tokens).some((i) => valences[i]! > 0)
  return { tokens, text: tokensText(tokens), valences, terms, negatedFrom, cueOwner, ...placement, ironic }
}

/**
 * The reviewer's own failures judge no one: "I had forgotten I'd even pre-planned with them", "we lost the receipt". A
 * verb of failure (events.ts) whose subject is "I" or "we", not negated.
 */
function silenceOwnFailures(tokens: Token[], v: number[], tax: CompiledTaxonomy): void {
  const failure = tax.events?.failure
  if (!failure) return
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (v[i]! >= 0 || t.pos !== 'VERB' || !failure.get(t.lemma)?.some((words) => words.length === 1)) continue
    let k = i - 1
    while (k >= 0 && ['AUX', 'ADV', 'PART'].includes(tokens[k]!.pos)) k--
    // "I will never forget how Priya knelt down" is praise (see applyNegation).
    const negated = tokens.slice(k + 1, i).some(isNegator)
    if (FIRST_PERSON.has(tokens[k]?.lower ?? '') && !negated) v[i] = 0
  }
}

/** A score out of 5 or 10 ("Parking: 2/5", "4 out of 5"): as a share of the scale, or undefined. */
function scoreAt(tokens: Token[], i: number): number | undefined {
  const slash = /^(\d+(?:\.\d+)?)\/(5|10)$/.exec(tokens[i]!.value)
  if (slash) return Number(slash[1]) / Number(slash[2])
  const outOf = tokens[i + 1]?.lower === 'out' && tokens[i + 2]?.lower === 'of' ? Number(tokens[i + 3]?.value) : NaN
  return outOf === 5 || outOf === 10 ? Number(tokens[i]!.value) / outOf : undefined
}

/** A score given in the text judges like the stars: 4/5 and up is praise, 2/5 and below criticism, 3/5 neither. */
function applyScores(tokens: Token[], v: number[], locked: Set<number>): void {
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.pos !== 'NUM' || locked.has(i)) continue
    const share = scoreAt(tokens, i)
    if (share !== undefined && share <= 1) v[i] = share >= 0.8 ? 0.5 : share <= 0.4 ? -0.5 : 0
  }
}

const KEEPING = new Set(['keep', 'unreturned', 'unanswered'])
const UNIT_WORDS = new Set(['minutes', 'hours', 'days', 'weeks', 'months'])

/**
 * Something not done, or the deceased kept, for a stretch of time is a delay: "didn't send the death certificates for
 * a month", "nobody returned my calls for three days", "calls went unreturned for days", "kept Dad for almost a month".
 * Said of other things ("sat with us for two hours", "lived for nine hours") a duration judges nothing.
 */
function delayed(tokens: Token[], terms: TermHit[]): TermHit | undefined {
  if (terms.some((h) => h.aspect === 'timeliness')) return undefined
  for (let i = 0; i < tokens.length - 1; i++) {
    if (tokens[i]!.lower !== 'for') continue
    // The denial or the keeping comes first, close by: not "sat with us for two hours and not once did we feel rushed".
    if (!tokens.slice(Math.max(0, i - 8), i).some((t) => isNegator(t) || (KEEPING.has(t.lemma) && t.pos === 'VERB'))) continue
    const n = UNIT_WORDS.has(tokens[i + 1]!.lower) ? 1 : durationAt(tokens, i + 1)
    if (n) return { aspect: 'timeliness', start: i, end: i + 1 + n, sign: -1, denied: true }
  }
  return undefined
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
  const out: number[] = []
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.lemma !== 'wait' || t.pos !== 'VERB') continue
    if (!tokens.slice(Math.max(0, i - 4), i).some((x) => FIRST_PERSON.has(x.lower))) out.push(i)
  }
  return out
}

/**
 * "Two weeks later it was still showing the wrong date": a time that opens a sentence moves the story on; it does not
 * judge how long, unless what follows is still not done ("Three weeks later we still didn't have a certificate").
 */
function transition(tokens: Token[], hit: TermHit): boolean {
  if (hit.start !== 0 || hit.aspect !== 'timeliness' || tokens[hit.end - 1]?.lower !== 'later') return false
  const rest = tokens.slice(hit.end, hit.end + 6)
  return !(rest.some((t) => t.lower === 'still') && rest.some(isNegator))
}

/** A one-word noun term that modifies the noun after it names something else: "prayer cards", "her garden club". */
function modifier(tokens: Token[], hit: TermHit, tax: CompiledTaxonomy): boolean {
  const t = tokens[hit.start]!
  const judging = valence(t.lower, t.lemma) !== 0 || tax.cues.get(hit.aspect)?.has(t.lemma) // "kind staff" is praise
  return hit.end - hit.start === 1 && t.pos === 'NOUN' && tokens[hit.end]?.pos === 'NOUN' && !judging
}

const PLACE = new Set(['in', 'at', 'inside'])
/** Prepositions that make an event the time of something else: "after the service had started", "before the viewing". */
const TIME = new Set(['before', 'after', 'until', 'till', 'since'])
const TIMES_OF_DAY = new Set(['day', 'morning', 'night', 'evening', 'afternoon', 'week', 'eve'])
const MODIFIERS = new Set(['DET', 'PRON', 'ADJ', 'NUM', 'PART', 'PROPN'])

/**
 * Where and when, not how: a term after a preposition of place or time ("held in their main chapel", "at the
 * graveside", "the programs showed up after the service had started", "the morning of the burial"), a term placed by
 * "be" and a preposition ("the funeral mass was at Holy Rosary"), or held ("we held the memorial").
 */
function setting(tokens: Token[], hit: TermHit): boolean {
  if (tokens[hit.start]!.pos === 'ADP') return false
  let i = hit.start - 1
  // Back over what modifies the term, a possessor included: "at her father's viewing".
  while (i >= 0 && (MODIFIERS.has(tokens[i]!.pos) || tokens[i + 1]?.lower === "'s")) i--
  const placed = tokens[hit.end]?.lemma === 'be' && tokens[hit.end + 1]?.pos === 'ADP'
  const before = tokens[i]?.lower ?? ''
  const dayOf = before === 'of' && TIMES_OF_DAY.has(tokens[i - 1]?.lemma ?? '')
  return PLACE.has(before) || TIME.has(before) || dayOf || tokens[i]?.lemma === 'hold' || placed
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
const WANTING = new Set(['need', 'want', 'require'])

function applyNegation(tokens: Token[], v: number[], locked: Set<number>, termSigns: Map<number, number>, denied: ReadonlySet<number>): Map<number, number> {
  const negatedFrom = new Map<number, number>()
  tokens.forEach((t, i) => {
    if (locked.has(i) || !isNegator(t)) return
    // "When I said no, ...": an answer, not a denial of what follows.
    if (t.lower === 'no' && tokens[i - 1]?.lemma === 'say') return
    const scope = scopeAfter(tokens, i)
    // "couldn't believe how clean it was" is amazement, not denial.
    if (tokens[scope[0]!]?.lemma === 'believe' && ['how', 'what'].includes(tokens[scope[1]!]?.lower ?? '')) return
    // "Nobody did.", "some never", "the customer service was not": what is denied is what came before, something
    // expected that did not happen.
    if (elliptical(tokens, i)) {
      // A fronted judgement denied at the end: "Warm he was not."
      const fronted = tokens.slice(1, i).every((x) => x.pos === 'PRON' || x.pos === 'AUX') && v[0] !== 0 && i <= 4 && !locked.has(0)
      if (fronted) v[0] = (v[0]! > 0 ? -0.75 : -0.5) * v[0]!
      else v[i] = -0.4
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
    const candidates = scope.filter((j) => !denied.has(j))
    const missing = candidates.find((j) => termSigns.has(j))
    // Nor what the family did not need or want: "we didn't need embalming", "didn't want a viewing".
    const through = missing !== undefined && scope.some((j) => j < missing && (tokens[j]!.pos === 'ADP' || WANTING.has(tokens[j]!.lemma)))
    const target = candidates.find((j) => v[j] !== 0 || isAction(j)) ?? (through ? undefined : missing)
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
  // "Never came.", "Nobody called.": a service action with nothing after it stands for what was promised before.
  const action = rest.length === 1 && rest[0]!.pos === 'VERB' && SERVICE_ACTIONS.has(rest[0]!.lemma) && (end >= 0 || tokens.length === i + 2)
  return !imperative && (action || rest.every((t) => t.pos === 'AUX' || t.pos === 'PART' || ELLIDED.has(t.lower)))
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

/**
 * "too" before an adjective or adverb is a complaint of excess, whatever the word says alone: "far too heavy", "too
 * loud", "the room was too warm" (not "too bad", which judges by itself).
 */
function applyExcess(tokens: Token[], v: number[], locked: Set<number>): void {
  tokens.forEach((t, j) => {
    const next = tokens[j + 1]
    if (t.lower !== 'too' || !next || locked.has(j + 1) || !(next.pos === 'ADJ' || next.pos === 'ADV')) return
    if (v[j + 1] === 0) v[j + 1] = -0.3
    else if (v[j + 1]! > 0) v[j + 1] = -Math.max(0.3, v[j + 1]!)
  })
}

const QUOTE_MARKS = new Set(['"', "'", '“', '”', '‘', '’'])

/** Tokens between quotation marks. */
function quoted(tokens: Token[]): number[] {
  const out: number[] = []
  let open = false
  tokens.forEach((t, i) => {
    if (QUOTE_MARKS.has(t.value)) open = !open
    else if (open) out.push(i)
  })
  return open ? [] : out
}

const LATER = new Set(['later', 'longer', 'more', 'higher', 'slower', 'bigger', 'worse', 'over'])
const SOONER = new Set(['sooner', 'earlier', 'faster', 'quicker', 'less', 'lower', 'cheaper', 'under', 'better'])
const PROMISED = new Set(['promise', 'quote', 'expect', 'say', 'tell', 'estimate', 'agree', 'plan', 'advertise', 'schedule', 'budget'])

/**
 * Against what was promised: "two days later than promised", "two weeks longer than they said", "$600 more than the
 * estimate" are criticism; "sooner than they said", "less than quoted" praise.
 */
function applyExpectations(tokens: Token[], v: number[], locked: Set<number>): void {
  tokens.forEach((t, i) => {
    if (t.lower !== 'than' || locked.has(i - 1)) return
    const what = tokens.slice(i + 1, i + 4)
    if (!what.some((x) => PROMISED.has(x.lemma))) return
    const sign = LATER.has(tokens[i - 1]?.lower ?? '') ? -1 : SOONER.has(tokens[i - 1]?.lower ?? '') ? 1 : 0
    if (!sign) return
    v[i - 1] = sign * 0.5
    locked.add(i - 1)
  })
}

const ATTEMPTS = new Set(['call', 'email', 'e-mail', 'message', 'text', 'visit', 'trip', 'try', 'attempt', 'reminder', 'request', 'letter', 'voicemail'])
const COUNTS = new Set(['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'several', 'multiple', 'many', 'countless', 'numerous', 'dozen', 'dozens'])

/**
 * Effort the family had to spend is criticism: "took four emails to get it sorted", "it took three phone calls to get
 * a correction printed"; so is being given different answers: "three different answers", "two different times".
 */
function applyEffort(tokens: Token[], v: number[], locked: Set<number>): void {
  tokens.forEach((t, i) => {
    if (locked.has(i)) return
    const count = t.pos === 'NUM' || COUNTS.has(t.lower)
    if (!count) return
    const head = tokens.slice(i + 1, i + 3).find((x) => x.pos === 'NOUN')
    const took = tokens.slice(Math.max(0, i - 3), i).some((x) => x.lemma === 'take' || x.lower === 'after')
    if ((took && head && ATTEMPTS.has(head.lemma)) || tokens[i + 1]?.lower === 'different') {
      v[i] = -0.5
      locked.add(i)
    }
  })
}

const CEASE = new Set(['disappear', 'vanish', 'evaporate', 'cease', 'stop', 'fade', 'end'])

/**
 * What stopped is what is missing: "the warmth disappeared" (backwards, to the judgement or term before the verb),
 * "they stopped returning calls" (forwards, to the action).
 */
function applyCessation(tokens: Token[], v: number[], locked: Set<number>, termSigns: Map<number, number>): void {
  tokens.forEach((t, i) => {
    if (!CEASE.has(t.lemma) || t.pos !== 'VERB' || locked.has(i)) return
    const next = tokens[i + 1]
    if (next && next.pos === 'VERB' && next.lower.endsWith('ing') && SERVICE_ACTIONS.has(next.lemma)) {
      v[i + 1] = -0.4
      return
    }
    for (let j = i - 1; j >= 0 && j >= i - 4; j--) {
      if (tokens[j]!.pos === 'PUNCT') return
      if (v[j]! > 0 && !locked.has(j)) {
        v[j] = -0.75 * v[j]!
        return
      }
      if (termSigns.has(j)) {
        v[j] = termSigns.get(j)! * 0.3 || -0.3
        return
      }
    }
  })
}

/**
 * A wish for what was not there is criticism: "only wish the chapel were a little bigger", "I wish the viewing room had
 * a window". Praise in the wish is what was missing; with none, the wish itself is the complaint. Not the reviewer's
 * own regret ("I wish I had found them sooner") nor a wish for someone ("wish them well").
 */
function applyWishes(tokens: Token[], v: number[], locked: Set<number>): void {
  tokens.forEach((t, i) => {
    if (t.lemma !== 'wish' || t.pos !== 'VERB' || locked.has(i)) return
    const after = tokens[i + 1]
    if (!after || FIRST_PERSON.has(after.lower) || ['you', 'them', 'him', 'her', 'everyone', 'to'].includes(after.lower)) return
    const scope: number[] = []
    for (let j = i + 1; j < tokens.length && tokens[j]!.pos !== 'PUNCT'; j++) scope.push(j)
    const praised = scope.filter((j) => v[j]! > 0 && !locked.has(j))
    for (const j of praised) v[j] = -0.75 * v[j]!
    if (!praised.length && !scope.some((j) => v[j]! < 0)) v[i] = -0.4
  })
}

/** What a thing is said to need: "needs work", "could use a refresh", "could do with new chairs". */
const NEEDING = new Set(['need', 'use'])

/**
 * A thing that needs something lacks it: "the building needs work", "the carpet needs replacing", "the chapel could
 * use a refresh" are criticism. Not what the family or the staff needed ("we needed more time", "Priya needed our
 * signature"), nor "use" in its own sense (only after "could").
 */
function applyNeeds(tokens: Token[], v: number[], locked: Set<number>, persons: ReadonlySet<string> | undefined): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (!NEEDING.has(t.lemma) || t.pos !== 'VERB' || locked.has(i) || v[i] !== 0) continue
    // What is needed follows ("needs work", "needs a refresh", "needs replacing"), not "did his pre need with them".
    if (!['NOUN', 'DET', 'ADJ', 'ADV', 'VERB'].includes(tokens[i + 1]?.pos ?? '')) continue
    let k = i - 1
    if (t.lemma === 'use') {
      if (tokens[k]?.lower !== 'could') continue
      k--
    }
    while (k >= 0 && ['ADV', 'AUX', 'PART'].includes(tokens[k]!.pos)) k--
    // The subject is a thing: a noun, not a name, a pronoun or a noun for people.
    const subject = tokens[k]
    if (subject?.pos !== 'NOUN' || persons?.has(subject.lemma)) continue
    const negated = tokens.slice(k + 1, i).some(isNegator)
    if (!negated && !tokens.slice(i + 1, i + 4).some(isNegator)) v[i] = -0.4
  }
}

const COUNTERFACTUAL = new Set(['would', 'could', 'should', 'might'])
const HAVE = new Set(['have', "'ve"])
/** Who may be the deceased: "he would have loved it" (but "they" is the staff: "they could have been more careful"). */
const THIRD_PERSON = new Set(['he', 'she'])

/**
 * What would have been good and was not there is criticism: "would have liked a call", "a few more updates would've
 * been nice", "could have been warmer"; "should have" is criticism by itself ("should have told us"). Not when negated
 * ("couldn't have been kinder" is praise, see applyNegation), nor a wish or regret of the deceased or the family ("Dad
 * would have loved it", "she would have liked it here").
 */
function applyCounterfactuals(tokens: Token[], v: number[], locked: Set<number>, kin: ReadonlySet<string> | undefined): void {
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i]!
    if (!COUNTERFACTUAL.has(t.lower) || !HAVE.has(tokens[i + 1]!.lower)) continue
    const subject = tokens[i - 1]
    const theirs = subject && (THIRD_PERSON.has(subject.lower) || kin?.has(subject.lower) || kin?.has(subject.lemma) || subject.pos === 'PROPN')
    if (theirs && t.lower !== 'should') continue
    const scope: number[] = []
    for (let j = i + 2; j < tokens.length && tokens[j]!.pos !== 'PUNCT' && tokens[j]!.pos !== 'SCONJ'; j++) scope.push(j)
    const praised = scope.filter((j) => v[j]! > 0 && !locked.has(j))
    for (const j of praised) v[j] = -0.75 * v[j]!
    if (!praised.length && t.lower === 'should' && !scope.some((j) => v[j]! < 0)) v[i] = -0.4
  }
}

function applyIntensity(tokens: Token[], v: number[], hedgeEnds: Set<number>, locked: Set<number>): void {
  tokens.forEach((_, j) => {
    if (v[j] === 0 || locked.has(j)) return
    const before = [tokens[j - 1], tokens[j - 2]].filter((t): t is Token => t !== undefined && t.lower !== 'not')
    if (before.some((t) => BOOSTERS.has(t.lower))) v[j] = Math.max(-1, Math.min(1, v[j]! * 1.4))
    else if (before.some((t) => HEDGES.has(t.lower)) || hedgeEnds.has(j) || hedgeEnds.has(j - 1)) v[j] = v[j]! * 0.5
  })
}
