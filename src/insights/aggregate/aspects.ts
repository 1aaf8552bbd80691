import type { AspectDefinition, InsightsDocument } from '../../domain/index.js'
import type { PhraseUse, ReviewWork } from '../analyze.js'
import { mean, pct, round3 } from './numbers.js'

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

export function aspectStats(def: AspectDefinition, works: readonly ReviewWork[]): AspectStats {
  const mentions = works.flatMap((w) => w.analysis.aspects.filter((a) => a.id === def.id).map((a) => ({ w, a })))
  const count = (s: string) => mentions.filter((m) => m.a.sentiment === s).length
  const positives = mentions.filter((m) => m.a.sentiment === 'positive').sort((x, y) => y.a.score - x.a.score || byId(x.w, y.w))
  const negatives = mentions.filter((m) => m.a.sentiment === 'negative').sort((x, y) => x.a.score - y.a.score || byId(x.w, y.w))
  const phrasesOf = (ms: typeof mentions, judgedFirst = false) =>
    topPhrases(ms.flatMap((m) => m.w.phrases.filter((p) => p.aspect === def.id)), 5, judgedFirst)
  return {
    insight: {
      id: def.id,
      label: def.label,
      mention_count: mentions.length,
      positive_count: count('positive'),
      neutral_count: count('neutral') + count('mixed'),
      negative_count: count('negative'),
      positive_pct: pct(count('positive'), mentions.length),
      score: round3(mean(mentions.map((m) => m.a.score))),
      top_phrases: phrasesOf(mentions),
      example_review_ids: [...positives.slice(0, 3), ...negatives.slice(0, 2)].map((m) => m.w.id)
    },
    praise: phrasesOf(positives, true),
    complaints: phrasesOf(negatives, true),
    positiveIds: positives.map((m) => m.w.id),
    negativeIds: negatives.map((m) => m.w.id)
  }
}

const byId = (a: ReviewWork, b: ReviewWork) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * The phrasings most reviews share, counted once per review by their content words; phrases of two words or more
 * come first because "chapel" alone says less than "chapel was spotless".
 */
function topPhrases(uses: readonly PhraseUse[], n: number, judgedFirst: boolean): string[] {
  const byKey = new Map<string, { count: number; judged: boolean; surfaces: Map<string, number> }>()
  for (const u of uses) {
    if (!u.key) continue
    const e = byKey.get(u.key) ?? { count: 0, judged: u.judged, surfaces: new Map() }
    e.count++
    e.surfaces.set(u.surface, (e.surfaces.get(u.surface) ?? 0) + 1)
    byKey.set(u.key, e)
  }
  const rank = (k: string, e: { judged: boolean }) => (judgedFirst && e.judged ? 2 : 0) + (k.includes(' ') ? 1 : 0)
  return [...byKey]
    .sort(([ka, a], [kb, b]) => rank(kb, b) - rank(ka, a) || b.count - a.count || (ka < kb ? -1 : 1))
    .slice(0, n)
    .map(([, e]) => [...e.surfaces].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]![0])
}
