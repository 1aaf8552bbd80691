import type { Business, InsightsDocument } from '../../domain/index.js'
import type { ReviewWork } from '../analyze.js'
import { pct, round2 } from './numbers.js'

type Entities = InsightsDocument['entities']

interface Tally {
  works: ReviewWork[]
  warm: number
}

/**
 * Staff, services and areas with how often, how well rated and how warmly they are mentioned: one pass over the
 * reviews, which come newest first, so every id list is newest first too.
 */
export function entities(business: Business, works: readonly ReviewWork[]): Entities {
  const people = new Map<string, Tally>(business.technicians.map((t) => [t.name, { works: [], warm: 0 }]))
  const services = new Map<string, Tally>(business.services.map((s) => [s.id, { works: [], warm: 0 }]))
  const areas = new Map<string, ReviewWork[]>(business.service_areas.map((a) => [a, []]))
  for (const w of works) {
    for (const [name, score] of w.technicians) add(people.get(name), w, score)
    for (const [id, score] of w.services) add(services.get(id), w, score)
    for (const a of w.areas) areas.get(a)?.push(w)
  }
  return {
    technicians: business.technicians.map((t) => ({ name: t.name, role: t.role, ...summarise(people.get(t.name)!) })),
    services: business.services.map((s) => ({ id: s.id, name: s.name, ...summarise(services.get(s.id)!) })),
    service_areas: business.service_areas.map((name) => {
      const ids = areas.get(name)!.map((w) => w.id)
      return { name, mention_count: ids.length, review_ids: ids }
    })
  }
}

function add(tally: Tally | undefined, w: ReviewWork, score: number): void {
  if (!tally) return
  tally.works.push(w)
  if (score > 0.05) tally.warm++
}

function summarise(t: Tally) {
  const n = t.works.length
  return {
    mention_count: n,
    avg_rating: n ? round2(t.works.reduce((a, w) => a + w.rating, 0) / n) : null,
    positive_pct: n ? pct(t.warm, n) : null,
    review_ids: t.works.map((w) => w.id)
  }
}
