import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { invalidRequest, toIssues, type Issue } from '../domain/index.js'

const DECIMAL = /^-?\d+(?:\.\d+)?$/

/**
 * Turns a parsed query string into the typed input a domain schema expects, using the schema's own JSON Schema to
 * know which parameters are numbers. Only clean decimals are converted, so "2.5", "1e2" or "five" still reach the
 * schema and fail there with its message. A repeated parameter is an issue of its own.
 */
export function queryDecoder(schema: z.ZodType): (query: Record<string, unknown>) => { input: Record<string, unknown>; issues: Issue[] } {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string }> }
  const numeric = new Set(
    Object.entries(json.properties ?? {})
      .filter(([, s]) => s.type === 'integer' || s.type === 'number')
      .map(([k]) => k)
  )
  return (query) => {
    const input: Record<string, unknown> = {}
    const issues: Issue[] = []
    for (const [key, value] of Object.entries(query)) {
      if (Array.isArray(value)) {
        issues.push({ code: 'repeated_parameter', path: [key], message: `parameter "${key}" is given ${value.length} times; give it once` })
        continue
      }
      input[key] = numeric.has(key) && typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value
    }
    return { input, issues }
  }
}

/** One 400 for everything wrong with a request: the HTTP-level issues plus whatever the schema finds. */
export function throwAll(issues: Issue[], schema: z.ZodType, input: unknown, message: string): never {
  const rest = schema.safeParse(input)
  throw invalidRequest([...issues, ...(rest.success ? [] : toIssues(rest.error))], message)
}

/** A request's query string validated against `schema`, or a 400 with every problem (unknown and repeated parameters included). */
export function queryReader<S extends z.ZodType>(schema: S, message: string): (req: FastifyRequest) => z.output<S> {
  const decode = queryDecoder(schema)
  return (req) => {
    const { input, issues } = decode(req.query as Record<string, unknown>)
    const parsed = schema.safeParse(input)
    if (issues.length || !parsed.success) throwAll(issues, schema, input, message)
    return parsed.data
  }
}
