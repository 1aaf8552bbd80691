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
  /** First words of the phrases of more than one word ("on" of "on the ball"): only they need a longer look. */
  phraseStarts: ReadonlySet<string>
}

export function peopleLexicon(adjectives: Record<string, readonly [string, number] | [string, number]>, persons: readonly string[]): PeopleLexicon {
  const map = new Map(Object.entries(adjectives).map(([w, [aspect, sign]]) => [w, { aspect, sign }]))
  const phraseStarts = new Set([...map.keys()].filter((w) => w.includes(' ')).map((w) => w.split(' ')[0]!))
  return { adjectives: map, persons: new Set(persons), phraseStarts }
}

/** Verbs that link a subject to what describes it: "was curt", "seemed scatterbrained", "came across as clueless". */
const LINKING = new Set(['be', 'seem', 'feel', 'look', 'sound', 'appear', 'remain', 'stay', 'become', 'get', 'act', 'come'])
/** The reviewer and family: "made us feel rushed" judges whoever made them feel so. */
const FAMILY = new Set(['i', 'we', 'us', 'me', 'my', 'our'])
const THINGS = new Set(['it', 'this', 'that', 'everything', 'something', 'nothing', 'which', 'what'])
const SKIPPED = new Set(['ADV', 'ADJ', 'CCONJ', 'PART', 'DET', 'AUX', 'ADP'])
/** Words between a linking verb and its adjective: "came across as clueless", "was a bit abrupt". */
const BETWEEN = new Set([',', 'as', 'a', 'bit', 'little', 'tad', 'lot', 'so', 'such'])

type Target = 'person' | 'thing' | 'none'

/** People-adjectives of a clause that judge their aspect, as terms that judge by themselves (like "on time"). */
export function peopleHits(tokens: readonly Token[], lexicon: PeopleLexicon, taken: ReadonlySet<number>): TermHit[] {
  const hits: TermHit[] = []
  for (let i = 0; i < tokens.length; i++) {
    const found = adjectiveAt(tokens, i, lexicon)
    if (!found || taken.has(i)) continue
    const { entry, length } = found
    if (targetOf(tokens, i, i + length, lexicon) !== 'thing') hits.push({ aspect: entry.aspect, start: i, end: i + length, sign: entry.sign })
    i += length - 1
  }
  return hits
}

function adjectiveAt(tokens: readonly Token[], i: number, lexicon: PeopleLexicon) {
  const t = tokens[i]!
  if (lexicon.phraseStarts.has(t.lower)) {
    for (let n = Math.min(4, tokens.length - i); n > 1; n--) {
      const entry = lexicon.adjectives.get(tokens.slice(i, i + n).map((x) => x.lower).join(' '))
      if (entry) return { entry, length: n }
    }
  }
  // One word must be used as an adjective; wink takes a capitalised first word for a name ("Dismissive.").
  if (t.pos !== 'ADJ' && !(i === 0 && t.pos === 'PROPN')) return undefined
  const entry = lexicon.adjectives.get(t.lower) ?? lexicon.adjectives.get(t.lemma)
  return entry && { entry, length: 1 }
}

function kindOf(t: Token, lexicon: PeopleLexicon): Target | undefined {
  if (FAMILY.has(t.lower)) return 'none'
  if (THINGS.has(t.lower)) return 'thing'
  if (t.pos === 'PRON') return lexicon.persons.has(t.lower) ? 'person' : undefined
  // A capitalised name inside a sentence is a person ("Priya was so tactful"); names of places rarely take these words.
  if (t.pos === 'PROPN') return 'person'
  if (t.pos === 'NOUN') return lexicon.persons.has(t.lemma) || lexicon.persons.has(t.lower) ? 'person' : 'thing'
  return undefined
}

/**
 * What the adjective at [start, end) describes: the noun it modifies ("kind, patient staff"), the subject a linking
 * verb joins it to ("the staff at the desk were snippy", "they seemed scatterbrained"), or the word just before it
 * ("found them curt"); 'none' when the sentence names nothing ("So tactful.").
 */
function targetOf(tokens: readonly Token[], start: number, end: number, lexicon: PeopleLexicon): Target {
  // After "the" the adjective is a noun: "stood around in the cold".
  if (tokens[start - 1]?.lower === 'the') return 'thing'
  // Attributive: the noun after a run of adjectives ("warm, genuine people", "a clean, bright building").
  for (let j = end; j < tokens.length && j < end + 4; j++) {
    const t = tokens[j]!
    if (t.pos === 'NOUN' || t.pos === 'PROPN') return kindOf(t, lexicon) ?? 'none'
    if (!(t.pos === 'ADJ' || t.pos === 'ADV' || t.pos === 'CCONJ' || t.lower === ',')) break
  }
  // Predicative: back over adverbs and other adjectives to a linking verb, then its subject.
  let k = start - 1
  while (k >= 0 && (['ADV', 'ADJ', 'CCONJ', 'PART'].includes(tokens[k]!.pos) || BETWEEN.has(tokens[k]!.lower))) k--
  const verb = tokens[k]
  if (verb && (verb.pos === 'AUX' || verb.pos === 'VERB') && LINKING.has(verb.lemma)) return subjectOf(tokens, k, lexicon)
  // An object complement: "found them curt", "I found her so tactful".
  if (verb) return kindOf(verb, lexicon) ?? 'none'
  return 'none'
}

/** The subject before a linking verb: a person anywhere in its noun phrase ("the staff at the desk") makes it a person. */
function subjectOf(tokens: readonly Token[], verb: number, lexicon: PeopleLexicon): Target {
  let found: Target | undefined
  for (let j = verb - 1; j >= 0; j--) {
    const t = tokens[j]!
    if (t.lower === 'who') return 'person'
    const kind = kindOf(t, lexicon)
    if (kind === 'person' || kind === 'none') return kind
    if (kind === 'thing') found ??= 'thing'
    else if (!SKIPPED.has(t.pos) && t.pos !== 'NUM') break
  }
  return found ?? 'none'
}
