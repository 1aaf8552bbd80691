/** Percent with one decimal. */
export const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10)
export const round2 = (x: number) => Math.round(x * 100) / 100
export const round3 = (x: number) => Math.round(x * 1000) / 1000
export const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)

/** Review ids cited as "[id1, id2]" in prose. */
export const cite = (ids: readonly string[]) => `[${ids.join(', ')}]`

export const quoteList = (phrases: readonly string[]) => {
  const q = phrases.map((p) => `"${p}"`)
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} and ${q.at(-1)}`
}

/** Newest first, then id: the order reviews are cited in. */
export function newestFirst<T extends { date: string; id: string }>(a: T, b: T): number {
  return a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}
