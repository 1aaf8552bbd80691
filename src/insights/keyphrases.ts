import { valence } from './lexicon.js'
import type { Token } from './nlp.js'
import type { ScoredClause } from './scoring.js'

/** Nouns too general to make a theme: people, time, the business itself. */
const GENERIC = new Set(
  `family mom dad mother father husband wife son daughter brother sister grandma grandpa grandmother grandfather aunt
  uncle parent parents child children kid kids baby people person staff team everyone everything anyone anything
  someone something thing things time day days week weeks month months year years way lot bit home place part job
  experience process care help question questions thank thanks heart life love death loss funeral service services
  business company owner owners man woman lady gentleman guy folks friend friends end moment moments minute minutes
  hour hours night morning today yesterday word words number fact reason situation whole kind none other others
  matter need needs point side sense idea star stars review reviews name list dollar feeling spring fault car
  table screen middle rest front back top bottom couple few lot lots anybody everybody nobody somebody door half
  afternoon evening hand hands face head right first line county cousin director office house work law while nos
  goodbye answer paper fuss`.split(/\s+/)
)

/** A theme word: an ordinary lowercase word, not an everyday noun, and not itself a judgement ("complaint"). */
function isContent(t: Token): boolean {
  return /^[a-z][a-z'-]+$/.test(t.lemma) && !GENERIC.has(t.lemma) && (t.pos !== 'NOUN' || valence(t.lower, t.lemma) === 0)
}

export interface Keyphrase {
  /** Lemmas: "death certificate" for "death certificates". */
  key: string
  /** As written, lowercased. */
  surface: string
  /** A judgement sits within three words of it in the same clause. */
  judged: boolean
}

/**
 * Noun phrases a review uses ("death certificates", "parking lot", "flag"), with whether they are judged ("the chapel
 * was spotless"): adjectives without sentiment followed by nouns, one to three words. Names, evaluative adjectives
 * and everyday nouns are left out, so themes are about the things families single out.
 */
export function keyphrases(clauses: readonly ScoredClause[]): Keyphrase[] {
  const found = new Map<string, { surface: string; judged: boolean }>()
  for (const c of clauses) {
    let run: number[] = []
    const flush = () => {
      while (run.length && c.tokens[run[0]!]!.pos === 'ADJ' && valence(c.tokens[run[0]!]!.lower, c.tokens[run[0]!]!.lemma) !== 0) run.shift()
      const words = run.map((i) => c.tokens[i]!)
      const judged = run.length > 0 && c.valences.some((v, j) => v !== 0 && j >= run[0]! - 3 && j <= run.at(-1)! + 3)
      if (words.at(-1)?.pos === 'NOUN' && words.length <= 3 && words.every(isContent)) {
        const key = words.map((t) => t.lemma).join(' ')
        const before = found.get(key)
        found.set(key, { surface: before?.surface ?? words.map((t) => t.lower).join(' '), judged: judged || (before?.judged ?? false) })
      }
      run = []
    }
    c.tokens.forEach((t, i) => {
      if (t.pos === 'NOUN' || (t.pos === 'ADJ' && !run.some((j) => c.tokens[j]!.pos === 'NOUN'))) run.push(i)
      else flush()
    })
    flush()
  }
  return [...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, f]) => ({ key, ...f }))
}
