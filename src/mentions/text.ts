/** Lowercase, accents and apostrophes removed: "Sutter’s" and "sutters" fold alike. */
export function foldWord(word: string): string {
  // Most words are plain ASCII letters and need no Unicode normalisation.
  if (/^[A-Za-z]+$/.test(word)) return word.toLowerCase()
  return word.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/['’]/g, '')
}

export interface Token {
  folded: string
  capitalized: boolean
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu

export function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  for (const m of text.matchAll(WORD)) {
    const raw = m[0]
    tokens.push({ folded: foldWord(raw), capitalized: raw[0] !== raw[0]!.toLowerCase() })
  }
  return tokens
}

/** Whole-text folding for substring search: case, accents and typographic apostrophes ignored. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/’/g, "'")
}
