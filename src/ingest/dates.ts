/** Turning the dates of other systems into the calendar days (YYYY-MM-DD) reviews are dated by. */

/**
 * The calendar day of an instant in a time zone (null: UTC). A review written at 23:30 in Chicago on 2 January is
 * dated 2 January, although its UTC timestamp says the 3rd.
 */
export function dayIn(timestamp: string, timeZone: string | null): string {
  const parts = dayFormat(timeZone ?? 'UTC').formatToParts(new Date(timestamp))
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value
  return `${part('year')}-${part('month')}-${part('day')}`
}

const formats = new Map<string, Intl.DateTimeFormat>()
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone)
  if (!f) formats.set(timeZone, (f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })))
  return f
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** Pattern tokens, longest first so "MMMM" is not read as "MM" twice. Each knows its regex and where its value goes. */
const TOKENS: { token: string; re: string; field?: 'year' | 'month' | 'day' }[] = [
  { token: 'YYYY', re: '(\\d{4})', field: 'year' },
  { token: 'MMMM', re: `(${MONTHS.join('|')})`, field: 'month' },
  { token: 'MMM', re: `(${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`, field: 'month' },
  { token: 'MM', re: '(\\d{2})', field: 'month' },
  { token: 'DD', re: '(\\d{2})', field: 'day' },
  { token: 'HH', re: '(?:[01]\\d|2[0-3])' },
  { token: 'hh', re: '(?:0[1-9]|1[0-2])' },
  { token: 'mm', re: '[0-5]\\d' },
  { token: 'ss', re: '[0-5]\\d' },
  { token: 'M', re: '(\\d{1,2})', field: 'month' },
  { token: 'D', re: '(\\d{1,2})', field: 'day' },
  { token: 'H', re: '(?:1?\\d|2[0-3])' },
  { token: 'h', re: '(?:[1-9]|1[0-2])' },
  { token: 'A', re: '(?:AM|PM)' }
]

export class DatePatternError extends Error {}

/**
 * Compiles a date pattern such as "MM/DD/YYYY", "DD.MM.YYYY", "D MMMM YYYY" or "YYYY-MM-DD HH:mm" into a reader
 * that gives the calendar day a cell names (as written: no time zone is applied to a day written out), or null when
 * the cell does not have the pattern's form. Times are checked for form and otherwise ignored.
 */
export function datePattern(pattern: string): (cell: string) => string | null {
  const fields: ('year' | 'month' | 'day')[] = []
  let re = ''
  for (let i = 0; i < pattern.length; ) {
    const t = TOKENS.find((k) => pattern.startsWith(k.token, i))
    const quoted = /^\[([^\]]*)\]/.exec(pattern.slice(i))
    if (t) {
      re += t.re
      if (t.field) fields.push(t.field)
      i += t.token.length
    } else if (quoted) {
      re += escape(quoted[1]!)
      i += quoted[0].length
    } else {
      re += /[a-z]/i.test(pattern[i]!) && pattern[i] !== 'T' ? fail(pattern, pattern[i]!) : escape(pattern[i]!)
      i++
    }
  }
  for (const need of ['year', 'month', 'day'] as const) if (fields.filter((f) => f === need).length !== 1) throw new DatePatternError(`--date-format "${pattern}" must name the ${need} once (YYYY, MM or M or MMM or MMMM, DD or D)`)
  const regex = new RegExp(`^${re}$`, 'i')
  return (cell) => {
    const m = regex.exec(cell.trim())
    if (!m) return null
    const value = (field: 'year' | 'month' | 'day') => m[fields.indexOf(field) + 1]!
    return `${value('year')}-${pad(monthNumber(value('month')))}-${pad(Number(value('day')))}`
  }
}

function fail(pattern: string, letter: string): never {
  throw new DatePatternError(`--date-format "${pattern}": "${letter}" is not a pattern letter (YYYY, MM, M, MMM, MMMM, DD, D, HH, H, hh, h, mm, ss, A); put other text in brackets, as in [at]`)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function monthNumber(value: string): number {
  const name = MONTHS.findIndex((m) => m === value.toLowerCase() || m.slice(0, 3) === value.toLowerCase().replace(/\.$/, ''))
  return name >= 0 ? name + 1 : Number(value)
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}
