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
  positiveIds: string[]
  negativeIds: string[]
}

interface Mention {
  w: ReviewWork
  a: ReviewAnalysis['aspects'][number]
}

/** Every aspect's statistics from one pass over the reviews. */
export function aspectStats(defs: readonly AspectDefinition[], works: readonly ReviewWork[]): AspectStats[] {
  const byAspect = new Map<string, Mention[]>(defs.map((d) => [d.id, []]))
  for (const w of works) for (const a of w.analysis.aspects) byAspect.get(a.id)?.push({ w, a })
  return defs.map((def) => statsOf(def, byAspect.get(def.id)!))
}

function statsOf(def: AspectDefinition, mentions: Mention[]): AspectStats {
  const count = { positive: 0, negative: 0, neutral: 0, mixed: 0 }
  let scoreSum = 0
  for (const m of mentions) {
    count[m.a.sentiment]++
    scoreSum += m.a.score
  }
  const positives = mentions.filter((m) => m.a.sentiment === 'positive').sort((x, y) => y.a.score - x.a.score || byId(x.w, y.w))
  const negatives = mentions.filter((m) => m.a.sentiment === 'negative').sort((x, y) => x.a.score - y.a.score || byId(x.w, y.w))
  const phrases = countPhrases(def.id, mentions)
  const phrasesOf = (polarity: Polarity | null) => topPhrases(phrases, polarity, 5)
  return {
    insight: {
      id: def.id,
      label: def.label,
      mention_count: mentions.length,
      positive_count: count.positive,
      neutral_count: count.neutral + count.mixed,
      negative_count: count.negative,
      positive_pct: pct(count.positive, mentions.length),
      score: round3(mentions.length ? scoreSum / mentions.length : 0),
      top_phrases: phrasesOf(null),
      example_review_ids: [...positives.slice(0, 3), ...negatives.slice(0, 2)].map((m) => m.w.id)
    },
    praise: phrasesOf('positive'),
    complaints: phrasesOf('negative'),
    positiveIds: positives.map((m) => m.w.id),
    negativeIds: negatives.map((m) => m.w.id)
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

/** One pass: how often each phrasing (by its content words) is used about the aspect, overall and by polarity. */
function countPhrases(aspect: string, mentions: readonly Mention[]): Map<string, PhraseCount> {
  const byKey = new Map<string, PhraseCount>()
  for (const m of mentions) {
    for (const u of m.w.phrases) {
      if (u.aspect !== aspect || !u.key) continue
      let e = byKey.get(u.key)
      if (!e) byKey.set(u.key, (e = { count: 0, positive: 0, negative: 0, judged: u.judged, surfaces: new Map() }))
      e.count++
      if (m.a.sentiment === 'positive') e.positive++
      else if (m.a.sentiment === 'negative') e.negative++
      e.surfaces.set(u.surface, (e.surfaces.get(u.surface) ?? 0) + 1)
    }
  }
  return byKey
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
