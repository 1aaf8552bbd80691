/**
 * Judgements told as events rather than in judging words: acts of care for the family ("Bea even brought a thermos of
 * tea for everyone", "they let my kids put drawings in the casket", "held the door, carried Mom's chair"), slights
 * ("the director sighed at me") and failures ("they lost my father's dog tags", "his name was misspelled on the urn",
 * "someone else's paperwork taped to it").
 *
 * The verbs come from WordNet (scripts/build-lexicon.ts grows them from a few seed verbs, reviewed once; the engine reads
 * the result in wordnet-lexicon.json). What an event judges depends on what it is done to:
 * - an act of care is compassion when it is done for the family: the family is its object, its receiver or the owner
 *   of its object ("bringing my mom a glass of water", "for everyone", "remembered her name"), or it makes things
 *   possible or easier ("they made it happen");
 * - a slight ("sighed at me", "snapped at my mother", "lectured us", "hung up on me") is compassion, criticised, when it
 *   is aimed at the family;
 * - a failure is professionalism (care with details, belongings and the body) unless the clause names the task it
 *   belongs to ("lost the paperwork" is the paperwork's aspect, which its own term finds);
 * - neither counts when the family does it ("we lost Dad in March", "I will never forget", "I helped Mom"), and losing
 *   a person is a death, not a failure.
 * Each event is a term that judges by itself, so negation ("never lost their cool", "nobody helped us") and the rest of
 * the clause machinery apply to it as to any other.
 */
import type { Token } from './nlp.js'
import type { PeopleLexicon } from './people.js'
import type { TermHit } from './taxonomy.js'

export interface EventLexicon {
  /** Verbs and phrases of care, by first word; each phrase a list of words matched by surface form or lemma. */
  care: Map<string, string[][]>
  /** Verbs and phrases of slights to the family ("sighed at me", "snapped at my mother", "hung up on me"), by first word. */
  slight: Map<string, string[][]>
  /** Verbs and phrases of failure, by first word. */
  failure: Map<string, string[][]>
  /** Adjectives and participles of failure: "wrong", "missing", "misspelled", "dented". */
  faults: ReadonlySet<string>
  /** Every word an event may begin with, for one look per token: the keys of the maps above, the faults, "make". */
  starts: ReadonlySet<string>
}

function byFirst(phrases: readonly string[]): Map<string, string[][]> {
  const map = new Map<string, string[][]>()
  for (const p of phrases) {
    const words = p.toLowerCase().split(/\s+/).flatMap((w) => (w.endsWith("'s") ? [w.slice(0, -2), "'s"] : [w]))
    map.set(words[0]!, [...(map.get(words[0]!) ?? []), words].sort((a, b) => b.length - a.length))
  }
  return map
}

export function eventLexicon(source: { care: readonly string[]; slight: readonly string[]; failure: readonly string[]; faults: readonly string[] }): EventLexicon {
  const [care, slight, failure, faults] = [byFirst(source.care), byFirst(source.slight), byFirst(source.failure), new Set(source.faults)]
  return { care, slight, failure, faults, starts: new Set([...care.keys(), ...slight.keys(), ...failure.keys(), ...faults, 'make']) }
}

const CARE = 'compassion'
const FAILURE = 'professionalism'
/** The aspects of people; a term of any other aspect in the clause names the task an event belongs to. */
const PEOPLE_ASPECTS = new Set([CARE, FAILURE])
const FIRST_PERSON = new Set(['i', 'we'])
const FAMILY_WORDS = new Set(['us', 'me', 'my', 'our', 'everyone', 'everybody', 'family', 'families', 'guests', 'them', 'him', 'her', 'his', 'their'])
/** "They made it happen", "made everything possible for us", "made a hundred decisions easier". */
const MADE = new Set(['possible', 'happen', 'easy', 'easier', 'bearable', 'simple', 'simpler', 'manageable'])

const matches = (t: Token | undefined, w: string) => t !== undefined && (t.lower === w || t.lemma === w)

/** Tokens a phrase of `map` takes at i (verbs must be verbs, or the participle the tagger calls an adjective), or 0. */
function phraseAt(map: Map<string, string[][]>, tokens: readonly Token[], i: number): number {
  const t = tokens[i]!
  const candidates = [...(map.get(t.lower) ?? []), ...(t.lemma !== t.lower ? (map.get(t.lemma) ?? []) : [])]
  for (const words of candidates) {
    if (!words.every((w, k) => matches(tokens[i + k], w))) continue
    if (words.length === 1 && !(t.pos === 'VERB' || (t.pos === 'ADJ' && /(ed|en|lost)$/.test(t.lower)))) continue
    return words.length
  }
  return 0
}

/**
 * Who did it: the nearest noun or pronoun before the event that stands where a subject stands, before a verb ("They
 * lost", "My husband's name was misspelled", "I'd gotten the year wrong"); a possessor is not the doer.
 */
