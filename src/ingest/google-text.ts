/**
 * Google's translation markup in review comments and owner replies. Google shows a review in the reader's language
 * and, in exports and the API, writes both versions into the one text:
 *
 *   (Translated by Google) Very kind staff.\n\n(Original)\nPersonal muy amable.
 *   Personal muy amable.\n\n(Translated by Google)\nVery kind staff.          (the reverse order, in some exports)
 *
 * The markers are in the language of the account that fetched them ("(Traduit par Google)", "(Übersetzt von Google)",
 * "（Google による翻訳）"). What the reviewer wrote is kept; Google's machine translation never becomes their words.
 */

/** A translation marker: a short bracketed phrase naming Google, at the start of a line. */
const TRANSLATED = /^[ \t]*[(（][^()（）\n]{0,40}\bGoogle\b[^()（）\n]{0,40}[)）][ \t]*/mu
/** The marker before the reviewer's own text, in the languages we have seen it in. */
const ORIGINAL = /^[ \t]*[(（](?:Original|Originale|Origineel|Oryginał|Originál|Alkuperäinen|Оригинал|Texto original|原文|원문)[)）][ \t]*/mu
const MARKER = new RegExp(`${TRANSLATED.source}|${ORIGINAL.source}`, 'gmu')

export interface OriginalText {
  /** The reviewer's (or owner's) own words; null when there are none, or only Google's translation of them. */
  text: string | null
  /** The text carried Google's translation markup. */
  translated: boolean
  /** It carried a translation whose original is not in the text, so nothing of it was kept. */
  originalMissing: boolean
}

export function originalText(comment: string | undefined): OriginalText {
  const whole = comment?.trim() || null
  if (!whole || !TRANSLATED.test(whole)) return { text: whole, translated: false, originalMissing: false }
  const parts = segments(whole)
  const original = parts.filter((p) => p.label === 'original').map((p) => p.text)
  const leading = parts.find((p) => p.label === 'none')?.text
  const text = (original.length ? original.join('\n\n') : leading) || null
  return { text, translated: true, originalMissing: text === null }
}

type Label = 'none' | 'original' | 'translation'

/** The text cut at every marker, each piece labelled by the marker before it ('none' for text before the first). */
function segments(text: string): { label: Label; text: string }[] {
  const marks = [...text.matchAll(MARKER)]
  const piece = (label: Label, from: number, to: number) => ({ label, text: text.slice(from, to).trim() })
  return [
    piece('none', 0, marks[0]?.index ?? text.length),
    ...marks.map((m, i) => piece(ORIGINAL.test(m[0]) ? 'original' : 'translation', m.index! + m[0].length, marks[i + 1]?.index ?? text.length))
  ].filter((p) => p.text)
}
