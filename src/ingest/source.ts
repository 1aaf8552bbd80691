import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join, relative } from 'node:path'
import { ImportFileError } from './errors.js'

/** One file to import, named as the problems list will name it. */
export interface InputFile {
  name: string
  text: string
}

/** What a path to import holds: one file, or (Google only) the pages of a folder. */
export type ImportInput = { kind: 'file'; file: InputFile } | { kind: 'folder'; files: InputFile[] }

export async function readInput(path: string): Promise<ImportInput> {
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => cannotRead(path, e))
  if (!info.isDirectory()) return { kind: 'file', file: await readOne(path, path) }
  const pages = await pageFiles(path)
  return { kind: 'folder', files: await Promise.all(pages.map((p) => readOne(p, relative(path, p)))) }
}

/** Takeout names a location's review files reviews.json, reviews-1.json, ...; a location folder holds other JSON files too. */
const TAKEOUT_REVIEWS = /^reviews.*\.json$/i
const TAKEOUT_LOCATION = /^location-/
/** A Takeout tree is a few folders deep: Takeout/Google Business Profile/account-N/location-M. */
const MAX_DEPTH = 5

/**
 * The review pages of a folder, in name order (page-2 before page-10): its reviews*.json files if it has any (a
 * Takeout location folder), else every *.json file in it (saved API pages), else the reviews*.json files of the one
 * Takeout location folder somewhere below it. Reviews of two locations are refused: this service publishes one business.
 */
async function pageFiles(folder: string): Promise<string[]> {
  const json = (await listFiles(folder)).filter((n) => n.toLowerCase().endsWith('.json'))
  const reviews = json.filter((n) => TAKEOUT_REVIEWS.test(n))
  const here = reviews.length ? reviews : json
  if (here.length) return here.map((n) => join(folder, n)).sort(byName)
  const locations = await takeoutLocations(folder, MAX_DEPTH)
  const ids = [...new Set(locations.map((l) => basename(l)))]
  if (ids.length > 1) {
    throw new ImportFileError(folder, [`holds the reviews of ${ids.length} Google locations (${ids.join(', ')}): import the folder of the one this service publishes`])
  }
  const files = (await Promise.all(locations.map(async (l) => (await listFiles(l)).filter((n) => TAKEOUT_REVIEWS.test(n)).map((n) => join(l, n))))).flat()
  if (!files.length) throw new ImportFileError(folder, ['holds no JSON files, and no Google Takeout location folder (location-*/reviews*.json) below it'])
  return files.sort(byName)
}

/** Folders named location-* with review files, up to `depth` levels below `folder`. */
async function takeoutLocations(folder: string, depth: number): Promise<string[]> {
  if (depth === 0) return []
  const entries = await readdir(folder, { withFileTypes: true })
  const found = await Promise.all(
    entries
      .filter((e) => e.isDirectory())
      .map(async (e) => {
        const dir = join(folder, e.name)
        if (TAKEOUT_LOCATION.test(e.name) && (await listFiles(dir)).some((n) => TAKEOUT_REVIEWS.test(n))) return [dir]
        return takeoutLocations(dir, depth - 1)
      })
  )
  return found.flat()
}

async function listFiles(folder: string): Promise<string[]> {
  return (await readdir(folder, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)
}

const collator = new Intl.Collator('en', { numeric: true })
function byName(a: string, b: string): number {
  return collator.compare(a, b)
}

async function readOne(path: string, name: string): Promise<InputFile> {
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => cannotRead(path, e))
  return { name, text }
}

function cannotRead(path: string, e: NodeJS.ErrnoException): never {
  throw new ImportFileError(path, [`cannot read the file: ${e.code ?? e.message}`])
}
