/**
 * Reviews written as lists: "Pros: the chapel, Priya. Cons: the bill", "Good:\n* ...\nNot good:\n* ...", "Only minus:
 * the tribute page". A heading says on which side each item is, so an item that names an aspect without judging it
 * ("the bill") takes the heading's side instead of the stars'.
 */
import type { Token } from './nlp.js'

const HEADINGS = new Map<string, number>([
  ...'pros pro plus pluses plusses positives upside upsides liked likes highlights'.split(' ').map((w) => [w, 1] as const),
  ...'cons con minus minuses negatives downside downsides disliked dislikes complaint complaints gripe gripes nitpick nitpicks issues problems'.split(' ').map((w) => [w, -1] as const)
])
/** Heading words that need "only" before them and "was" or "is" after: "The only thing was ...", "My only problem is ...". */
const ONLY_HEADINGS = new Set(['thing', 'problem', 'issue', 'complaint', 'downside', 'negative', 'gripe', 'letdown', 'drawback'])
/** Judging words that are headings only when nothing follows them but the stop: "Good:", "Not good:", "The bad -". */
const VERDICTS = new Map([['good', 1], ['bad', -1], ['great', 1], ['best', 1], ['worst', -1]])
/** Words that may come before a heading: "The good", "Only minus", "My one complaint", "Biggest gripe". */
const LEADING = new Set(['the', 'only', 'my', 'our', 'one', 'biggest', 'main', 'small', 'minor', 'a', 'few', 'some', 'not', 'so'])
const STOPS = new Set([':', '-', '–', '—', '='])
const ignorable = (t: Token) => t.pos === 'PUNCT' || t.pos === 'SYM' || t.pos === 'SPACE'

/**
 * The side (+1 or -1) of the heading a clause opens with, or 0: a heading word after at most two leading words, then
 * a stop or the end of the clause. "not" turns the side ("Not good:").
 */
export function headingSide(tokens: readonly Token[]): number {
  let i = tokens.findIndex((t) => !ignorable(t))
  if (i < 0) return 0
  let turned = 1
  for (let lead = 0; lead < 2 && LEADING.has(tokens[i]?.lower ?? '') && tokens[i + 1] && !ignorable(tokens[i + 1]!); lead++, i++) {
    if (tokens[i]!.lower === 'not') turned = -turned
  }
  const word = tokens[i]?.lower ?? ''
  const next = tokens[i + 1]
  if (tokens[i - 1]?.lower === 'only' && ONLY_HEADINGS.has(word) && next?.lemma === 'be') return -turned
  const ends = next === undefined || STOPS.has(next.lower) || (next.pos === 'SPACE' && next.value.includes('\n'))
  const side = HEADINGS.get(word) ?? (ends && !(next && next.lower === '-' && tokens[i + 2] === undefined) ? VERDICTS.get(word) : undefined)
  return side !== undefined && ends ? side * turned : 0
}
