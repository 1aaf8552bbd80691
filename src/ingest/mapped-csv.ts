import { createHash } from 'node:crypto'
import { IsoDate, ReviewInput, Timestamp, type StoredReview } from '../domain/index.js'
import { booleanOrRaw, COLUMNS, fieldName, readRecords } from './csv.js'
import { datePattern, DatePatternError, dayIn } from './dates.js'
import { ImportFileError } from './errors.js'
import { detectLanguage } from './language.js'
import { readRating } from './ratings.js'
import type { InputFile } from './source.js'
import { counted } from './wording.js'

/**
 * Any CSV export (Yelp, Facebook, Trustpilot, a spreadsheet) read through a column mapping:
 * `--map "author=Reviewer name,rating=Stars,date=Date,text=Review"`. Columns the mapping does not name are ignored;
 * every row is validated like a native one, and every problem is listed with its row, field and column.
 */

export interface MappedCsvOptions {
  /** "field=Column,field=Column+Column,...": a column name with a comma in it goes in double quotes. */
  map: string
  /** The source of every row, unless a `source` column is mapped. */
  source?: string
  /** How dates are written ("MM/DD/YYYY"); without it, YYYY-MM-DD or an RFC 3339 timestamp. */
  dateFormat?: string
  /** The scale of bare-number ratings (default 5); "8/10" carries its own. */
  ratingScale?: number
  /** Mark every row verified (the export holds only reviews the site verified). */
  verified: boolean
}

/** A mistake in the options themselves, found before any file is read: the command line needs fixing. */
export class ImportOptionError extends Error {}

type Field = (typeof COLUMNS)[number]
type ColumnMap = Map<Field, string[]>

const REQUIRED: Field[] = ['author', 'rating', 'date']
/** Fields whose text may be put together from several columns (a review's title and body). */
const JOINABLE: Field[] = ['text', 'owner_reply_text']

/** Checks the options as a whole; the returned reader takes a file and the business's time zone. */
export function mappedCsvReader(o: MappedCsvOptions): (file: InputFile, timeZone: string | null) => MappedImport {
  const map = parseColumnMap(o.map)
  if (!o.source && !map.has('source')) throw new ImportOptionError('say where these reviews come from: --source <name> (e.g. yelp), or map a source column')
  if (map.has('owner_reply_text') && !map.has('owner_reply_date')) throw new ImportOptionError('--map: owner_reply_text needs owner_reply_date too (a reply is shown with its date)')
  let readDate: ((cell: string) => string | null) | undefined
  try {
    readDate = o.dateFormat ? datePattern(o.dateFormat) : undefined
  } catch (e) {
    if (e instanceof DatePatternError) throw new ImportOptionError(e.message)
    throw e
  }
  const settings = { ...o, map, readDate, ratingScale: o.ratingScale ?? 5 }
  return (file, timeZone) => parseMappedCsv(file, settings, timeZone)
}

function parseColumnMap(spec: string): ColumnMap {
  const map: ColumnMap = new Map()
  const problems: string[] = []
  for (const pair of splitOutsideQuotes(spec, ',').map((p) => p.trim()).filter(Boolean)) {
    const eq = pair.indexOf('=')
    const field = pair.slice(0, eq).trim() as Field
    const columns = splitOutsideQuotes(pair.slice(eq + 1), '+').map(unquote).filter(Boolean)
    if (eq < 1 || !columns.length) problems.push(`"${pair}" is not field=Column`)
    else if (!COLUMNS.includes(field)) problems.push(`unknown field "${field}" (fields: ${COLUMNS.join(', ')})`)
    else if (map.has(field)) problems.push(`field "${field}" is mapped twice`)
    else if (columns.length > 1 && !JOINABLE.includes(field)) problems.push(`only ${JOINABLE.join(' and ')} can join several columns with +`)
    else map.set(field, columns)
  }
  for (const f of REQUIRED) if (!map.has(f)) problems.push(`map ${f} to a column: it is required`)
  if (problems.length) throw new ImportOptionError(`--map: ${problems.join('; ')}`)
  return map
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts = ['']
  let quoted = false
  for (const ch of text) {
    if (ch === '"') quoted = !quoted
    if (ch === separator && !quoted) parts.push('')
    else parts[parts.length - 1] += ch
  }
  return parts
}

