/** Ingest: import files (JSON in the reviews.json shape, or CSV) validated into the store, and the bundled demo. */
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ImportDocument } from '../domain/index.js'
import type { ImportOutcome, Store } from '../store/index.js'
import { parseCsvImport } from './csv.js'
import { ImportFileError } from './errors.js'
import { parseJsonImport } from './json.js'

export { ImportFileError } from './errors.js'
export { exportDocument } from './export.js'

export const DEMO_FILE = fileURLToPath(new URL('../../data/demo/hollis-vane.json', import.meta.url))

export interface ImportOptions {
  replace: boolean
  now?: Date
}

/** Reads and validates a whole file before anything is written; any problem throws ImportFileError listing them all. */
export async function readImportFile(file: string): Promise<ImportDocument> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    throw new ImportFileError(file, [`cannot read the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`])
  }
  const doc = isCsv(file, text) ? parseCsvImport(file, text) : parseJsonImport(file, text)
  const duplicates = duplicateIds(doc)
  if (duplicates.length) throw new ImportFileError(file, duplicates.map((id) => `review id ${JSON.stringify(id)} appears more than once`))
  return doc
}

export async function importFile(store: Store, file: string, options: ImportOptions): Promise<ImportOutcome> {
  const doc = await readImportFile(file)
  return store.applyImport({ business: doc.business, reviews: doc.reviews, replace: options.replace, now: (options.now ?? new Date()).toISOString() })
}

/** Fills a database that holds no business with the bundled demo funeral home; leaves any other database alone. */
export async function seedDemoIfEmpty(store: Store): Promise<ImportOutcome> {
  const doc = await readImportFile(DEMO_FILE)
  return store.applyImport({ business: doc.business, reviews: doc.reviews, replace: false, onlyIfEmpty: true, now: new Date().toISOString() })
}

function isCsv(file: string, text: string): boolean {
  const ext = extname(file).toLowerCase()
  if (ext === '.csv') return true
  if (ext === '.json') return false
  return !/^\s*[[{]/.test(text)
}

function duplicateIds(doc: ImportDocument): string[] {
  const seen = new Set<string>()
  const dup = new Set<string>()
  for (const r of doc.reviews) (seen.has(r.id) ? dup : seen).add(r.id)
  return [...dup]
}
