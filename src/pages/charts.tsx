import type { AggregateRating, InsightsDocument } from '../domain/index.js'
import { percent, plural } from './format.js'

/**
 * Charts are inline SVG drawn on the server: nothing to load, and they work without JavaScript. Each carries a title
 * and a text description with every number, so a screen reader gets the same facts as the picture.
 */

const ROW = 26
const LABEL_W = 64
const BAR_W = 220
const WIDTH = LABEL_W + BAR_W + 96

export function StarDistributionChart({ aggregate, id }: { aggregate: AggregateRating; id: string }) {
  const rows = ([5, 4, 3, 2, 1] as const).map((star) => ({ star, count: aggregate.distribution[String(star) as '1'] }))
  const max = Math.max(1, ...rows.map((r) => r.count))
  const total = aggregate.review_count
  const desc = rows.map((r) => `${plural(r.star, 'star')}: ${plural(r.count, 'review')} (${percent(r.count, total)}%)`).join('; ')
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${rows.length * ROW}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
      <title id={`${id}-title`}>Ratings by number of stars</title>
      <desc id={`${id}-desc`}>{desc}</desc>
      {rows.map((r, i) => {
        const y = i * ROW
        return (
          <g>
            <text x="0" y={y + 17}>
              {plural(r.star, 'star')}
            </text>
            <rect class="track" x={LABEL_W} y={y + 5} width={BAR_W} height="14" rx="3" />
            <rect class="bar" x={LABEL_W} y={y + 5} width={Math.round((r.count / max) * BAR_W)} height="14" rx="3" />
            <text class="num" x={LABEL_W + BAR_W + 8} y={y + 17}>
              {`${r.count} (${percent(r.count, total)}%)`}
            </text>
          </g>
        )
      })}
    </svg>
  )
}

type Aspect = InsightsDocument['aspects'][number]

const ASPECT_ROW = 44
const POLARITIES = ['positive', 'neutral', 'negative'] as const

/** One stacked bar per aspect: the share of mentioning reviews that praise it, are neutral or mixed, or criticise it. */
export function AspectSentimentChart({ aspects, id }: { aspects: readonly Aspect[]; id: string }) {
  const width = 360
  const desc = aspects
    .map((a) => `${a.label}: ${a.positive_count} positive, ${a.neutral_count} neutral or mixed, ${a.negative_count} negative of ${plural(a.mention_count, 'review')}`)
    .join('; ')
  return (
    <>
      <svg class="chart" viewBox={`0 0 ${width} ${aspects.length * ASPECT_ROW}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>How reviewers speak of each aspect</title>
        <desc id={`${id}-desc`}>{desc}</desc>
        {aspects.map((a, i) => (
          <AspectRow aspect={a} y={i * ASPECT_ROW} width={width} />
        ))}
      </svg>
      <ul class="legend" aria-hidden="true">
        <li>
          <span class="key positive" />
          Positive
        </li>
        <li>
          <span class="key neutral" />
          Neutral or mixed
        </li>
        <li>
          <span class="key negative" />
          Negative
        </li>
      </ul>
    </>
  )
}

function AspectRow({ aspect, y, width }: { aspect: Aspect; y: number; width: number }) {
  const counts = { positive: aspect.positive_count, neutral: aspect.neutral_count, negative: aspect.negative_count }
  const total = Math.max(1, aspect.mention_count)
  let x = 0
  return (
    <g>
      <text x="0" y={y + 15}>
        {aspect.label}
      </text>
      <text class="num" x={width} y={y + 15} text-anchor="end">
        {`${aspect.positive_pct}% positive · ${plural(aspect.mention_count, 'review')}`}
      </text>
      <rect class="track" x="0" y={y + 22} width={width} height="12" rx="3" />
      {POLARITIES.map((p) => {
        const w = (counts[p] / total) * width
        const rect = <rect class={p} x={x.toFixed(1)} y={y + 22} width={w.toFixed(1)} height="12" />
        x += w
        return rect
      })}
    </g>
  )
}
