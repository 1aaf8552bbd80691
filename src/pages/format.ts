import type { Review, Weekday } from '../domain/index.js'

const LONG_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })
const MONTH_YEAR = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })

function utc(date: string): Date {
  return new Date(date.length === 10 ? `${date}T00:00:00Z` : date)
}

/** "2024-03-05" or a timestamp, as "March 5, 2024" (calendar dates, so UTC keeps the day). */
export function formatDate(date: string): string {
  return LONG_DATE.format(utc(date))
}

export function formatMonth(date: string): string {
  return MONTH_YEAR.format(utc(date))
}

export function formatDateTime(d: Date): string {
  return `${LONG_DATE.format(d)} at ${d.toISOString().slice(11, 16)} UTC`
}

/** Text that may hold line breaks, on one line: for a description, a Markdown line or a name. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
}

/** "Jane Q. Public" -> "JP": the avatar shown instead of loading a picture from another site. */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((w) => /\p{L}/u.test(w))
  const letters = words.length > 1 ? [words[0]!, words.at(-1)!] : words
  return letters.map((w) => [...w.replace(/^\P{L}+/u, '')][0]?.toUpperCase() ?? '').join('') || '?'
}

/** "google" -> "Google": the source as a reader would name it. */
export function sourceLabel(review: Review): string {
  const s = review.source
  return s.length <= 3 ? s.toUpperCase() : s.charAt(0).toUpperCase() + s.slice(1)
}

const DAY_NAMES: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday'
}

export function dayName(day: Weekday): string {
  return DAY_NAMES[day]
}

/** "08:30" -> "8:30 AM"; "24:00" -> "midnight". */
export function clock(time: string): string {
  if (time === '24:00' || time === '00:00') return 'midnight'
  const [h, m] = time.split(':').map(Number) as [number, number]
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`
}

export function percent(part: number, whole: number): number {
  return whole ? Math.round((part / whole) * 100) : 0
}
