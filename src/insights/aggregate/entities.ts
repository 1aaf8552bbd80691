import type { Business, InsightsDocument } from '../../domain/index.js'
import type { ReviewWork } from '../analyze.js'
import { mean, newestFirst, pct, round2 } from './numbers.js'

type Entities = InsightsDocument['entities']

/** Staff, services and areas with how often, how well rated and how warmly they are mentioned. */
export function entities(business: Business, works: readonly ReviewWork[]): Entities {
  const about = (pick: (w: ReviewWork) => Map<string, number>, key: string) => {
    const named = works.filter((w) => pick(w).has(key)).sort(newestFirst)
    return {
      mention_count: named.length,
      avg_rating: named.length ? round2(mean(named.map((w) => w.rating))) : null,
      positive_pct: named.length ? pct(named.filter((w) => pick(w).get(key)! > 0.05).length, named.length) : null,
      review_ids: named.map((w) => w.id)
    }
  }
  return {
    technicians: business.technicians.map((t) => ({ name: t.name, role: t.role, ...about((w) => w.technicians, t.name) })),
    services: business.services.map((s) => ({ id: s.id, name: s.name, ...about((w) => w.services, s.id) })),
    service_areas: business.service_areas.map((name) => {
      const ids = works.filter((w) => w.areas.includes(name)).sort(newestFirst).map((w) => w.id)
      return { name, mention_count: ids.length, review_ids: ids }
    })
  }
}