function unquote(name: string): string {
  return name.trim().replace(/^"(.*)"$/, '$1')
}

interface Settings extends Omit<MappedCsvOptions, 'map' | 'dateFormat'> {
  map: ColumnMap
  readDate?: (cell: string) => string | null
  ratingScale: number
}

interface MappedImport {
  reviews: StoredReview[]
  /** The sources the rows came from (what --replace is limited to). */
  sources: string[]
  notes: string[]
}

function parseMappedCsv(file: InputFile, s: Settings, timeZone: string | null): MappedImport {
  const { header, rows } = readRecords(file.name, file.text, delimiterOf(file.text))
  const index = columnIndexes(file.name, header, s.map)
  const ids = new IdMaker()
  const problems: string[] = []
  const reviews: StoredReview[] = []
  rows.forEach((cells, i) => {
    const cell = (f: Field) => joinCells(index.get(f)?.map((c) => cells[c] ?? ''))
    const r = rowReview(cell, s, timeZone, ids)
    if ('review' in r) reviews.push(r.review)
    else for (const p of r.problems) problems.push(`row ${i + 2}, field ${p.field}${columnOf(s.map, p.field)}: ${p.message}`)
  })
  if (problems.length) throw new ImportFileError(file.name, problems)
  const sources = s.map.has('source') ? [...new Set(reviews.map((r) => r.source))] : [s.source!]
  return { reviews, sources, notes: notes(header, index, s, reviews, ids.derived) }
}

/** Spreadsheets in many locales save with semicolons or tabs: the header row tells which. */
function delimiterOf(text: string): string {
  const end = text.indexOf('\n')
  const header = end < 0 ? text : text.slice(0, end)
  const counts = [',', ';', '\t'].map((d) => ({ d, n: header.split(d).length }))
  return counts.reduce((best, c) => (c.n > best.n ? c : best)).d
}

/** Each mapped field's column positions; a column the header lacks is an error naming the columns it has. */
function columnIndexes(file: string, header: string[], map: ColumnMap): Map<Field, number[]> {
  const names = header.map((h) => h.trim())
  const problems: string[] = []
  const index = new Map<Field, number[]>()
  for (const [field, columns] of map) {
    const positions = columns.map((c) => findColumn(names, c))
    positions.forEach((p, i) => p < 0 && problems.push(`header: no column "${columns[i]}" for ${field} (columns: ${names.map((n) => `"${n}"`).join(', ')})`))
    index.set(field, positions)
  }
  if (problems.length) throw new ImportFileError(file, problems)
  return index
}

/** The exact name, or else the one name that differs only in case. */
function findColumn(names: string[], column: string): number {
  const exact = names.indexOf(column)
  if (exact >= 0) return exact
  const loose = names.flatMap((n, i) => (n.toLowerCase() === column.toLowerCase() ? [i] : []))
  return loose.length === 1 ? loose[0]! : -1
}

function joinCells(cells: string[] | undefined): string | undefined {
  return cells?.map((c) => c.trim()).filter(Boolean).join('\n\n')
}

interface Problem {
  field: string
  message: string
}

