import type { AspectDefinition, Taxonomy } from '../domain/index.js'
import type { EventLexicon } from './events.js'
import { FUNERAL_HOME_EVENTS, FUNERAL_HOME_PEOPLE, FUNERAL_HOME_TAXONOMY } from './funeral-home-taxonomy.js'
import { parseText, type Token } from './nlp.js'
import type { PeopleLexicon } from './people.js'

/**
 * A term as a sequence of lowercase words. A word matches a token with that surface form or that lemma, so "call"
 * matches "called" and "calls" while "calls" matches only "calls". The word `<duration>` matches an amount of time
 * ("three weeks", "almost 3 days", "a couple of hours").
 */
interface Term {
  aspect: string
  words: string[]
  /** +1 or -1 when the phrase is also one of the aspect's cues ("on time", "behind schedule"). */
  sign?: number
}

export interface CompiledTaxonomy {
  source: Taxonomy
  aspects: AspectDefinition[]
  /** Terms by first word, longest first. */
  byFirst: Map<string, Term[]>
  /** Per aspect: cue word -> +1 or -1. */
  cues: Map<string, Map<string, number>>
  /** Per aspect: the sign of "no <term>" (+1 "no fees", -1 "no ramp"). */
  negatedSign: Map<string, number>
  turnaroundSubject: Set<string>
  /** Adjectives that judge an aspect when said of a person; the built-in taxonomy's, or none for a business's own. */
  people: PeopleLexicon | undefined
  /** Verbs of care and failure that judge the people aspects (events.ts); the built-in taxonomy's, or none. */
  events: EventLexicon | undefined
}

function words(phrase: string): string[] {
  if (phrase.includes('<duration>')) return phrase.toLowerCase().split(/\s+/)
  return parseText(phrase).flatMap((s) => s.tokens.map((t) => t.lower))
}

export function compileTaxonomy(
  taxonomy: Taxonomy,
  people = taxonomy === FUNERAL_HOME_TAXONOMY ? FUNERAL_HOME_PEOPLE : undefined,
  events = taxonomy === FUNERAL_HOME_TAXONOMY ? FUNERAL_HOME_EVENTS : undefined
): CompiledTaxonomy {
  const byFirst = new Map<string, Term[]>()
  const cues = new Map<string, Map<string, number>>()
  for (const a of taxonomy.aspects) {
    // Cues are single words; a phrase such as "on time" is matched as a term, not split into "on" and "time", and
    // judges as a whole when it is among the cues too.
    const cueWords = [...a.positive.map((w) => [words(w), 1] as const), ...a.negative.map((w) => [words(w), -1] as const)]
    cues.set(a.id, new Map(cueWords.filter(([w]) => w.length === 1).map(([w, sign]) => [w[0]!, sign])))
    const phraseSign = new Map(cueWords.filter(([w]) => w.length > 1).map(([w, sign]) => [w.join(' '), sign]))
    for (const t of a.terms) {
      const term: Term = { aspect: a.id, words: words(t) }
      if (term.words.length === 0) continue
      const sign = phraseSign.get(term.words.join(' '))
      if (sign) term.sign = sign
      byFirst.set(term.words[0]!, [...(byFirst.get(term.words[0]!) ?? []), term])
    }
  }
  for (const list of byFirst.values()) list.sort((x, y) => y.words.length - x.words.length)
  const turnaroundSubject = new Set((taxonomy.turnaround?.subject ?? []).flatMap(words))
  const negatedSign = new Map(taxonomy.aspects.map((a) => [a.id, a.negated === 'praise' ? 1 : -1]))
  return { source: taxonomy, aspects: taxonomy.aspects, byFirst, cues, turnaroundSubject, negatedSign, people, events }
}

