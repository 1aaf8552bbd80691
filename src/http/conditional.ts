/**
 * Conditional requests (RFC 9110 section 13): the one place that decides 304 and 412.
 *
 * Only the preconditions and the selected representation's validators count. Cache-Control and Pragma in a request
 * are instructions to caches (RFC 9111 section 5.2.1), not to the origin: every fetch() sends `no-cache` with a
 * conditional request (Fetch standard, "HTTP-network-or-cache fetch"), so an origin that gave up on the
 * preconditions because of it would never answer 304 to a browser, Node or Deno.
 */

/** What the preconditions decide: perform the method, answer 304, or answer 412. */
export type Outcome = 'perform' | 'not-modified' | 'failed'

/** The request fields this looks at, as Node gives them (no surrounding whitespace). */
export interface ConditionalFields {
  'if-match'?: string | undefined
  'if-none-match'?: string | undefined
  'if-modified-since'?: string | undefined
  'if-unmodified-since'?: string | undefined
}

/**
 * Evaluates the preconditions in the order of RFC 9110 section 13.2.2 against the selected representation's strong
 * `etag` and its `lastModified` time. Only called for a request that would otherwise succeed (13.2.1). No Range
 * requests are served, so If-Range (step 5) never applies.
 */
export function evaluatePreconditions(method: string, fields: ConditionalFields, etag: string, lastModified: Date): Outcome {
  const ifMatch = fields['if-match']
  if (ifMatch !== undefined) {
    // Step 1; If-Match compares strongly (13.1.1).
    if (!matchesIfMatch(ifMatch, etag)) return 'failed'
  } else if (unmodifiedSinceFails(fields['if-unmodified-since'], lastModified)) {
    // Step 2: If-Unmodified-Since only without If-Match (13.1.4).
    return 'failed'
  }
  const ifNoneMatch = fields['if-none-match']
  if (ifNoneMatch !== undefined) {
    // Step 3: If-None-Match compares weakly (13.1.2); when it is present If-Modified-Since is ignored (13.1.3).
    if (!matchesIfNoneMatch(ifNoneMatch, etag)) return 'perform'
    return isGetOrHead(method) ? 'not-modified' : 'failed'
  }
  // Step 4: If-Modified-Since only for GET and HEAD (13.1.3).
  if (isGetOrHead(method) && notModifiedSince(fields['if-modified-since'], lastModified)) return 'not-modified'
  return 'perform'
}

function isGetOrHead(method: string): boolean {
  return method === 'GET' || method === 'HEAD'
}

/** If-Match: `*` is true for any current representation; otherwise a listed tag must be strongly equal (13.1.1). */
function matchesIfMatch(field: string, etag: string): boolean {
  return isStar(field) || listHasTag(field, etag, false)
}

/** If-None-Match: `*` or a listed tag weakly equal to ours makes the condition false, i.e. a match (13.1.2). */
function matchesIfNoneMatch(field: string, etag: string): boolean {
  // The usual revalidation sends back exactly the tag we gave: no parsing, no allocation.
  return field === etag || isStar(field) || listHasTag(field, etag, true)
}

/** If-Unmodified-Since fails when the representation changed after the date; an invalid date is ignored (13.1.4). */
function unmodifiedSinceFails(field: string | undefined, lastModified: Date): boolean {
  if (field === undefined) return false
  const date = parseHttpDate(field)
  return !Number.isNaN(date) && wholeSeconds(lastModified) > date
}

/**
 * If-Modified-Since is false (304) when the representation has not changed after the date; an invalid date is
 * ignored (13.1.3). A date ahead of our clock is not: RFC 2616 called it invalid, RFC 7232 and 9110 dropped that and
 * say to read the date on the origin's clock.
 */
function notModifiedSince(field: string | undefined, lastModified: Date): boolean {
  if (field === undefined) return false
  const date = parseHttpDate(field)
  return !Number.isNaN(date) && wholeSeconds(lastModified) <= date
}

/** Last-Modified is sent to the second (HTTP-date has no fraction), so it is compared as sent. */
function wholeSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000) * 1000
}

