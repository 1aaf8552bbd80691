import { z } from 'zod'
import { ImportDocument } from '../domain/index.js'
import { ImportFileError } from './errors.js'

export function parseJsonImport(file: string, text: string): ImportDocument {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    throw new ImportFileError(file, [`not valid JSON: ${(e as Error).message}`])
  }
  const parsed = ImportDocument.safeParse(raw)
  if (!parsed.success) throw new ImportFileError(file, describeIssues(parsed.error, raw))
  return parsed.data
}

/** "reviews[12] (id r-42).rating: Too big: expected number to be <=5" */
function describeIssues(error: z.ZodError, raw: unknown): string[] {
  return error.issues.map((i) => {
    const [head, index, ...rest] = i.path
    if (head === 'reviews' && typeof index === 'number') {
      const id = reviewId(raw, index)
      const field = rest.length ? `.${rest.join('.')}` : ''
      return `reviews[${index}]${id ? ` (id ${id})` : ''}${field}: ${i.message}`
    }
    return `${i.path.join('.') || '(document)'}: ${i.message}`
  })
}

function reviewId(raw: unknown, index: number): string | undefined {
  const reviews = (raw as { reviews?: unknown[] })?.reviews
  const id = (reviews?.[index] as { id?: unknown } | undefined)?.id
  return typeof id === 'string' ? JSON.stringify(id) : undefined
}
