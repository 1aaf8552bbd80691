/**
 * Ratings as other sites export them: "4", "4.0", "4/5", "8/10", "4 out of 5", "4 stars", "★★★★☆". A bare number is
 * on `scale` (--rating-scale, default 5); every rating is brought to five stars and rounded to the nearest whole star,
 * halves up (7/10 is 3.5, so 4 stars), since reviews here carry whole stars like those of every major site.
 */
export type RatingReading = { stars: number } | { problem: string }

const NUMBER = '(\\d+(?:[.,]\\d+)?)'
const OUT_OF = new RegExp(`^${NUMBER}\\s*(?:/|out of|of)\\s*${NUMBER}$`, 'i')
const BARE = new RegExp(`^${NUMBER}(?:\\s*stars?)?$`, 'i')
const GLYPHS = /^[★☆]+$/u

export function readRating(cell: string, scale: number): RatingReading {
  const text = cell.trim()
  if (!text) return { problem: 'is empty: every review needs a rating' }
  const outOf = OUT_OF.exec(text)
  if (outOf) return toStars(number(outOf[1]!), number(outOf[2]!), text)
  const bare = BARE.exec(text)
  if (bare) return toStars(number(bare[1]!), scale, text)
  if (GLYPHS.test(text)) return toStars([...text].filter((c) => c === '★').length, [...text].length, text)
  return { problem: `"${text}" is not a rating (a number such as 4, or 4/5, 8/10, "4 out of 5", ★★★★☆)` }
}

function number(text: string): number {
  return Number(text.replace(',', '.'))
}

function toStars(value: number, of: number, text: string): RatingReading {
  if (!(of >= 2)) return { problem: `"${text}": a scale must have at least 2 points` }
  if (value > of) return { problem: `"${text}" is above the top of its scale (${of})` }
  const stars = Math.round((value * 5) / of)
  return stars >= 1 ? { stars } : { problem: `"${text}" is below one star` }
}
