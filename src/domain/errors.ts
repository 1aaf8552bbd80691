import { z } from 'zod'

/** One catalog of error codes; only the edges turn them into HTTP bodies, MCP results or hub replies. */
export const ERROR_STATUS = {
  invalid_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal_error: 500,
  service_unavailable: 503
} as const
export type ErrorCode = keyof typeof ERROR_STATUS

export const Issue = z
  .object({
    code: z.string().describe('Machine-readable problem, e.g. too_big, invalid_type, unrecognized_keys.'),
    path: z.array(z.union([z.string(), z.number()])).describe('Where the problem is, e.g. ["limit"].'),
    message: z.string()
  })
  .meta({ id: 'Issue' })
export type Issue = z.output<typeof Issue>

export const ErrorBody = z
  .object({
    error: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    issues: z.array(Issue).optional()
  })
  .meta({ id: 'Error' })
export type ErrorBody = z.output<typeof ErrorBody>

export const ValidationErrorBody = ErrorBody.extend({
  error: z.literal('invalid_request'),
  issues: z.array(Issue).min(1)
}).meta({ id: 'ValidationError' })

export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: Issue[]
  ) {
    super(message)
  }
  get status(): number {
    return ERROR_STATUS[this.code]
  }
  toBody(): ErrorBody {
    return this.issues ? { error: this.code, message: this.message, issues: this.issues } : { error: this.code, message: this.message }
  }
}

/** zod issues become contract issues; an unknown key gets its own issue whose path names it. */
export function toIssues(error: z.ZodError): Issue[] {
  return error.issues.flatMap((i): Issue[] => {
    const path = i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
    if (i.code === 'unrecognized_keys') {
      return i.keys.map((k) => ({ code: 'unrecognized_keys', path: [...path, k], message: `unknown parameter "${k}"` }))
    }
    return [{ code: i.code, path, message: i.message }]
  })
}

export function invalidRequest(issues: Issue[], message = 'The request has invalid parameters.'): ServiceError {
  return new ServiceError('invalid_request', message, issues)
}

/** Parses input against a schema, or throws invalid_request with every issue. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, message?: string): z.output<S> {
  const r = schema.safeParse(input)
  if (!r.success) throw invalidRequest(toIssues(r.error), message)
  return r.data
}
