import type { AggregateRating, Business, InsightsDocument } from '../../domain/index.js'
import type { ReviewWork } from '../analyze.js'
import type { AspectStats } from './aspects.js'
import { cite, pct, quoteList } from './numbers.js'

type Entities = InsightsDocument['entities']

/**
 * A short editorial summary written from the numbers: the rating, what families praise, who they name, what they
 * criticise and where sentiment is heading. Each sentence cites the reviews it rests on. `works` are newest first.
 */
export function summary(
  business: Business,
  rating: AggregateRating,
  works: readonly ReviewWork[],
  stats: AspectStats[],
  entities: Entities,
  trend: InsightsDocument['temporal']['trend']
): string {
  if (works.length === 0) return `${business.name} has no published reviews yet.`
  const years = [works.at(-1)!.date.slice(0, 4), works[0]!.date.slice(0, 4)].filter((y, i, a) => a.indexOf(y) === i)
  const positive = works.filter((w) => w.analysis.sentiment.label === 'positive')
  const sentences = [
    `${business.name} has ${rating.review_count} verified reviews from ${years[0]}${years.length > 1 ? ` to ${years.at(-1)}` : ''}, averaging ${rating.rating_value} out of 5; ${pct(positive.length, works.length)}% of them read as positive ${cite(positive.slice(0, 2).map((w) => w.id))}.`
  ]
  const praised = stats.filter((s) => s.insight.mention_count >= 3).sort((a, b) => b.insight.positive_count - a.insight.positive_count)
  if (praised.length >= 2) {
    const [a, b] = praised
    sentences.push(
      `Reviewers most often praise ${a!.insight.label.toLowerCase()} (${a!.insight.positive_pct}% positive across ${a!.insight.mention_count} reviews) and ${b!.insight.label.toLowerCase()} (${b!.insight.positive_pct}% of ${b!.insight.mention_count}) ${cite([...a!.positiveIds.slice(0, 1), ...b!.positiveIds.slice(0, 1)])}.`
    )
  }
  const staff = [...entities.technicians].filter((t) => t.mention_count > 0).sort((a, b) => b.mention_count - a.mention_count).slice(0, 2)
  if (staff.length) {
    sentences.push(`The staff named most often are ${staff.map((t) => `${t.name} (${t.mention_count} reviews)`).join(' and ')} ${cite(staff.map((t) => t.review_ids[0]!))}.`)
  }
  const criticised = stats.filter((s) => s.insight.negative_count > 0).sort((a, b) => b.insight.negative_count - a.insight.negative_count)[0]
  if (criticised) {
    const about = criticised.complaints.length ? `, mostly about ${quoteList(criticised.complaints.slice(0, 2))}` : ''
    sentences.push(`The most common criticism concerns ${criticised.insight.label.toLowerCase()}: ${criticised.insight.negative_count} reviews${about} ${cite(criticised.negativeIds.slice(0, 2))}.`)
  }
  const recent = works.slice(0, 2)
  sentences.push(`Over the last two years sentiment has been ${trend === 'stable' ? 'stable' : trend} ${cite(recent.map((w) => w.id))}.`)
  return sentences.join(' ')
}

/** The warmest specific sentence from a 4- or 5-star review; ties go to the higher rating, then the newer review. */
export function pullQuote(works: readonly ReviewWork[]): InsightsDocument['pull_quote'] {
  let best: ReviewWork | undefined
  for (const w of works) {
    if (w.quote && (!best || w.quote.score > best.quote!.score || (w.quote.score === best.quote!.score && w.rating > best.rating))) best = w
  }
  return best ? { text: best.quote!.text, review_id: best.id, author: best.author } : null
}
