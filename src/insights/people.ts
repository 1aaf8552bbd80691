/**
 * Plain judgements of people's conduct ("everyone was considerate", "so tactful", "they seemed scatterbrained", "curt on
 * the phone"). An adjective of the people lexicon (grown from WordNet, see scripts/build-lexicon.ts) judges its aspect
 * (compassion, professionalism) when what it describes is a person, or when the sentence names nothing it describes
 * ("So tactful.", "Attentive, patient and thorough."): in a review of a funeral home, that is the staff. Said of a thing
 * ("the chapel was cold", "a warm room") it is left to that thing's aspect.
 */
import type { Token } from './nlp.js'
import type { TermHit } from './taxonomy.js'

export interface PeopleLexicon {
  /** Adjective (or short phrase) -> the aspect it judges and its sign. */
  adjectives: Map<string, { aspect: string; sign: number }>
  /** Nouns for people (WordNet noun.person, and groups such as "staff"). */
  persons: ReadonlySet<string>
  /**
   * Phrases of more than one word by their first word, as the tokenizer splits them ("level-headed" is "level", "-",
   * "headed"), longest first: matched word by word, with no string built per token.
   */
  phrases: ReadonlyMap<string, readonly { words: readonly string[]; entry: { aspect: string; sign: number } }[]>
  /** The family's words for its own ("mom", "my brother", "grandpa"): an adjective said of them describes them. */
  kin: ReadonlySet<string>
}

export function peopleLexicon(adjectives: Record<string, readonly [string, number] | [string, number]>, persons: readonly string[], kin: readonly string[] = []): PeopleLexicon {
  const map = new Map(Object.entries(adjectives).map(([w, [aspect, sign]]) => [w, { aspect, sign }]))
  const phrases = new Map<string, { words: string[]; entry: { aspect: string; sign: number } }[]>()
  for (const [key, entry] of map) {
    if (!/[ -]/.test(key)) continue
    const words = key.split(/\s+|(-)/).filter((w) => w)
    phrases.set(words[0]!, [...(phrases.get(words[0]!) ?? []), { words, entry }].sort((a, b) => b.words.length - a.words.length))
  }
  return { adjectives: map, persons: new Set(persons), phrases, kin: new Set(kin) }
}

/** How the family was made to feel ("we felt rushed", "made us feel welcome") judges the staff's manner, not their competence. */
const FELT = 'compassion'

/** Verbs that link a subject to what describes it: "was curt", "seemed scatterbrained", "came across as clueless". */
const LINKING = new Set(['be', 'seem', 'feel', 'look', 'sound', 'appear', 'remain', 'stay', 'become', 'get', 'act', 'come'])
/** The reviewer and family: "made us feel rushed" judges whoever made them feel so. */
const FAMILY = new Set(['i', 'we', 'us', 'me', 'my', 'our'])
const THINGS = new Set(['it', 'itself', 'this', 'that', 'everything', 'something', 'nothing', 'which', 'what'])
const SKIPPED = new Set(['ADV', 'ADJ', 'CCONJ', 'PART', 'DET', 'AUX', 'ADP'])
/** Words between a linking verb and its adjective: "came across as clueless", "was a bit abrupt". */
const BETWEEN = new Set([',', 'as', 'a', 'bit', 'little', 'tad', 'lot', 'so', 'such'])

/**
 * What an adjective describes: a person (the staff), a thing, nothing named (the staff), the reviewer and family as
 * "we" (how they were made to feel), or a member of the family or the deceased ("my lovely mother"), whom it describes.
 */
type Target = 'person' | 'thing' | 'none' | 'us' | 'family'

