import type { InsightsDocument } from '../../domain/index.js'
import type { ReviewWork } from '../analyze.js'
import { round2, round3 } from './numbers.js'

type Temporal = InsightsDocument['temporal']

/** Window and threshold of the trend: the slope of monthly sentiment over two years, per year. */
const TREND_MONTHS = 24
const TREND_THRESHOLD = 0.1

export function temporal(works: readonly ReviewWork[]): Temporal {
  const months = new Map<string, { n: number; ratings: number; scores: number }>()
  for (const w of works) {
    const key = w.date.slice(0, 7)
    const m = months.get(key) ?? { n: 0, ratings: 0, scores: 0 }
    if (m.n === 0) months.set(key, m)
    m.n++
    m.ratings += w.rating
    m.scores += w.analysis.sentiment.score
  }
  const monthly = [...months]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([month, m]) => ({ month, review_count: m.n, avg_rating: round2(m.ratings / m.n), score: round3(m.scores / m.n) }))
  return { monthly, trend: trend(monthly) }
}

/**
 * Weighted least squares of monthly mean sentiment against time over the last 24 months of data (weights: reviews
 * per month). A slope above +0.1 a year is improving, below -0.1 declining; fewer than 6 months with reviews is stable.
 */
function trend(monthly: Temporal['monthly']): Temporal['trend'] {
  const last = monthly.at(-1)
  if (!last) return 'stable'
  const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7))
  const end = index(last.month)
  const window = monthly.filter((m) => end - index(m.month) < TREND_MONTHS)
  if (window.length < 6) return 'stable'
  const w = window.map((m) => m.review_count)
  const x = window.map((m) => index(m.month) / 12)
  const y = window.map((m) => m.score)
  const sw = w.reduce((a, b) => a + b, 0)
  const mx = x.reduce((a, xi, i) => a + xi * w[i]!, 0) / sw
  const my = y.reduce((a, yi, i) => a + yi * w[i]!, 0) / sw
  const cov = x.reduce((a, xi, i) => a + w[i]! * (xi - mx) * (y[i]! - my), 0)
  const varx = x.reduce((a, xi, i) => a + w[i]! * (xi - mx) ** 2, 0)
  const slope = varx === 0 ? 0 : cov / varx
  return slope > TREND_THRESHOLD ? 'improving' : slope < -TREND_THRESHOLD ? 'declining' : 'stable'
}