const SP = 0x20
const HTAB = 0x09
const COMMA = 0x2c
const DQUOTE = 0x22
const STAR = 0x2a
const SLASH = 0x2f
const W = 0x57

function isOws(code: number): boolean {
  return code === SP || code === HTAB
}

/** `*` is the whole field value, never a list member (13.1.1, 13.1.2). */
function isStar(field: string): boolean {
  let i = 0
  while (isOws(field.charCodeAt(i))) i++
  if (field.charCodeAt(i) !== STAR) return false
  i++
  while (isOws(field.charCodeAt(i))) i++
  return i === field.length
}

/**
 * Scans `#entity-tag` (RFC 9110 sections 5.6.1 and 8.8.3) in place for a tag equal to `etag`, which is strong and
 * well formed. Weak comparison lets `W/"x"` match `"x"`; strong comparison needs both tags strong (8.8.3.2). A member
 * that is not an entity-tag (a bare word, `w/"x"`, an unclosed quote, two tags without a comma) matches nothing, so
 * garbage can only make a request unconditional (If-None-Match) or fail it (If-Match), never earn a 304.
 */
function listHasTag(field: string, etag: string, weak: boolean): boolean {
  const end = field.length
  let i = 0
  while (i < end) {
    const c = field.charCodeAt(i)
    if (isOws(c) || c === COMMA) {
      i++
      continue
    }
    const isWeak = c === W && field.charCodeAt(i + 1) === SLASH
    const open = isWeak ? i + 2 : i
    const close = field.charCodeAt(open) === DQUOTE ? field.indexOf('"', open + 1) : -1
    let next = close === -1 ? open : close + 1
    while (isOws(field.charCodeAt(next))) next++
    const isTag = close !== -1 && (next === end || field.charCodeAt(next) === COMMA)
    if (isTag && (weak || !isWeak) && close + 1 - open === etag.length && field.startsWith(etag, open)) return true
    i = isTag ? next : nextComma(field, next)
  }
  return false
}

function nextComma(field: string, from: number): number {
  const at = field.indexOf(',', from)
  return at === -1 ? field.length : at
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const MONTH = `(${MONTHS.join('|')})`
const TIME = '(\\d\\d):(\\d\\d):(\\d\\d)'
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d\\d) ${MONTH} (\\d{4}) ${TIME} GMT$`)
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d\\d)-${MONTH}-(\\d\\d) ${TIME} GMT$`)
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} (\\d\\d| \\d) ${TIME} (\\d{4})$`)

/**
 * An HTTP-date (RFC 9110 section 5.6.7) in ms since the epoch, or NaN when the value is none. All three formats are
 * accepted, as recipients must; anything else is not an HTTP-date. Date.parse is not used: it takes "1", "2024" or
 * "tomorrow 5pm" in some engines as dates, and a date made up from garbage could earn a wrong 304.
 */
export function parseHttpDate(value: string): number {
  let m = IMF_FIXDATE.exec(value)
  if (m) return utc(Number(m[3]), m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!)
  m = RFC850_DATE.exec(value)
  if (m) return utc(fullYear(Number(m[3])), m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!)
  m = ASCTIME_DATE.exec(value)
  if (m) return utc(Number(m[6]), m[1]!, Number(m[2]), m[3]!, m[4]!, m[5]!)
  return NaN
}

/** A two-digit year more than 50 years ahead is the most recent past year with those digits (5.6.7). */
function fullYear(yy: number): number {
  const now = new Date().getUTCFullYear()
  const year = now - (now % 100) + yy
  return year > now + 50 ? year - 100 : year
}

/** The instant, or NaN for a day the month does not have or a time of day out of range (second 60 is a leap second). */
function utc(year: number, month: string, day: number, hh: string, mm: string, ss: string): number {
  const [h, m, s] = [Number(hh), Number(mm), Number(ss)]
  if (h > 23 || m > 59 || s > 60) return NaN
  const date = new Date(0)
  date.setUTCFullYear(year, MONTHS.indexOf(month), day)
  if (date.getUTCDate() !== day) return NaN
  return date.getTime() + ((h * 60 + m) * 60 + s) * 1000
}