function rowReview(cell: (f: Field) => string | undefined, s: Settings, timeZone: string | null, ids: IdMaker): { review: StoredReview } | { problems: Problem[] } {
  const problems: Problem[] = []
  const read = <T,>(field: Field, r: { value: T } | { problem: string }): T | undefined => ('problem' in r ? void problems.push({ field, message: r.problem }) : r.value)
  const rating = read('rating', stars(cell('rating') ?? '', s.ratingScale))
  const date = read('date', readDay(cell('date') ?? '', s, timeZone))
  const replyText = cell('owner_reply_text') || null
  const replyDate = replyText ? read('owner_reply_date', readDay(cell('owner_reply_date') ?? '', s, timeZone)) : undefined
  const source = cell('source') || s.source
  const text = cell('text') || null
  const candidate = {
    id: cell('id') ? `${idPrefix(source)}-${cell('id')}` : ids.make(source, cell('author') ?? '', date?.day ?? ''),
    author: cell('author'),
    author_avatar_url: cell('author_avatar_url'),
    rating,
    date: date?.day,
    published_at: cell('published_at') || date?.timestamp,
    text,
    source,
    source_url: cell('source_url'),
    owner_reply: replyText ? { text: replyText, date: replyDate?.day } : null,
    verified: s.verified || (s.map.has('verified') ? booleanOrRaw(cell('verified')) : false),
    language: s.map.has('language') ? cell('language') : detectLanguage(text)
  }
  const parsed = ReviewInput.safeParse(candidate)
  if (parsed.success && !problems.length) return { review: parsed.data }
  const already = new Set(problems.map((p) => p.field))
  const more = parsed.success ? [] : parsed.error.issues.map((i) => ({ field: fieldName(i.path), message: i.message })).filter((p) => !already.has(p.field))
  return { problems: [...problems, ...more] }
}

function stars(cell: string, scale: number): { value: number } | { problem: string } {
  const r = readRating(cell, scale)
  return 'stars' in r ? { value: r.stars } : r
}

/**
 * A day as --date-format describes it; without one, YYYY-MM-DD, or an RFC 3339 timestamp, which is dated in the
 * business's time zone (like Google's) and kept as published_at.
 */
function readDay(cell: string, s: Settings, timeZone: string | null): { value: { day: string; timestamp?: string } } | { problem: string } {
  const text = cell.trim()
  if (!text) return { problem: 'is empty' }
  if (s.readDate) {
    const day = s.readDate(text)
    if (day && IsoDate.safeParse(day).success) return { value: { day } }
    return { problem: day ? `"${text}" is not a real calendar date` : `"${text}" does not have the form of --date-format` }
  }
  if (IsoDate.safeParse(text).success) return { value: { day: text } }
  if (Timestamp.safeParse(text).success) return { value: { day: dayIn(text, timeZone), timestamp: text } }
  return { problem: `"${text}" is not YYYY-MM-DD or an RFC 3339 timestamp: say how dates are written with --date-format (e.g. MM/DD/YYYY)` }
}

function columnOf(map: ColumnMap, field: string): string {
  const columns = map.get(field as Field)
  return columns ? ` (column ${columns.map((c) => `"${c}"`).join(' + ')})` : ''
}

/** Ids carry their source, so a review from one site never takes the id of one from another. */
function idPrefix(source: string | undefined): string {
  return (source ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'review'
}

/**
 * Without an id column, a review's id is made from its source, author and day, so the same row gets the same id on
 * every import (an edited text updates it rather than adding a review); two reviews by one author on one day are
 * told apart by their order in the file.
 */
class IdMaker {
  derived = false
  private readonly used = new Map<string, number>()

  make(source: string | undefined, author: string, day: string): string {
    this.derived = true
    const base = `${idPrefix(source)}-${createHash('sha256').update(`${author.trim()}\n${day}`).digest('hex').slice(0, 16)}`
    const n = (this.used.get(base) ?? 0) + 1
    this.used.set(base, n)
    return n === 1 ? base : `${base}-${n}`
  }
}

function notes(header: string[], index: Map<Field, number[]>, s: Settings, reviews: StoredReview[], derivedIds: boolean): string[] {
  const read = new Set([...index.values()].flat())
  const ignored = header.map((h) => h.trim()).filter((_h, i) => !read.has(i))
  const unverified = reviews.filter((r) => !r.verified).length
  return [
    ...(ignored.length ? [`columns not imported: ${ignored.map((h) => `"${h}"`).join(', ')}`] : []),
    ...(s.ratingScale !== 5 ? [`bare ratings read on a scale of ${s.ratingScale} and rounded to whole stars`] : []),
    ...(derivedIds ? ['no id column mapped: each id is made from the source, author and date (map id=<column> if the export has review ids)'] : []),
    ...(unverified ? [`warning: ${counted(unverified, 'review')} not marked verified: stored, not published (pass --verified if the export holds only verified reviews)`] : [])
  ]
}