/** People-adjectives of a clause that judge their aspect, as terms that judge by themselves (like "on time"). */
export function peopleHits(tokens: readonly Token[], lexicon: PeopleLexicon, taken: ReadonlySet<number>): TermHit[] {
  const hits: TermHit[] = []
  for (let i = 0; i < tokens.length; i++) {
    const found = adjectiveAt(tokens, i, lexicon)
    if (!found || taken.has(i)) continue
    const { entry, length } = found
    const target = targetOf(tokens, i, i + length, lexicon)
    const judges = target === 'person' || target === 'none' || (target === 'us' && entry.aspect === FELT)
    if (judges) hits.push({ aspect: entry.aspect, start: i, end: i + length, sign: entry.sign })
    i += length - 1
  }
  return hits
}

function adjectiveAt(tokens: readonly Token[], i: number, lexicon: PeopleLexicon) {
  const t = tokens[i]!
  // Phrases as written: "on the ball", "level-headed".
  for (const { words, entry } of lexicon.phrases.get(t.lower) ?? []) {
    if (words.every((w, k) => tokens[i + k]?.lower === w)) return { entry, length: words.length }
  }
  const entry = lexicon.adjectives.get(t.lower) ?? lexicon.adjectives.get(t.lemma)
  if (!entry) return undefined
  // One word must be used as an adjective. The tagger takes a capitalised first word for a name ("Dismissive."); a
  // participle or a word it does not know after a linking verb or beside an adjective for a verb or a noun ("were
  // discreet and composed", "were snippy"); an adjective before a noun for people for an adverb ("kindly people").
  const used =
    t.pos === 'ADJ' ||
    (i === 0 && t.pos === 'PROPN') ||
    (t.pos === 'VERB' && t.lower.endsWith('ed') && predicative(tokens, i)) ||
    (t.pos === 'NOUN' && !lexicon.persons.has(t.lemma) && tokens[i + 1]?.pos !== 'NOUN' && predicative(tokens, i)) ||
    (t.pos === 'ADV' && ['NOUN', 'PROPN', 'VERB'].includes(tokens[i + 1]?.pos ?? '') && lexicon.persons.has(tokens[i + 1]!.lower))
  return used ? { entry, length: 1 } : undefined
}

/** A word used as an adjective after a linking verb (and adverbs), or joined to an adjective by "and" or a comma. */
function predicative(tokens: readonly Token[], i: number): boolean {
  let k = i - 1
  while (k >= 0 && (tokens[k]!.pos === 'ADV' || BETWEEN.has(tokens[k]!.lower))) k--
  const before = tokens[k]
  if (before && (before.pos === 'AUX' || before.pos === 'VERB') && LINKING.has(before.lemma)) return true
  return (before?.pos === 'CCONJ' || before?.lower === ',') && tokens[k - 1]?.pos === 'ADJ'
}

const superlative = (t: Token) => t.lower !== t.lemma && t.lower.endsWith('est')

function kindOf(t: Token, lexicon: PeopleLexicon): Target | undefined {
  if (FAMILY.has(t.lower)) return 'us'
  if (THINGS.has(t.lower)) return 'thing'
  if (t.pos === 'PRON') return lexicon.persons.has(t.lower) ? 'person' : undefined
  if ((t.pos === 'NOUN' || t.pos === 'PROPN') && (lexicon.kin.has(t.lower) || lexicon.kin.has(t.lemma))) return 'family'
  // A capitalised name inside a sentence is a person ("Priya was so tactful"); names of places rarely take these words.
  if (t.pos === 'PROPN') return 'person'
  if (t.pos === 'NOUN') return lexicon.persons.has(t.lemma) || lexicon.persons.has(t.lower) ? 'person' : 'thing'
  // The tagger sometimes takes a noun for people for a verb ("Very kindly people.").
  if (t.pos === 'VERB' && lexicon.persons.has(t.lower)) return 'person'
  return undefined
}

/**
 * What the adjective at [start, end) describes: the noun it modifies ("kind, patient staff"), the subject a linking
 * verb joins it to ("the staff at the desk were snippy", "they seemed scatterbrained"), or the word just before it
 * ("found them curt"); 'none' when the sentence names nothing ("So tactful.").
 */
