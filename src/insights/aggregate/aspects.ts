import type { AspectDefinition, InsightsDocument, ReviewAnalysis } from '../../domain/index.js'
import type { ReviewWork } from '../analyze.js'
import { pct, round3 } from './numbers.js'

export type AspectInsight = InsightsDocument['aspects'][number]

/** How one aspect fares across reviews; also what the FAQ and summary quote from. */
export interface AspectStats {
  insight: AspectInsight
  /** Most used phrasings in reviews positive / negative about the aspect. */
  praise: string[]
  complaints: string[]
  /** The reviews most positive / negative about it, strongest first (at most 5: what is cited). */
  positiveIds: string[]
  negativeIds: string[]
}

/** Example and cited reviews per polarity: the FAQ cites at most 4, the aspect lists 3 and 2. */
const TOP = 5

/** The few strongest mentions, kept while scanning: strongest first, then by review id (deterministic). */
class Strongest {
  readonly items: { w: ReviewWork; strength: number }[] = []

  offer(w: ReviewWork, strength: number): void {
    const items = this.items
    if (items.length === TOP && !before(w, strength, items[TOP - 1]!)) return
    let i = items.length
    while (i > 0 && before(w, strength, items[i - 1]!)) i--
    items.splice(i, 0, { w, strength })
    if (items.length > TOP) items.pop()
  }

  ids(): string[] {
    return this.items.map((x) => x.w.id)
  }
}

const before = (w: ReviewWork, strength: number, other: { w: ReviewWork; strength: number }) =>
  strength > other.strength || (strength === other.strength && byId(w, other.w) < 0)

interface Accumulator {
  count: Record<ReviewAnalysis['aspects'][number]['sentiment'], number>
  mentions: number
  scoreSum: number
  positives: Strongest
  negatives: Strongest
  phrases: Map<string, PhraseCount>
}

/** Every aspect's statistics from one pass over the reviews (100,000 reviews: one pass, no sorting of them). */
export function aspectStats(defs: readonly AspectDefinition[], works: readonly ReviewWork[]): AspectStats[] {
  const acc = new Map<string, Accumulator>(
    defs.map((d) => [d.id, { count: { positive: 0, negative: 0, neutral: 0, mixed: 0 }, mentions: 0, scoreSum: 0, positives: new Strongest(), negatives: new Strongest(), phrases: new Map() }])
  )
  for (const w of works) {
    for (const a of w.analysis.aspects) {
      const x = acc.get(a.id)
      if (!x) continue
      x.count[a.sentiment]++
      x.mentions++
      x.scoreSum += a.score
      if (a.sentiment === 'positive') x.positives.offer(w, a.score)
      else if (a.sentiment === 'negative') x.negatives.offer(w, -a.score)
    }
    countPhrases(w, acc)
  }
  return defs.map((def) => statsOf(def, acc.get(def.id)!))
}

function statsOf(def: AspectDefinition, x: Accumulator): AspectStats {
  const phrasesOf = (polarity: Polarity | null) => topPhrases(x.phrases, polarity, 5)
  const positiveIds = x.positives.ids()
  const negativeIds = x.negatives.ids()
  return {
    insight: {
      id: def.id,
      label: def.label,
      mention_count: x.mentions,
      positive_count: x.count.positive,
      neutral_count: x.count.neutral + x.count.mixed,
      negative_count: x.count.negative,
      positive_pct: pct(x.count.positive, x.mentions),
      score: round3(x.mentions ? x.scoreSum / x.mentions : 0),
      top_phrases: phrasesOf(null),
      example_review_ids: [...positiveIds.slice(0, 3), ...negativeIds.slice(0, 2)]
    },
    praise: phrasesOf('positive'),
    complaints: phrasesOf('negative'),
    positiveIds,
    negativeIds
  }
}

const byId = (a: ReviewWork, b: ReviewWork) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

type Polarity = 'positive' | 'negative'

interface PhraseCount {
  count: number
  positive: number
  negative: number
  judged: boolean
  surfaces: Map<string, number>
}

/** How often each phrasing (by its content words) is used about each aspect, overall and by the review's polarity. */
function countPhrases(w: ReviewWork, acc: Map<string, Accumulator>): void {
  for (const u of w.phrases) {
    const x = acc.get(u.aspect)
    const sentiment = w.analysis.aspects.find((a) => a.id === u.aspect)?.sentiment
    if (!x || !sentiment || !u.key) continue
    let e = x.phrases.get(u.key)
    if (!e) x.phrases.set(u.key, (e = { count: 0, positive: 0, negative: 0, judged: u.judged, surfaces: new Map() }))
    e.count++
    if (sentiment === 'positive') e.positive++
    else if (sentiment === 'negative') e.negative++
    e.surfaces.set(u.surface, (e.surfaces.get(u.surface) ?? 0) + 1)
  }
}

/**
 * The phrasings most reviews share; phrases of two words or more come first because "chapel" alone says less than
 * "chapel was spotless", and for praise and criticism, phrases that hold the judging words come first.
 */
function topPhrases(byKey: Map<string, PhraseCount>, polarity: Polarity | null, n: number): string[] {
  const uses = (e: PhraseCount) => (polarity ? e[polarity] : e.count)
  const rank = (k: string, e: PhraseCount) => (polarity && e.judged ? 2 : 0) + (k.includes(' ') ? 1 : 0)
  return [...byKey]
    .filter(([, e]) => uses(e) > 0)
    .sort(([ka, a], [kb, b]) => rank(kb, b) - rank(ka, a) || uses(b) - uses(a) || (ka < kb ? -1 : 1))
    .slice(0, n)
    .map(([, e]) => [...e.surfaces].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]![0])
}
