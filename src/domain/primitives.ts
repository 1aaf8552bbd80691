import { z } from 'zod'

/** A calendar date, YYYY-MM-DD; impossible dates such as 2025-02-30 are rejected. */
export const IsoDate = z.iso.date({ error: 'must be a real calendar date in the form YYYY-MM-DD' })

/** An RFC 3339 timestamp with an explicit offset or Z. */
export const Timestamp = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 date-time with a time zone' })

export const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048)

/** Stable identifiers appear in URLs, so they are kept to URL-safe characters. */
export const ReviewId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._~:-]{0,127}$/, 'must be 1-128 URL-safe characters (letters, digits, . _ ~ : -)')

export const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lowercase slug such as "home-visit"')
  .max(64)

export const ShortText = z.string().trim().min(1).max(200)

/** An IANA time zone name ("America/Chicago") that this runtime's Intl knows; offsets such as "+01:00" are not names. */
export const TimeZone = z
  .string()
  .max(64)
  .refine((tz) => /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(tz) && isKnownTimeZone(tz), {
    error: 'must be an IANA time zone name such as "America/Chicago"'
  })

function isKnownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

/** A missing key, an empty string or null all mean "absent" on input; output always has the key. */
export function optionalNullable<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === '' || v === undefined ? null : v), schema.nullable())
}

/** An integer parameter with a message that says what is expected ("must be an integer from 1 to 100"). */
export function integerIn(min: number, max: number) {
  const message = `must be an integer from ${min} to ${max}`
  return z.int({ error: message }).min(min, message).max(max, message)
}

export function numberIn(min: number, max: number) {
  const message = `must be a number from ${min} to ${max}`
  return z.number({ error: message }).min(min, message).max(max, message)
}
