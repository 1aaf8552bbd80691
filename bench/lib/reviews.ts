import { readFileSync } from 'node:fs'
import { ImportDocument, type StoredReview } from '../../src/domain/index.js'
import { DEMO_FILE } from '../../src/ingest/index.js'
import { seededRandom } from '../../scripts/lib/seeded-random.js'

/** The bundled demo data (data/demo), parsed as an import. */
export const demo = ImportDocument.parse(JSON.parse(readFileSync(DEMO_FILE, 'utf8')))

/** `n` reviews made of the demo reviews' sentences recombined (seeded), with the demo's spread of ratings. */
export function generateReviews(n: number): StoredReview[] {
  const random = seededRandom(42)
  const sentences = demo.reviews.flatMap((r) => (r.text && r.language !== 'es' ? r.text.split(/(?<=[.!?])\s+/) : []))
  const ratings = demo.reviews.map((r) => r.rating)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(Date.UTC(2016, 0, 1) + Math.floor(random() * 3800) * 86400_000).toISOString().slice(0, 10)
    const text = random() < 0.04 ? null : Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(sentences)).join(' ')
    return { ...pick(demo.reviews), id: `gen-${String(i).padStart(6, '0')}`, author: `Reviewer ${i}`, rating: pick(ratings), date: day, text, verified: true, owner_reply: null }
  })
}
