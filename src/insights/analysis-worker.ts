/**
 * A thread that analyses reviews for the main thread (analysis-pool.ts): its one message is a business and a batch of
 * its reviews, its answer their analyses in the same order. analyzeReview depends on nothing but the review and the
 * context (the parse forgets what it met before it: nlp.ts), so a review analysed here is analysed as in the main thread.
 */
import { parentPort } from 'node:worker_threads'
import { Business, type Review } from '../domain/index.js'
import { buildMentionIndex } from '../mentions/index.js'
import { analyzeReview } from './analyze.js'
import { analysisContext } from './context.js'

// The pool sends a thread one batch and ends it once answered, so nothing is kept between messages.
parentPort!.on('message', (job: { business: unknown; reviews: Review[] }) => {
  const business = Business.parse(job.business)
  const ctx = analysisContext(business, buildMentionIndex(business))
  parentPort!.postMessage(job.reviews.map((r) => analyzeReview(r, ctx)))
})
