import { Business, type Review } from '../domain/index.js'
import { buildMentionIndex } from '../mentions/index.js'
import { analyzeReview } from './analyze.js'
import { FUNERAL_HOME_TAXONOMY } from './funeral-home-taxonomy.js'
import { compileModel, LEARNED_MODEL, type LearnedModel } from './model.js'
import { compileTaxonomy } from './taxonomy.js'

/** A hand-labelled review: what a careful reader says the text is about. */
export interface LabelledReview {
  id: string
  rating: number
  text: string
  labels: { aspects: Record<string, string>; technicians: string[]; services: string[] }
  tags: string[]
}

export interface Counts {
  tp: number
  fp: number
  fn: number
}

export interface AspectCounts extends Counts {
  /** Polarity right / judged, on the mentions both the labels and the engine have. */
  correct: number
  judged: number
}

export interface Scores {
  reviews: number
  /** Per aspect id: counts, as for `aspect`, and polarity. */
  perAspect: Record<string, AspectCounts>
  aspect: Counts & { precision: number; recall: number; f1: number }
  polarity: { correct: number; total: number; accuracy: number; confusion: Record<string, number> }
  entity: Counts & { precision: number; recall: number; f1: number }
  errors: string[]
}

const prf = (c: Counts) => {
  const precision = c.tp / (c.tp + c.fp || 1)
  const recall = c.tp / (c.tp + c.fn || 1)
  return { ...c, precision, recall, f1: (2 * precision * recall) / (precision + recall || 1) }
}

/** What a reader (the engine, or a second labeller) found in one review: aspects with polarity, staff and services. */
export interface Reading {
  aspects: ReadonlyMap<string, string>
  entities: ReadonlySet<string>
}

/**
 * Scores the engine against labels: aspects as (review, aspect) pairs, polarity on the aspects both found, entities
 * (staff and services) as (review, entity) pairs. Uses the business's taxonomy, or the built-in one with the shipped
 * learned model unless `model` says otherwise (null: the rules alone).
 */
export function evaluate(businessInput: unknown, labelled: readonly LabelledReview[], options: { model?: LearnedModel | null } = {}): Scores {
  const business = Business.parse(businessInput)
  const mentions = buildMentionIndex(business)
  const taxonomy = compileTaxonomy(business.taxonomy ?? FUNERAL_HOME_TAXONOMY)
  const chosen = options.model === undefined ? LEARNED_MODEL : options.model
  const model = business.taxonomy || !chosen ? undefined : compileModel(chosen)
  const readings = new Map<string, Reading>()
  for (const l of labelled) {
    const found = mentions.detect(l.text)
    const aspects = new Map(analyzeReview(asReview(l, found), { taxonomy, mentions, model }).analysis.aspects.map((a) => [a.id, a.sentiment as string]))
    readings.set(l.id, { aspects, entities: new Set([...found.technicians, ...found.services]) })
  }
  return compare(labelled, readings)
}

/** A labeller's labels as a reading, to score one labeller against another. */
export function readingOf(labels: LabelledReview['labels']): Reading {
  return { aspects: new Map(Object.entries(labels.aspects)), entities: new Set([...labels.technicians, ...labels.services]) }
}

/** Scores readings of the labelled reviews (by review id) against the labels, as `evaluate` does the engine's. */
export function compare(labelled: readonly LabelledReview[], readings: ReadonlyMap<string, Reading>): Scores {
  const perAspect: Record<string, AspectCounts> = {}
  const tally = (id: string) => (perAspect[id] ??= { tp: 0, fp: 0, fn: 0, correct: 0, judged: 0 })
  const aspect: Counts = { tp: 0, fp: 0, fn: 0 }
  const entity: Counts = { tp: 0, fp: 0, fn: 0 }
  const polarity = { correct: 0, total: 0 }
  const confusion: Record<string, number> = {}
  const errors: string[] = []
  for (const l of labelled) {
    const reading = readings.get(l.id)
    if (!reading) throw new Error(`no reading of review ${l.id}`)
    const predicted = reading.aspects
    for (const [id, gold] of Object.entries(l.labels.aspects)) {
      const got = predicted.get(id)
      if (!got) {
        aspect.fn++
        tally(id).fn++
        errors.push(`${l.id} missed ${id} (${gold})`)
        continue
      }
      aspect.tp++
      tally(id).tp++
      tally(id).judged++
      polarity.total++
      confusion[`${gold}>${got}`] = (confusion[`${gold}>${got}`] ?? 0) + 1
      if (got === gold) (polarity.correct++, tally(id).correct++)
      else errors.push(`${l.id} ${id}: ${got}, labelled ${gold}`)
    }
    for (const id of predicted.keys()) {
      if (!(id in l.labels.aspects)) {
        aspect.fp++
        tally(id).fp++
        errors.push(`${l.id} extra ${id} (${predicted.get(id)})`)
      }
    }
    const gold = new Set([...l.labels.technicians, ...l.labels.services])
    const got = reading.entities
    for (const g of gold) (got.has(g) ? () => entity.tp++ : () => (entity.fn++, errors.push(`${l.id} missed entity ${g}`)))()
    for (const g of got) if (!gold.has(g)) (entity.fp++, errors.push(`${l.id} extra entity ${g}`))
  }
  return {
    reviews: labelled.length,
    perAspect,
    aspect: prf(aspect),
    polarity: { ...polarity, accuracy: polarity.correct / (polarity.total || 1), confusion },
    entity: prf(entity),
    errors
  }
}

/** A labelled review as the engine takes it (the fields labels do not carry are fixed). */
export function asReview(l: LabelledReview, mentions: Review['mentions']): Review {
  return {
    id: l.id, author: 'evaluation', author_avatar_url: null, rating: l.rating, date: '2024-01-01', published_at: null,
    text: l.text, source: 'evaluation', source_url: null, owner_reply: null, verified: true, language: 'en',
    updated_at: '2024-01-01T00:00:00Z', mentions
  }
}
