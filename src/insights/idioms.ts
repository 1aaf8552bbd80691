import type { Token } from './nlp.js'

/**
 * Multi-word expressions whose meaning is not the sum of their words. Each word is a surface form or lemma;
 * "*" matches any one word. `valence` null means "no judgement of the business" (grief phrasing, hedges), and
 * `blocksAspects` stops their words from being read as aspect terms ("kind of", "a lot", "paid respects").
 */
interface Idiom {
  words: string[]
  valence: number | null
  hedge?: boolean
  blocksAspects?: boolean
}

const TIME_NOUNS = ['time', 'times', 'day', 'days', 'week', 'weeks', 'moment', 'moments', 'period', 'season', 'year', 'night', 'process', 'situation', 'loss', 'chapter']
const HARD = ['hard', 'hardest', 'difficult', 'tough', 'toughest', 'awful', 'terrible', 'worst', 'sad', 'saddest', 'painful', 'dark', 'darkest', 'horrible', 'unimaginable', 'devastating', 'emotional', 'stressful', 'overwhelming', 'confusing', 'scary', 'surreal']

const IDIOMS: Idiom[] = [
  ...HARD.flatMap((h) => TIME_NOUNS.map((n) => ({ words: [h, n], valence: null }))),
  ...HARD.flatMap((h) => TIME_NOUNS.map((n) => ({ words: [h, '*', n], valence: null }))),
  { words: ['worst', 'day', 'of'], valence: null },
  { words: ['hard', 'of', 'hearing'], valence: null },
  { words: ['talk', 'down'], valence: -0.5 },
  { words: ['out', 'of', 'order'], valence: -0.5 },
  // Having to chase them, or wishing they had done something, is criticism of what they did not do.
  ...['call', 'chase', 'ask', 'remind', 'beg', 'push', 'follow', 'track', 'hunt'].flatMap((v) => [
    { words: ['have', 'to', v], valence: -0.4 },
    { words: ['have', 'to', 'keep', v], valence: -0.5 }
  ]),
  { words: ['glance', 'at', 'the', 'clock'], valence: -0.5 },
  { words: ['look', 'at', 'the', 'clock'], valence: -0.5 },
  { words: ['watch', 'the', 'clock'], valence: -0.5 },
  { words: ['glance', 'at', '*', 'watch'], valence: -0.5 },
  { words: ['look', 'at', '*', 'watch'], valence: -0.5 },
  { words: ['check', '*', 'watch'], valence: -0.5 },
  { words: ['roll', '*', 'eye'], valence: -0.6 },
  { words: ['these', 'things', 'happen'], valence: -0.5 },
  // Doing what nobody asked for is care, not a failure to act.
  { words: ['not', 'even', 'ask'], valence: 0.4 },
  { words: ['without', 'be', 'ask'], valence: 0.4 },
  { words: ['without', 'being', 'asked'], valence: 0.4 },
  { words: ['without', 'us', 'ask'], valence: 0.4 },
  { words: ['without', 'asking'], valence: 0.3 },
  { words: ['before', 'we', 'ask'], valence: 0.4 },
  { words: ['before', 'i', 'ask'], valence: 0.4 },
  { words: ['before', 'we', 'even', 'ask'], valence: 0.4 },
  { words: ['stay', 'late'], valence: 0.4, blocksAspects: true },
  // Staff who left late stayed for the family ("Arrived early, left late"): still a word on their time.
  { words: ['leave', 'late'], valence: 0.4 },
  // "Nobody bothered to tell me": taking the trouble, an act that negation turns into neglect, not annoyance.
  { words: ['bother', 'to'], valence: 0 },
  { words: ['without', 'a', 'hitch'], valence: 0.5 },
  { words: ['run', 'a', 'tight', 'ship'], valence: 0.5 },
  { words: ['mean', 'the', 'world'], valence: 0.5 },
  { words: ['meant', 'the', 'world'], valence: 0.5 },
  { words: ['leave', 'off'], valence: -0.4 },
  { words: ['left', 'off'], valence: -0.4 },
  { words: ['leave', 'out'], valence: -0.4 },
  { words: ['left', 'out'], valence: -0.4 },
  { words: ['before', 'anyone'], valence: -0.3 },
  { words: ['before', 'someone'], valence: -0.3 },
  { words: ['wish', '*', 'have'], valence: -0.4 },
  { words: ['wish', '*', '*', 'have'], valence: -0.4 },
  { words: ['wish', 'they', 'would'], valence: -0.4 },
  { words: ['pass', 'away'], valence: null },
  { words: ['heart', 'attack'], valence: null, blocksAspects: true },
  { words: ['pay', 'respect'], valence: null, blocksAspects: true },
  { words: ['pay', 'their', 'respect'], valence: null, blocksAspects: true },
  { words: ['pay', 'tribute'], valence: null, blocksAspects: true },
  { words: ['a', 'lot'], valence: null, blocksAspects: true },
  { words: ['lot', 'of'], valence: null, blocksAspects: true },
  { words: ['kind', 'of'], valence: null, hedge: true, blocksAspects: true },
  { words: ['sort', 'of'], valence: null, hedge: true, blocksAspects: true },
  { words: ['a', 'bit'], valence: null, hedge: true },
  { words: ['a', 'little'], valence: null, hedge: true },
  { words: ['a', 'tad'], valence: null, hedge: true },
  { words: ['above', 'and', 'beyond'], valence: 0.8 },
  { words: ['worth', 'every', 'penny'], valence: 0.7 },
  { words: ['worth', 'every', 'cent'], valence: 0.7 },
  { words: ['second', 'to', 'none'], valence: 0.7 },
  { words: ['like', 'family'], valence: 0.5 },
  { words: ['peace', 'of', 'mind'], valence: 0.5 },
  { words: ['nothing', 'be', 'too', 'much', 'trouble'], valence: 0.7 },
  { words: ['nothing', 'was', 'too', 'much', 'trouble'], valence: 0.7 },
  { words: ['walk', 'us', 'through'], valence: 0.4 },
  { words: ['go', 'out', 'of', 'their', 'way'], valence: 0.6 },
  { words: ['out', 'of', 'their', 'way'], valence: 0.6 },
  { words: ['top', 'notch'], valence: 0.6 },
  { words: ['heart', 'of', 'gold'], valence: 0.6 },
  { words: ['take', 'forever'], valence: -0.6 },
  { words: ['fall', 'through', 'the', 'crack'], valence: -0.6 },
  { words: ['drop', 'the', 'ball'], valence: -0.6 },
  { words: ['nickel', 'and', 'dime'], valence: -0.6 },
  { words: ['bait', 'and', 'switch'], valence: -0.7 },
  { words: ['never', 'again'], valence: -0.6 },
  { words: ['leave', 'us', 'hanging'], valence: -0.5 },
  { words: ['in', 'the', 'dark'], valence: -0.4 },
  { words: ['could', 'not', 'care', 'less'], valence: -0.6 },
  { words: ['no', 'doubt'], valence: null },
  { words: ['not', 'only'], valence: null },
  { words: ['nothing', 'but'], valence: 0.3 },
  // Common English idioms of complaint.
  { words: ['be', 'a', 'joke'], valence: -0.6 },
  { words: ['be', 'a', '*', 'joke'], valence: -0.6 },
  { words: ['cash', 'grab'], valence: -0.6 },
  { words: ['money', 'grab'], valence: -0.6 },
  { words: ['like', 'pulling', 'teeth'], valence: -0.6 },
  { words: ['short', 'and', 'sweet'], valence: null, blocksAspects: true },
  // "No question", "without a single question": certainty and willingness, not communication.
  { words: ['no', 'question'], valence: null, blocksAspects: true },
  { words: ['without', 'question'], valence: 0.3, blocksAspects: true },
  { words: ['without', 'a', 'question'], valence: 0.3, blocksAspects: true },
  { words: ['without', 'a', '*', 'question'], valence: 0.3, blocksAspects: true }
]

