import type { Sentence } from './nlp.js'

const NUMBERS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, fourteen: 14, 'a couple of': 2, 'a couple': 2, couple: 2, 'a few': 3, few: 3
}
const UNIT_DAYS: Record<string, number> = { hour: 1 / 24, day: 1, week: 7, month: 30 }
const NUMBER = `(\\d+(?:\\.\\d+)?|${Object.keys(NUMBERS).sort((a, b) => b.length - a.length).join('|')})`
const DURATION = new RegExp(`\\b${NUMBER}(?:\\s*(?:-|to|or)\\s*${NUMBER})?\\s+(?:business\\s+|full\\s+)?(hour|day|week|month)s?\\b`, 'gi')
const NEXT_DAY = /\b(?:the\s+)?(next|following)\s+day\b|\bovernight\b/i
const SAME_DAY = /\b(?:the\s+)?same\s+day\b/i

const number = (s: string) => NUMBERS[s.toLowerCase()] ?? Number(s)

/**
 * Durations (in days) a review states in sentences about the turnaround subject ("we had Dad's ashes back in five
 * days", "the urn came 2-3 weeks later"). A range counts as its midpoint.
 */
export function statedDurations(sentences: readonly Sentence[], subject: ReadonlySet<string>): number[] {
  if (subject.size === 0) return []
  const days: number[] = []
  for (const s of sentences) {
    if (!s.tokens.some((t) => subject.has(t.lemma) || subject.has(t.lower))) continue
    if (SAME_DAY.test(s.text)) days.push(0)
    else if (NEXT_DAY.test(s.text)) days.push(1)
    for (const m of s.text.matchAll(DURATION)) {
      const low = number(m[1]!)
      const high = m[2] ? number(m[2]) : low
      days.push(((low + high) / 2) * UNIT_DAYS[m[3]!.toLowerCase()]!)
    }
  }
  return days.filter((d) => Number.isFinite(d) && d <= 365)
}
