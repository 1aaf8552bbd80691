/**
 * Insights benchmark: time to compute insights.json for the demo data and for 100,000 generated reviews (sentences of
 * the demo reviews recombined, seeded), and the time to refresh after one new review with a warm engine.
 * Aim: 100k reviews under 30 s on this machine; one new review reflected in under 1 s.
 *
 *   npm run bench:insights            BENCH_REVIEWS=20000 npm run bench:insights            BENCH_SOURCE=src npm run bench:insights
 */
import type { StoredReview } from '../src/domain/index.js'
import type { PublishedData } from '../src/store/index.js'
import { demo, generateReviews as generate } from './lib/reviews.js'

/**
 * The engine as it ships: tsc's output in dist/ (npm run bench:insights builds it first), not the TypeScript as tsx
 * transpiles it for development, which wraps every closure in a helper that keeps its name and costs this benchmark
 * about a tenth. BENCH_SOURCE=src measures the TypeScript through tsx instead.
 */
const FROM = process.env.BENCH_SOURCE === 'src' ? 'src' : 'dist'
async function shipped<M>(path: string): Promise<M> {
  return (await import(new URL(`../${FROM}/${path}`, import.meta.url).href)) as M
}
const { buildUrls } = await shipped<typeof import('../src/config/index.js')>('config/index.js')
const { InsightsEngine } = await shipped<typeof import('../src/insights/index.js')>('insights/index.js')
const { buildMentionIndex } = await shipped<typeof import('../src/mentions/index.js')>('mentions/index.js')
const { buildSnapshot } = await shipped<typeof import('../src/snapshot/index.js')>('snapshot/index.js')

const N = Number(process.env.BENCH_REVIEWS ?? 100_000)
const business = demo.business!
const urls = buildUrls('https://reviews.example.org')

function published(reviews: StoredReview[], changedAt: string, updatedAt = (_r: StoredReview) => changedAt): PublishedData {
  return { version: 1, changedAt, business, reviews: reviews.map((review) => ({ review, updatedAt: updatedAt(review) })) }
}

async function time<T>(f: () => Promise<T> | T): Promise<[T, number]> {
  const start = performance.now()
  const value = await f()
  return [value, performance.now() - start]
}

/** The reviews plus one new one; only the new review has a new updated_at, as after a real import. */
function withOneMore(reviews: StoredReview[]): PublishedData {
  const extra = { ...reviews[0]!, id: 'new-one', date: '2026-11-21', text: 'Priya was kind, but the bill had hidden fees and the ashes took three weeks.' }
  return published([...reviews, extra], '2026-11-21T00:00:00Z', (r) => (r.id === extra.id ? '2026-11-21T00:00:00Z' : '2026-11-20T00:00:00Z'))
}

async function main(): Promise<void> {
  const rows: [string, number][] = []
  const demoReviews = demo.reviews.filter((r) => r.verified)
  const [demoSnap] = await time(() => buildSnapshot(published(demoReviews, '2026-11-20T00:00:00Z'), urls))
  const [, demoCold] = await time(() => new InsightsEngine(business, buildMentionIndex(business)).compute(demoSnap.index.reviews, demoSnap.aggregate, 'x'))
  rows.push([`insights, demo data (${demoReviews.length} reviews), cold`, demoCold])
  const [, demoRefreshMs] = await time(() => buildSnapshot(withOneMore(demoReviews), urls, demoSnap))
  rows.push([`whole snapshot after one new review, demo data, reusing the previous one`, demoRefreshMs])

  const generated = generate(N)
  const [big, snapshotMs] = await time(() => buildSnapshot(published(generated, '2026-11-20T00:00:00Z'), urls))
  const engine = new InsightsEngine(business, buildMentionIndex(business))
  const [, coldMs] = await time(async () => {
    await engine.prepare(big.index.reviews)
    return engine.compute(big.index.reviews, big.aggregate, 'x')
  })
  rows.push([`insights, ${N.toLocaleString('en')} generated reviews, cold (every core, as a snapshot builds it)`, coldMs])
  const [, oneCoreMs] = await time(() => new InsightsEngine(business, buildMentionIndex(business)).compute(big.index.reviews, big.aggregate, 'x'))
  rows.push([`insights, ${N.toLocaleString('en')} generated reviews, cold, on one core`, oneCoreMs])
  rows.push([`whole snapshot (documents, feeds, compression, insights), ${N.toLocaleString('en')} reviews`, snapshotMs])

  const [next, refreshSnapMs] = await time(() => buildSnapshot(withOneMore(generated), urls, big))
  const [, warmMs] = await time(() => next.insightsEngine.compute(next.index.reviews, next.aggregate, 'y'))
  rows.push([`insights after one new review, warm engine (${N.toLocaleString('en')} + 1)`, warmMs])
  rows.push([`whole snapshot after one new review, reusing the previous one`, refreshSnapMs])

  const rss = process.memoryUsage().rss / 1024 / 1024
  console.log(`\ninsights benchmark (Node ${process.version}, engine from ${FROM}/, ${rows.length} measurements, peak RSS ${Math.round(rss)} MB)`)
  for (const [name, ms] of rows) console.log(`${name.padEnd(82)} ${(ms / 1000).toFixed(2).padStart(7)} s`)
  console.log(JSON.stringify({ bench: 'insights', from: FROM, reviews: N, rows: Object.fromEntries(rows.map(([k, v]) => [k, Math.round(v)])), rssMb: Math.round(rss) }))
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