function doer(tokens: readonly Token[], i: number): Token | undefined {
  for (let j = i - 1; j >= 0; j--) {
    const t = tokens[j]!
    if (!(t.pos === 'PRON' || t.pos === 'PROPN' || t.pos === 'NOUN') || inPhrase(tokens, j)) continue
    let k = j + 1
    while (tokens[k]?.pos === 'ADV' || tokens[k]?.pos === 'PART') k++
    if (k <= i && (tokens[k]?.pos === 'AUX' || tokens[k]?.pos === 'VERB')) return t
  }
  return undefined
}

const NOMINAL = new Set(['DET', 'ADJ', 'NUM', 'NOUN', 'PROPN'])

/** A noun after a preposition is not a subject: "the woman at the desk snapped", "someone from the office called". */
function inPhrase(tokens: readonly Token[], j: number): boolean {
  let k = j - 1
  while (k >= 0 && NOMINAL.has(tokens[k]!.pos)) k--
  return tokens[k]?.pos === 'ADP'
}

/** An act of care is done by someone, named or not ("Held the door", "Sam quietly walked him"), not suffered ("was held"). */
function byPerson(tokens: readonly Token[], i: number, people: PeopleLexicon | undefined): boolean {
  if (tokens[i - 1]?.lemma === 'be' || tokens[i - 2]?.lemma === 'be') return false
  const by = doer(tokens, i)
  return by === undefined || by.pos === 'PROPN' || people?.persons.has(by.lower) === true || people?.persons.has(by.lemma) === true
}

const isFamily = (t: Token | undefined, people: PeopleLexicon | undefined) =>
  t !== undefined && (FIRST_PERSON.has(t.lower) || people?.kin.has(t.lower) === true || people?.kin.has(t.lemma) === true)

/** Words that open a clause of time or reason, whatever the tagger calls them ("when" is often an adverb). */
const SUBORDINATORS = new Set(['when', 'while', 'after', 'before', 'because', 'if', 'until', 'since', 'once', 'whenever'])
/** Where what an act is done to ends: punctuation or a subordinate clause ("remembered our names when we came back"). */
const endsObject = (t: Token) => t.pos === 'PUNCT' || t.pos === 'SCONJ' || SUBORDINATORS.has(t.lower)

/** Whether the family is what an act of care is done to or for, in the words after it. */
function forTheFamily(tokens: readonly Token[], from: number, people: PeopleLexicon | undefined): boolean {
  for (let j = from; j < tokens.length && j < from + 8; j++) {
    const t = tokens[j]!
    if (endsObject(t)) break
    if (FAMILY_WORDS.has(t.lower) || people?.kin.has(t.lower) || people?.kin.has(t.lemma)) return true
  }
  return false
}

/**
 * A person as the object of losing is a death ("we lost Dad", "lost her husband last year"), not a failure; a
 * possessor is not the object ("lost my father's dog tags").
 */
function personAfter(tokens: readonly Token[], from: number, people: PeopleLexicon | undefined): boolean {
  for (let j = from; j < tokens.length && j < from + 3; j++) {
    const t = tokens[j]!
    if (tokens[j + 1]?.lower === "'s") return false
    if (t.pos === 'PROPN' || ['him', 'her', 'them'].includes(t.lower) || people?.kin.has(t.lower) || people?.kin.has(t.lemma)) return true
    if (t.pos === 'NOUN') return people?.persons.has(t.lemma) === true
  }
  return false
}

/**
 * Whether a term names a task of another aspect than the people aspects ("the obituary", "the paperwork"): not a
 * setting ("at the graveside"), and not a word of failure itself ("misspelled" is a term of the paperwork too).
 */
export function names(tokens: readonly Token[], h: TermHit, lexicon: EventLexicon): boolean {
  if (h.setting || PEOPLE_ASPECTS.has(h.aspect)) return false
  for (let k = h.start; k < h.end; k++) if (lexicon.faults.has(tokens[k]!.lower) || lexicon.failure.has(tokens[k]!.lemma)) return false
  return true
}

/** A word that may begin an event: the first word of a verb or phrase of care, slight or failure, a fault, or "make". */
function candidate(t: Token, lexicon: EventLexicon): boolean {
  return lexicon.starts.has(t.lower) || lexicon.starts.has(t.lemma)
}

/** Whether a sentence holds a word of failure at all (only then does the task its other clauses name matter). */
export function mayFail(tokens: readonly Token[], lexicon: EventLexicon): boolean {
  return tokens.some((t) => lexicon.faults.has(t.lower) || lexicon.failure.has(t.lower) || lexicon.failure.has(t.lemma))
}

/** What an act is done to and for: the words after it, up to punctuation or a subordinate clause, at most eight. */
function objectSpan(tokens: readonly Token[], from: number): number {
  let j = from
  while (j < tokens.length && j < from + 8 && !endsObject(tokens[j]!)) j++
  return j
}

/** The words that open a purpose or a reason (purposeAt). */
const PURPOSES = new Set(['so', 'because'])
const PURPOSE_MODALS = new Set(['could', 'would', 'can', 'might'])
const UNABLE = new Set(['could', 'can', 'was', 'were', 'did'])

