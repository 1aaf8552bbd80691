import { z } from 'zod'
import { integerIn } from './primitives.js'

/**
 * Colours of the badge and the widget: for a light page, for a dark one, or following the reader's system setting
 * (prefers-color-scheme), which suits a site that itself follows it.
 */
export const Theme = z.enum(['light', 'dark', 'auto'], { error: 'must be light, dark or auto' })
export type Theme = z.output<typeof Theme>

/** GET /badge.svg: nothing but its colours. */
export const BadgeParams = z.strictObject({
  theme: Theme.default('light').describe('light (dark text on white), dark (light text on near-black) or auto (follows the reader\'s colour scheme).')
})
export type BadgeParams = z.output<typeof BadgeParams>

/** GET /embed: which reviews the widget shows, and its colours. */
export const EmbedParams = z.strictObject({
  limit: integerIn(1, 10).default(3).describe('How many of the newest reviews to show, 1 to 10.'),
  min_rating: integerIn(1, 5)
    .default(1)
    .describe('Show only reviews with at least this many stars; the widget then says so, and the overall rating still counts every review.'),
  theme: Theme.default('light').describe('light, dark, or auto (follows the reader\'s colour scheme).')
})
export type EmbedParams = z.output<typeof EmbedParams>