export interface TermHit {
  aspect: string
  start: number
  end: number
  /**
   * Named as the place of what the clause says ("sat with her in the family room"), or placed in time and space
   * ("Mom's service was in the chapel at 11", "we held the memorial"): a fact, not a judgement.
   */
  setting?: boolean
  /** The term is a cue phrase of its aspect and judges it ("on time"). */
  sign?: number
  /** The term holds the denial it was found through ("no updates for a week" is a delay): no negator flips it again. */
  denied?: boolean
}

const QUALIFIERS = new Set(['almost', 'about', 'nearly', 'over', 'under', 'around', 'just', 'only', 'barely', 'roughly', 'less', 'more', 'than'])
const AMOUNTS = new Set(['a', 'an', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'couple', 'few', 'several', 'twenty', 'thirty', 'forty', 'fifty'])
const UNITS = new Set(['minute', 'hour', 'day', 'week', 'month'])

/** Tokens a duration takes from position i ("almost 3 weeks" = 3), or 0. */
export function durationAt(tokens: readonly Token[], i: number): number {
  let j = i
  while (QUALIFIERS.has(tokens[j]?.lower ?? '')) j++
  if (!(tokens[j]?.pos === 'NUM' || AMOUNTS.has(tokens[j]?.lower ?? ''))) return 0
  j++
  if (['couple', 'few'].includes(tokens[j]?.lower ?? '')) j++
  if (tokens[j]?.lower === 'of') j++
  if (['business', 'full'].includes(tokens[j]?.lower ?? '')) j++
  return UNITS.has(tokens[j]?.lemma ?? '') ? j + 1 - i : 0
}

const INSIDE = new Set(['such', 'great', 'so', 'much', 'real', 'utmost', 'extreme', 'very'])

/** Tokens a term takes from position i, or 0 when it does not match there. */
function termAt(term: Term, tokens: readonly Token[], i: number, blocked: ReadonlySet<number>): number {
  let j = i
  for (const [k, w] of term.words.entries()) {
    // An intensifier inside a phrase leaves it the phrase: "with such care", "with great care".
    if (k > 0 && INSIDE.has(tokens[j]?.lower ?? '') && tokens[j + 1]?.lower !== undefined && (tokens[j + 1]!.lower === w || tokens[j + 1]!.lemma === w)) j++
    const t = tokens[j]
    if (t === undefined || blocked.has(j)) return 0
    if (w === '<duration>') {
      const n = durationAt(tokens, j)
      if (!n) return 0
      j += n
    } else if (t.lower === w || t.lemma === w) j++
    else return 0
  }
  return j - i
}

/** Aspect terms in a run of tokens, leftmost-longest, skipping tokens another phrase has claimed. */
export function findTerms(tax: CompiledTaxonomy, tokens: readonly Token[], blocked: ReadonlySet<number>): TermHit[] {
  const hits: TermHit[] = []
  const durations = tax.byFirst.get('<duration>')
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    // The terms that start with the word, then with its lemma, then with a duration (only where one can begin).
    const hit =
      firstAt(tax.byFirst.get(t.lower), tokens, i, blocked) ??
      (t.lower !== t.lemma ? firstAt(tax.byFirst.get(t.lemma), tokens, i, blocked) : undefined) ??
      (mayBeginDuration(t) ? firstAt(durations, tokens, i, blocked) : undefined)
    if (!hit) continue
    hits.push(hit)
    i = hit.end - 1
  }
  return hits
}

/** The first of `terms` (longest first) that matches at i. */
function firstAt(terms: readonly Term[] | undefined, tokens: readonly Token[], i: number, blocked: ReadonlySet<number>): TermHit | undefined {
  if (!terms) return undefined
  for (const term of terms) {
    const n = termAt(term, tokens, i, blocked)
    if (!n) continue
    const hit: TermHit = { aspect: term.aspect, start: i, end: i + n }
    if (term.sign) hit.sign = term.sign
    return hit
  }
  return undefined
}

const mayBeginDuration = (t: Token) => t.pos === 'NUM' || QUALIFIERS.has(t.lower) || AMOUNTS.has(t.lower)
