import type { Theme } from '../domain/index.js'
import { container, element } from '../xml/index.js'
import { plural } from './format.js'
import type { SiteData } from './site.js'

/**
 * The rating badge (GET /badge.svg): the rating, five stars filled to it, and the review count, in a few hundred bytes
 * of SVG for the business's own site. It carries its own background so it reads on any page; `theme` picks light or
 * dark colours, or `auto`, which follows the reader's colour scheme through a media query. Widths come from a table
 * of glyph widths, and each text is held to its width with textLength, so no font can make the parts overlap.
 */

const HEIGHT = 28
const PAD = 10
const GAP = 6
const FONT = 13

/** Colours with at least 4.5:1 contrast against their own background. */
const COLOURS = {
  light: { bg: '#fff', line: '#d6cfc2', ink: '#23211e', star: '#8a6212', empty: '#d6cfc2' },
  dark: { bg: '#1f1d1a', line: '#4a4640', ink: '#f3efe8', star: '#e8b64c', empty: '#5a554d' }
}

/** For theme=auto: the light colours as attributes, the dark ones as rules that win when the reader asks for dark. */
export const BADGE_AUTO_STYLE = `@media(prefers-color-scheme:dark){.b{fill:${COLOURS.dark.bg};stroke:${COLOURS.dark.line}}.i{fill:${COLOURS.dark.ink}}.s{stop-color:${COLOURS.dark.star}}.e{stop-color:${COLOURS.dark.empty}}}`

/** Advance widths at 13 px of a common sans-serif, close enough that textLength only nudges. */
const WIDTH: Record<string, number> = { ' ': 3.6, '.': 3.6, ',': 3.6, '★': 13, i: 3, l: 3, r: 4.6, t: 4.2, f: 4.2, w: 9.5, m: 10.5 }
function textWidth(text: string, bold = false): number {
  const w = [...text].reduce((sum, c) => sum + (WIDTH[c] ?? (/\d/.test(c) ? 7.2 : /[A-Z]/.test(c) ? 8.5 : 6.8)), 0)
  return Math.ceil(bold ? w * 1.06 : w)
}

export function renderBadge(site: SiteData, theme: Theme): string {
  const { aggregate, business } = site
  const c = theme === 'dark' ? COLOURS.dark : COLOURS.light
  const auto = theme === 'auto'
  const cls = (name: string): Record<string, string> => (auto ? { class: name } : {})
  const value = aggregate.rating_value
  const count = value === null ? 'No reviews yet' : plural(aggregate.review_count, 'review')
  const texts: { text: string; width: number; attrs: Record<string, string> }[] = [
    ...(value === null
      ? []
      : [
          { text: value.toFixed(1), width: textWidth(value.toFixed(1), true), attrs: { 'font-weight': '700' } },
          { text: '★★★★★', width: textWidth('★★★★★'), attrs: { fill: 'url(#rb-g)' } }
        ]),
    { text: count, width: textWidth(count), attrs: {} }
  ]
  let x = PAD
  const placed = texts.map((t) => {
    const at = x
    x += t.width + GAP
    return element('text', { x: String(at), y: '18.5', textLength: String(t.width), lengthAdjust: 'spacingAndGlyphs', ...t.attrs }, t.text)
  })
  const width = x - GAP + PAD
  const title = value === null ? `${business.name}: no reviews yet` : `${business.name}: rated ${value.toFixed(1)} out of 5`
  const desc = value === null ? 'No verified reviews have been published yet.' : `Average of ${plural(aggregate.review_count, 'verified review')}.`
  const filled = value === null ? 0 : Math.round((value / 5) * 1000) / 10
  return container(
    'svg',
    { xmlns: 'http://www.w3.org/2000/svg', width: String(width), height: String(HEIGHT), viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img', 'aria-labelledby': 'rb-t', 'aria-describedby': 'rb-d' },
    [
      element('title', { id: 'rb-t' }, title),
      element('desc', { id: 'rb-d' }, desc),
      ...(auto ? [element('style', {}, BADGE_AUTO_STYLE)] : []),
      ...(value === null
        ? []
        : [
            container('linearGradient', { id: 'rb-g' }, [
              element('stop', { offset: `${filled}%`, 'stop-color': c.star, ...cls('s') }),
              element('stop', { offset: `${filled}%`, 'stop-color': c.empty, ...cls('e') })
            ])
          ]),
      element('rect', { width: String(width), height: String(HEIGHT), rx: '6', fill: c.bg, stroke: c.line, ...cls('b') }),
      container('g', { 'font-family': 'system-ui,sans-serif', 'font-size': String(FONT), fill: c.ink, ...cls('i') }, placed)
    ]
  )
}
