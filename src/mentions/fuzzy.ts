import { doubleMetaphone } from 'double-metaphone'
import { distance } from 'fastest-levenshtein'

/** Edits tolerated for a word of this length: short names must be exact, longer ones may be misspelt. */
function maxEdits(length: number): number {
  return length <= 4 ? 0 : length <= 7 ? 1 : 2
}

interface Candidate {
  word: string
  codes: readonly string[]
}

/**
 * Words remembered per question (both are pure functions of the word, asked for every word of every review scanned):
 * past this many the memory starts afresh.
 */
const REMEMBERED = 50_000

/** Finds the one name word a misspelt word most likely stands for, or null if none or several fit equally. */
export class FuzzyNames {
  private readonly candidates: Candidate[]
  private readonly nearOf = new Map<string, string[]>()
  private readonly matchOf = new Map<string, string | null>()

  constructor(words: Iterable<string>) {
    this.candidates = [...new Set(words)].filter((w) => w.length >= 5).map((word) => ({ word, codes: doubleMetaphone(word) }))
  }

  /**
   * Name words within two edits of `word` with the same first letter: looser than match(), so only used where the
   * rest of a full name matches exactly ("Beatrice Lund" for Beatrix Lund).
   */
  near(word: string): readonly string[] {
    if (word.length < 4) return NONE
    return remembered(this.nearOf, word, () => this.candidates.filter((c) => c.word[0] === word[0] && distance(word, c.word) <= 2).map((c) => c.word))
  }

  match(word: string): string | null {
    if (word.length < 4) return null
    return remembered(this.matchOf, word, () => this.closest(word))
  }

  private closest(word: string): string | null {
    let codes: readonly string[] | null = null
    let best: string | null = null
    let bestDistance = Infinity
    let tie = false
    for (const c of this.candidates) {
      const d = distance(word, c.word)
      // A name with one letter dropped is a common slip even when short: "Pria" for Priya.
      const dropped = word.length === 4 && c.word.length === 5 && d === 1
      const close = dropped || d <= maxEdits(Math.min(word.length, c.word.length))
      // Sound-alike spellings ("Hollace" for "Hollis") need the same first letter and a few edits, fewer than half
      // the word's letters: "small" is three edits from "Samuel" and sounds alike, but it is another word.
      const soundsAlike = !close && d <= 3 && 2 * d < word.length && word[0] === c.word[0] && sharesCode((codes ??= doubleMetaphone(word)), c.codes)
      if (!close && !soundsAlike) continue
      if (d < bestDistance) [best, bestDistance, tie] = [c.word, d, false]
      else if (d === bestDistance && c.word !== best) tie = true
    }
    return tie ? null : best
  }
}

const NONE: readonly string[] = Object.freeze([])

function remembered<T>(memory: Map<string, T>, word: string, answer: () => T): T {
  if (memory.has(word)) return memory.get(word)!
  if (memory.size >= REMEMBERED) memory.clear()
  const value = answer()
  memory.set(word, value)
  return value
}

/**
 * Same Double Metaphone key, or one a prefix of the other ("Rosalyn" RSLN, "Rosalind" RSLNT) when the shorter has three
 * sounds or more: a two-sound key is the start of too many words ("Pros", "Priced", "Period", "private" all begin
 * with Priya's PR).
 */
function sharesCode(a: readonly string[], b: readonly string[]): boolean {
  const prefix = (x: string, y: string) => x === y || (Math.min(x.length, y.length) >= 3 && (x.startsWith(y) || y.startsWith(x)))
  return a.some((x) => x.length > 1 && b.some((y) => y.length > 1 && prefix(x, y)))
}
