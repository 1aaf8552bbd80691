/**
 * A thread that analyses reviews for the main thread (analysis-pool.ts): each message is a business and a batch of its
 * reviews, each answer their analyses in the same order. analyzeReview depends on nothing but the review and the
 * context (the parse forgets what it met before it: nlp.ts), so a review analysed here is analysed as in the main thread.
 */
import { parentPort } from 'node:worker_threads'
import { Business, type Review } from '../domain/index.js'
import { buildMentionIndex } from '../mentions/index.js'
import { analyzeReview, type AnalysisContext } from './analyze.js'
import { analysisContext } from './context.js'

let last: { key: string; ctx: AnalysisContext } | undefined

parentPort!.on('message', (job: { business: unknown; reviews: Review[] }) => {
  const key = JSON.stringify(job.business)
  if (last?.key !== key) {
    const business = Business.parse(job.business)
    last = { key, ctx: analysisContext(business, buildMentionIndex(business)) }
  }
  parentPort!.postMessage(job.reviews.map((r) => analyzeReview(r, last!.ctx)))
})
