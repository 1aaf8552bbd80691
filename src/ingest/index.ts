/**
 * Ingest: import files validated into the store, and the bundled demo. Formats: JSON in the reviews.json shape and
 * CSV with our columns (the whole dataset), Google Business Profile reviews (API pages or a Takeout export), and any
 * other CSV export read through a column mapping.
 */
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Business, type ImportDocument, type StoredReview } from '../domain/index.js'
import { NoBusinessError, type ImportOutcome, type Store } from '../store/index.js'
import { parseCsvImport } from './csv.js'
import { ImportFileError } from './errors.js'
import { GOOGLE, parseGooglePages } from './google.js'
import { parseJsonImport } from './json.js'
import { ImportOptionError, mappedCsvReader, type MappedCsvOptions } from './mapped-csv.js'
import { readInput, type InputFile } from './source.js'
import { counted } from './wording.js'

export { ImportFileError } from './errors.js'
export { exportDocument } from './export.js'
export { ImportOptionError, type MappedCsvOptions } from './mapped-csv.js'

export const DEMO_FILE = fileURLToPath(new URL('../../data/demo/hollis-vane.json', import.meta.url))

export const IMPORT_FORMATS = ['json', 'csv', 'google'] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

export interface ImportOptions {
  replace: boolean
  now?: Date
  /** What the file is; detected when the shape is unambiguous. */
  format?: ImportFormat
  /** Read a CSV export through a column mapping instead of our own columns. */
  mapping?: MappedCsvOptions
}

/** What an import did, and what the summary should say about how it read the file. */
export interface ImportResult extends ImportOutcome {
  notes: string[]
}

/** A file read and validated whole; `sources`, when set, limits what --replace removes to reviews from those sources. */
interface ReadImport {
  doc: ImportDocument
  notes: string[]
  sources?: string[]
}

type TimeZoneLookup = () => Promise<string | null>

/** Reads and validates everything before anything is written; any problem throws ImportFileError listing them all. */
export async function importFile(store: Store, path: string, options: ImportOptions): Promise<ImportResult> {
  const read = await readImport(path, options, () => businessTimeZone(store))
  const outcome = await store.applyImport({
    business: read.doc.business,
    reviews: read.doc.reviews,
    replace: options.replace,
    replaceSources: read.sources,
    now: (options.now ?? new Date()).toISOString()
  })
  const keptNote = outcome.spared ? [`--replace removes only ${read.sources!.join(', ')} reviews absent from the file; ${counted(outcome.spared, 'review')} from other sources left as they were`] : []
  return { ...outcome, notes: [...read.notes, ...keptNote] }
}

/** Fills a database that holds no business with the bundled demo funeral home; leaves any other database alone. */
export async function seedDemoIfEmpty(store: Store): Promise<ImportOutcome> {
  const { doc } = await readImport(DEMO_FILE, { replace: false, format: 'json' }, async () => null)
  return store.applyImport({ business: doc.business, reviews: doc.reviews, replace: false, onlyIfEmpty: true, now: new Date().toISOString() })
}

async function readImport(path: string, options: ImportOptions, timeZone: TimeZoneLookup): Promise<ReadImport> {
  if (options.mapping && options.format && options.format !== 'csv') throw new ImportOptionError('--map reads CSV files: leave out --format or say --format csv')
  const read = options.mapping ? mappedCsvReader(options.mapping) : undefined
  const input = await readInput(path)
  if (input.kind === 'folder') {
    if (read || (options.format && options.format !== GOOGLE)) throw new ImportFileError(path, ['is a folder: only Google reviews (pages, or a Takeout export) are read from a folder'])
    return readGoogle(path, input.files, await timeZone())
  }
  const { file } = input
  if (read) {
    const r = read(file, await timeZone())
    return { doc: { reviews: r.reviews }, notes: r.notes, sources: r.sources }
  }
  const format = options.format ?? detectFormat(file)
  if (format === GOOGLE) return readGoogle(path, [file], await timeZone())
  return { doc: withoutDuplicates(path, format === 'csv' ? parseCsvImport(file.name, file.text) : parseJsonImport(file.name, file.text)), notes: [] }
}

function readGoogle(path: string, files: InputFile[], timeZone: string | null): ReadImport {
  const g = parseGooglePages(files, timeZone)
  if (g.problems.length) throw new ImportFileError(path, g.problems)
  return { doc: { reviews: g.reviews }, notes: g.notes, sources: [GOOGLE] }
}

/** The day of a timestamp depends on where the business is; a Google or mapped import needs the stored business anyway. */
async function businessTimeZone(store: Store): Promise<string | null> {
  const published = await store.readPublished()
  if (!published) throw new NoBusinessError()
  // A business stored before time_zone existed has no such key: parsing gives it its null.
  return Business.parse(published.business).time_zone
}

/** JSON in our shape, JSON as Google gives it, or CSV; a JSON file that could be either is refused, not guessed. */
function detectFormat(file: InputFile): ImportFormat {
  const ext = extname(file.name).toLowerCase()
  if (ext === '.csv' || (ext !== '.json' && !/^\s*[[{]/.test(file.text))) return 'csv'
  let raw: unknown
  try {
    raw = JSON.parse(file.text)
  } catch {
    return 'json' // its parser says what is wrong with it
  }
  const shape = jsonShape(raw)
  if (shape) return shape
  throw new ImportFileError(file.name, ['cannot tell whether this holds reviews in the reviews.json shape or Google reviews: pass --format json or --format google'])
}

const GOOGLE_PAGE_KEYS = ['nextPageToken', 'totalReviewCount', 'averageRating']
const GOOGLE_REVIEW_KEYS = ['reviewId', 'starRating', 'reviewer', 'createTime']
const NATIVE_REVIEW_KEYS = ['id', 'rating', 'author', 'date']

function jsonShape(raw: unknown): ImportFormat | undefined {
  if (!isObject(raw) || 'business' in raw) return 'json'
  if (GOOGLE_PAGE_KEYS.some((k) => k in raw)) return GOOGLE
  const reviews = Array.isArray(raw.reviews) ? raw.reviews.filter(isObject) : []
  const google = reviews.some((r) => GOOGLE_REVIEW_KEYS.some((k) => k in r))
  const native = reviews.some((r) => NATIVE_REVIEW_KEYS.some((k) => k in r))
  return google === native ? undefined : google ? GOOGLE : 'json'
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function withoutDuplicates(file: string, doc: ImportDocument): ImportDocument {
  const seen = new Set<string>()
  const dup = new Set<string>()
  for (const r of doc.reviews) (seen.has(r.id) ? dup : seen).add(r.id)
  if (dup.size) throw new ImportFileError(file, [...dup].map((id) => `review id ${JSON.stringify(id)} appears more than once`))
  return doc
}