/**
 * An act done so that the family could do something, or be spared something, or because they could not: "called when
 * it was done so we wouldn't be waiting by the phone", "worked together so my son could be seen by his grandmother",
 * "came to my house because I couldn't drive". Whatever the act, the family's good or need is why it was done (and
 * not the family's own act: the caller checks who did it). Returns the length of "so (that)" or "because".
 */
function purposeAt(tokens: readonly Token[], i: number, people: PeopleLexicon | undefined): number {
  const so = tokens[i]!.lower === 'so'
  if (!so && tokens[i]!.lower !== 'because') return 0
  const n = so && tokens[i + 1]?.lower === 'that' ? 2 : 1
  let j = i + n
  if (tokens[j]?.lower === 'my' || tokens[j]?.lower === 'our') j++
  const who = tokens[j]
  const family = who !== undefined && (FIRST_PERSON.has(who.lower) || ['he', 'she', 'everyone'].includes(who.lower) || isFamily(who, people))
  const why = so ? PURPOSE_MODALS.has(tokens[j + 1]?.lower ?? '') : UNABLE.has(tokens[j + 1]?.lower ?? '') && tokens[j + 2]?.lower === 'not'
  return family && why ? n : 0
}

/** Things handed over or made room with ("carried Mom's chair", "a glass of water and a chair"): not the facilities' aspect. */
const THINGS = 'facilities'

/**
 * Events of a clause that judge compassion or professionalism, as terms with a sign; and the terms an act of care
 * makes into plain objects (the chair it carried), to be dropped. `terms` are the clause's other terms; `taken` are
 * tokens other phrases claimed; `task` says whether a clause of the sentence names a task other than the people
 * aspects ("getting the certificates was a nightmare: they were mailed to the wrong address"): a failure belongs to
 * that task. An act of care belongs to a task named in what it is done to ("helped us with the paperwork").
 */
export function eventHits(
  tokens: readonly Token[],
  lexicon: EventLexicon,
  people: PeopleLexicon | undefined,
  terms: readonly TermHit[],
  taken: ReadonlySet<number>,
  task: boolean
): { hits: TermHit[]; objects: TermHit[] } {
  const hits: TermHit[] = []
  const objects: TermHit[] = []
  if (!tokens.some((t) => candidate(t, lexicon) || PURPOSES.has(t.lower))) return { hits, objects }
  const failures = !task && !terms.some((h) => names(tokens, h, lexicon))
  const has = new Set(terms.map((h) => h.aspect))
  const claimed = new Set(taken)
  for (const h of terms) if (PEOPLE_ASPECTS.has(h.aspect)) for (let k = h.start; k < h.end; k++) claimed.add(k)
  for (let i = 0; i < tokens.length; i++) {
    if (claimed.has(i)) continue
    const t = tokens[i]!
    if (PURPOSES.has(t.lower)) {
      // The purpose says the act was done for the family, whoever did it and however it is told ("it was done so we...").
      const purpose = purposeAt(tokens, i, people)
      if (!purpose || has.has(CARE) || terms.some((h) => h.start <= i && i < h.end) || isFamily(doer(tokens, i), people)) continue
      hits.push({ aspect: CARE, start: i, end: i + purpose, sign: 1 })
      has.add(CARE)
      continue
    }
    if (!candidate(t, lexicon) || isFamily(doer(tokens, i), people)) continue
    if (failures && !has.has(FAILURE)) {
      const n = phraseAt(lexicon.failure, tokens, i) || (lexicon.faults.has(t.lower) && (t.pos === 'ADJ' || t.pos === 'VERB') ? 1 : 0)
      if (n && !(t.lemma === 'lose' && personAfter(tokens, i + n, people))) {
        hits.push({ aspect: FAILURE, start: i, end: i + n, sign: -1 })
        has.add(FAILURE)
        i += n - 1
        continue
      }
    }
    if (has.has(CARE) || terms.some((h) => h.start <= i && i < h.end) || !byPerson(tokens, i, people)) continue
    // A slight judges the staff's manner when the family is who it is aimed at ("sighed at me", "lectured my mother").
    const slighted = phraseAt(lexicon.slight, tokens, i)
    if (slighted && forTheFamily(tokens, i + slighted, people)) {
      hits.push({ aspect: CARE, start: i, end: i + slighted, sign: -1 })
      has.add(CARE)
      i += slighted - 1
      continue
    }
    const n = phraseAt(lexicon.care, tokens, i)
    const made = t.lemma === 'make' && t.pos === 'VERB' && tokens.slice(i + 1, i + 5).some((x) => MADE.has(x.lower))
    if (!n && !made) continue
    const end = objectSpan(tokens, i + (n || 1))
    const inside = terms.filter((h) => h.start >= i && h.start < end && !h.setting)
    if (inside.some((h) => h.aspect !== THINGS && names(tokens, h, lexicon))) continue
    if (made || forTheFamily(tokens, i + n, people)) {
      hits.push({ aspect: CARE, start: i, end: i + (n || 1), sign: 1 })
      objects.push(...inside.filter((h) => h.aspect === THINGS))
      has.add(CARE)
      i += (n || 1) - 1
    }
  }
  return { hits, objects }
}
