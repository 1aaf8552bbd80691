import type { Business, InsightsDocument, Taxonomy } from '../../domain/index.js'
import type { ReviewWork } from '../analyze.js'
import type { AspectStats } from './aspects.js'
import { quoteList } from './numbers.js'

type Faq = InsightsDocument['faq'][number]
type Entities = InsightsDocument['entities']

export function verdict(positivePct: number): string {
  return positivePct >= 90 ? 'Overwhelmingly positive' : positivePct >= 75 ? 'Mostly positive' : positivePct >= 55 ? 'Mixed, leaning positive' : positivePct >= 40 ? 'Divided' : 'Mostly negative'
}

/**
 * Questions a family would ask, each answered from the reviews with numbers and the ids it rests on: one per aspect
 * that has a question, who the staff are, and how long the turnaround is. A question the reviews cannot answer is left out.
 */
export function faq(taxonomy: Taxonomy, stats: AspectStats[], business: Business, entities: Entities, works: readonly ReviewWork[]): Faq[] {
  const out: Faq[] = []
  for (const s of stats) {
    const def = taxonomy.aspects.find((a) => a.id === s.insight.id)
    if (def?.question && s.insight.mention_count > 0) out.push(aspectAnswer(def.question, s))
  }
  const turnaround = taxonomy.turnaround && turnaroundAnswer(taxonomy.turnaround.question, works)
  if (turnaround) out.splice(Math.min(2, out.length), 0, turnaround)
  const staff = taxonomy.staff_question && staffAnswer(taxonomy.staff_question, business, entities)
  if (staff) out.splice(Math.min(3, out.length), 0, staff)
  return out
}

function aspectAnswer(question: string, s: AspectStats): Faq {
  const a = s.insight
  const label = a.label.toLowerCase()
  let answer = `${verdict(a.positive_pct)}: ${a.positive_pct}% of the ${a.mention_count} reviews that speak about ${label} are positive, ${a.negative_count} negative.`
  if (s.praise.length) answer += ` Praise most often mentions ${quoteList(s.praise.slice(0, 3))}.`
  if (s.complaints.length) answer += ` Criticism mentions ${quoteList(s.complaints.slice(0, 2))}.`
  return { question, answer, review_ids: [...s.positiveIds.slice(0, 4), ...s.negativeIds.slice(0, 2)] }
}

function staffAnswer(question: string, business: Business, entities: Entities): Faq | null {
  const named = entities.technicians.filter((t) => t.mention_count > 0).sort((a, b) => b.mention_count - a.mention_count || (a.name < b.name ? -1 : 1))
  if (named.length === 0) return null
  const describe = (t: (typeof named)[number]) => `${t.name}${t.role ? ` (${t.role.toLowerCase()})` : ''}, named in ${t.mention_count} review${t.mention_count === 1 ? '' : 's'}, ${t.positive_pct}% of them warmly`
  const answer =
    `Reviews name ${named.length} of the ${business.technicians.length} staff members. ` +
    `Most often: ${named.slice(0, 3).map(describe).join('; ')}.` +
    (named.length > 3 ? ` Also named: ${named.slice(3).map((t) => `${t.name} (${t.mention_count})`).join(', ')}.` : '')
  return { question, answer, review_ids: named.slice(0, 3).flatMap((t) => t.review_ids.slice(0, 2)) }
}

function turnaroundAnswer(question: string, works: readonly ReviewWork[]): Faq | null {
  const stated = works.filter((w) => w.durations.length > 0).map((w) => ({ w, days: Math.max(...w.durations) }))
  if (stated.length < 3) return null
  const days = stated.map((s) => s.days).sort((a, b) => a - b)
  const median = days[Math.floor((days.length - 1) / 2)]!
  const fmt = (d: number) => (d >= 14 ? `${Math.round(d / 7)} weeks` : `${Math.round(d)} day${Math.round(d) === 1 ? '' : 's'}`)
  const slow = stated.filter((s) => s.days > 14)
  const answer =
    `In the ${stated.length} reviews that say how long it took, the median is ${fmt(median)} (from ${fmt(days[0]!)} to ${fmt(days.at(-1)!)}).` +
    (slow.length ? ` ${slow.length} of them waited more than two weeks.` : '')
  const cited = [...stated].sort((a, b) => a.days - b.days || (a.w.id < b.w.id ? -1 : 1))
  const pick = [cited[Math.floor(cited.length / 2)], cited[0], cited.at(-1), ...slow.slice(0, 2)].filter((s) => s !== undefined)
  return { question, answer, review_ids: [...new Set(pick.map((s) => s.w.id))] }
}
