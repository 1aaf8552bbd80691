import { parse } from 'csv-parse/sync'
import { ImportedReview, type ImportDocument, type StoredReview } from '../domain/index.js'
import { ImportFileError } from './errors.js'

/** The native columns, which are also the fields a --map may fill. */
export const COLUMNS = [
  'id', 'author', 'author_avatar_url', 'rating', 'date', 'published_at', 'text', 'source', 'source_url',
  'owner_reply_text', 'owner_reply_date', 'verified', 'language'
] as const
const REQUIRED = ['id', 'author', 'rating', 'date', 'source', 'verified'] as const

type Row = Partial<Record<(typeof COLUMNS)[number], string>>

/** CSV with a header row; one review per row. The business must already be in the database. */
export function parseCsvImport(file: string, text: string): ImportDocument {
  const { header, rows } = readRecords(file, text)
  checkHeader(file, header)
  const problems: string[] = []
  const reviews: StoredReview[] = []
  rows.forEach((cells, i) => {
    const line = i + 2
    const parsed = ImportedReview.safeParse(toReview(Object.fromEntries(header.map((h, c) => [h.trim(), cells[c]])) as Row))
    if (parsed.success) reviews.push(parsed.data)
    else for (const issue of parsed.error.issues) problems.push(`row ${line}, field ${fieldName(issue.path)}: ${issue.message}`)
  })
  if (problems.length) throw new ImportFileError(file, problems)
  return { reviews }
}

/** The header row and the rows after it (RFC 4180; a byte-order mark and empty lines are skipped). */
export function readRecords(file: string, text: string, delimiter = ','): { header: string[]; rows: string[][] } {
  let records: string[][]
  try {
    records = parse(text, { bom: true, delimiter, relax_column_count: false, skip_empty_lines: true, trim: false })
  } catch (e) {
    throw new ImportFileError(file, [`not valid CSV: ${(e as Error).message}`])
  }
  const [header, ...rows] = records
  if (!header) throw new ImportFileError(file, ['the file is empty: expected a header row'])
  return { header, rows }
}

function checkHeader(file: string, header: string[]): void {
  const names = header.map((h) => h.trim())
  const problems = [
    ...names.filter((n) => !(COLUMNS as readonly string[]).includes(n)).map((n) => `header: unknown column "${n}" (known: ${COLUMNS.join(', ')})`),
    ...REQUIRED.filter((n) => !names.includes(n)).map((n) => `header: missing required column "${n}"`),
    ...names.filter((n, i) => names.indexOf(n) !== i).map((n) => `header: column "${n}" appears twice`)
  ]
  if (problems.length) throw new ImportFileError(file, problems)
}

function toReview(row: Row): Record<string, unknown> {
  const hasReply = Boolean(row.owner_reply_text?.trim() || row.owner_reply_date?.trim())
  return {
    id: row.id,
    author: row.author,
    author_avatar_url: row.author_avatar_url,
    rating: integerOrRaw(row.rating),
    date: row.date,
    published_at: row.published_at,
    text: row.text,
    source: row.source,
    source_url: row.source_url,
    owner_reply: hasReply ? { text: row.owner_reply_text ?? '', date: row.owner_reply_date ?? '' } : null,
    verified: booleanOrRaw(row.verified),
    language: row.language
  }
}

/** Cells are text; convert only clean values so anything else fails validation with the cell's own value. */
function integerOrRaw(cell: string | undefined): unknown {
  return cell !== undefined && /^\s*-?\d+\s*$/.test(cell) ? Number(cell) : cell
}

export function booleanOrRaw(cell: string | undefined): unknown {
  const v = cell?.trim().toLowerCase()
  if (v === 'true' || v === '1' || v === 'yes') return true
  if (v === 'false' || v === '0' || v === 'no') return false
  return cell
}

export function fieldName(path: PropertyKey[]): string {
  if (path[0] === 'owner_reply' && path[1]) return `owner_reply_${String(path[1])}`
  return path.map(String).join('.') || '(row)'
}