function targetOf(tokens: readonly Token[], start: number, end: number, lexicon: PeopleLexicon): Target {
  // After "the" the adjective is a noun ("stood around in the cold"), unless it is a superlative: "the kindest", "Also
  // the coldest" say who was so.
  const the = tokens[start - 1]?.lower === 'the'
  if (the && !superlative(tokens[start]!)) return 'thing'
  // Followed by an infinitive it judges a situation: "Nice to know that...", "lovely to see everyone".
  if (tokens[end]?.lower === 'to' && (tokens[end + 1]?.pos === 'VERB' || tokens[end + 1]?.pos === 'AUX')) return 'thing'
  // Attributive: the noun after a run of adjectives ("warm, genuine people", "a clean, bright building"); a person
  // that a linking verb says the subject is takes the subject's kind ("Dad was a kind, gentle man").
  for (let j = end; j < tokens.length && j < end + 4; j++) {
    const t = tokens[j]!
    const kind = t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'VERB' ? kindOf(t, lexicon) : undefined
    if (kind === 'person' && ['a', 'an'].includes(tokens[start - 1]?.lower ?? '') && LINKING.has(tokens[start - 2]?.lemma ?? '')) {
      const subject = subjectOf(tokens, start - 2, lexicon)
      return subject === 'family' ? 'family' : 'person'
    }
    if (kind) return kind
    if (t.pos === 'NOUN' || t.pos === 'PROPN') return 'none'
    // Only a run of adjectives leads to the noun: "kind, patient staff", not "lovely and Bea got".
    const joins = (t.pos === 'CCONJ' || t.lower === ',') && ['ADJ', 'ADV'].includes(tokens[j + 1]?.pos ?? '')
    if (!(t.pos === 'ADJ' || t.pos === 'ADV' || joins)) break
  }
  // Predicative: back over adverbs and other adjectives to a linking verb, then its subject.
  let k = the ? start - 2 : start - 1
  while (k >= 0 && (['ADV', 'ADJ', 'CCONJ', 'PART'].includes(tokens[k]!.pos) || BETWEEN.has(tokens[k]!.lower))) k--
  const verb = tokens[k]
  if (verb && (verb.pos === 'AUX' || verb.pos === 'VERB') && LINKING.has(verb.lemma)) return subjectOf(tokens, k, lexicon)
  // An object complement: "found them curt", "I found her so tactful".
  if (verb) return kindOf(verb, lexicon) ?? 'none'
  return 'none'
}

/**
 * The subject before a linking verb. Its head is the noun before any preposition ("the staff at the desk" is the staff,
 * "the eulogy by their celebrant" the eulogy; "the rest of the staff" the staff), not a possessor ("Bea's service" is
 * the service); of several heads ("the flowers and the staff"), a person counts first.
 */
function subjectOf(tokens: readonly Token[], verb: number, lexicon: PeopleLexicon): Target {
  // Back from the verb, one segment per preposition passed; the subject's head is in the leftmost one that has a noun.
  const segments: Target[][] = [[]]
  for (let j = verb - 1; j >= 0; j--) {
    const t = tokens[j]!
    if (t.lower === 'who') return 'person'
    if (t.pos === 'ADP' && t.lower !== 'of') {
      segments.push([])
      continue
    }
    // A possessor ("Bea's service", "her hair", "their celebrant") is not the head.
    const possessor = tokens[j + 1]?.lower === "'s" || (t.pos === 'PRON' && ['NOUN', 'PROPN', 'ADJ', 'NUM'].includes(tokens[j + 1]?.pos ?? ''))
    const kind = possessor ? undefined : kindOf(t, lexicon)
    if (kind) segments.at(-1)!.push(kind)
    else if (!possessor && !SKIPPED.has(t.pos) && t.pos !== 'NUM' && t.lower !== "'s") break
  }
  const heads = segments.findLast((s) => s.length > 0) ?? []
  for (const k of ['person', 'family', 'us', 'thing'] as const) if (heads.includes(k)) return k
  return 'none'
}