const byFirst = new Map<string, Idiom[]>()
for (const idiom of IDIOMS.sort((a, b) => b.words.length - a.words.length)) {
  byFirst.set(idiom.words[0]!, [...(byFirst.get(idiom.words[0]!) ?? []), idiom])
}

export interface IdiomHit {
  start: number
  end: number
  valence: number | null
  hedge: boolean
  blocksAspects: boolean
}

const same = (t: Token | undefined, w: string) => t !== undefined && (w === '*' || t.lower === w || t.lemma === w)

/** The first of `idioms` whose words match at i. */
function idiomAt<D extends { words: readonly string[] }>(idioms: readonly D[] | undefined, tokens: readonly Token[], i: number): D | undefined {
  return idioms?.find((d) => d.words.every((w, k) => same(tokens[i + k], w)))
}

export function findIdioms(tokens: readonly Token[]): IdiomHit[] {
  const hits: IdiomHit[] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    const idiom = idiomAt(byFirst.get(t.lower), tokens, i) ?? (t.lemma !== t.lower ? idiomAt(byFirst.get(t.lemma), tokens, i) : undefined)
    if (!idiom) continue
    hits.push({ start: i, end: i + idiom.words.length, valence: idiom.valence, hedge: idiom.hedge ?? false, blocksAspects: idiom.blocksAspects ?? false })
    i += idiom.words.length - 1
  }
  return hits
}
