import { valence } from './lexicon.js'
import type { Sentence, Token } from './nlp.js'

/** Nouns too general to make a theme: people, time, the business itself. */
const GENERIC = new Set(
  `family mom dad mother father husband wife son daughter brother sister grandma grandpa grandmother grandfather aunt
  uncle parent parents child children kid kids baby people person staff team everyone everything anyone anything
  someone something thing things time day days week weeks month months year years way lot bit home place part job
  experience process care help question questions thank thanks heart life love death loss funeral service services
  business company owner owners man woman lady gentleman guy folks friend friends end moment moments minute minutes
  hour hours night morning today yesterday word words number fact reason situation whole kind none other others
  matter need needs point side sense idea`.split(/\s+/)
)

function isContent(t: Token): boolean {
  return /^[a-z][a-z'-]+$/.test(t.lemma) && !GENERIC.has(t.lemma)
}

/**
 * Noun phrases a review uses ("death certificate", "parking lot", "flag ceremony"): adjectives without sentiment
 * followed by nouns, lemmatised, one to three words. Names and evaluative adjectives are left out so themes are
 * about things, not praise.
 */
export function keyphrases(sentences: readonly Sentence[]): string[] {
  const found = new Set<string>()
  for (const s of sentences) {
    let run: Token[] = []
    const flush = () => {
      while (run.length && run[0]!.pos === 'ADJ' && valence(run[0]!.lower, run[0]!.lemma) !== 0) run.shift()
      const nouns = run.filter((t) => t.pos === 'NOUN')
      if (nouns.length && run.at(-1)!.pos === 'NOUN' && run.length <= 3 && run.every(isContent)) found.add(run.map((t) => t.lemma).join(' '))
      run = []
    }
    for (const t of s.tokens) {
      if (t.pos === 'NOUN' || (t.pos === 'ADJ' && !run.some((x) => x.pos === 'NOUN'))) run.push(t)
      else flush()
    }
    flush()
  }
  return [...found].sort()
}
