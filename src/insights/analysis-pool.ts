import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { Business, Review } from '../domain/index.js'
import type { ReviewWork } from './analyze.js'

/**
 * Below this many reviews to analyse, the main thread does it alone: starting a thread (loading the language model and
 * the lexicons) costs about half a second, and sending the work back a few microseconds a review.
 */
export const PARALLEL_FROM = 5000

/**
 * The thread's module as built; run from the TypeScript (tests, scripts under tsx), the thread loads it through tsx's
 * API, since Node 20 does not pass the loader that --import tsx registers on to worker threads.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./analysis-worker.js', import.meta.url))
  const source = JSON.stringify(new URL('./analysis-worker.ts', import.meta.url).href)
  return new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${source}, ${JSON.stringify(import.meta.url)}))`, { eval: true })
}

/**
 * Analyses `reviews` on every core of the machine: one share in each of availableParallelism() - 1 threads started for
 * the purpose and one in this thread (`analyzeHere`), all at once. The results are in the order of `reviews`, each as
 * this thread would have made it. The threads end when their share is done.
 */
export async function analyzeOnAllCores(business: Business, reviews: readonly Review[], analyzeHere: (r: Review) => ReviewWork): Promise<ReviewWork[]> {
  const threads = Math.max(0, availableParallelism() - 1)
  if (threads === 0 || reviews.length < PARALLEL_FROM) return reviews.map(analyzeHere)
  const share = Math.ceil(reviews.length / (threads + 1))
  const away = Array.from({ length: threads }, (_, i) => analyzeInThread(business, reviews.slice(share * (i + 1), share * (i + 2))))
  const here = reviews.slice(0, share).map(analyzeHere)
  return [...here, ...(await Promise.all(away)).flat()]
}

function analyzeInThread(business: Business, reviews: Review[]): Promise<ReviewWork[]> {
  if (reviews.length === 0) return Promise.resolve([])
  return new Promise((resolve, reject) => {
    const worker = startWorker()
    worker.once('message', (works: ReviewWork[]) => {
      resolve(works)
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`an analysis thread stopped (exit code ${code}) before answering`)))
    worker.postMessage({ business, reviews })
  })
}
