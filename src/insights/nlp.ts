import winkNLP, { type ItemSentence } from 'wink-nlp'
import model from 'wink-eng-lite-web-model'

/** A word as the analysis sees it: lowercase surface, lemma and part of speech (Universal POS tags). */
export interface Token {
  value: string
  lower: string
  lemma: string
  pos: string
  /** Whitespace before the token in the original text, to rebuild clause text exactly. */
  space: string
}

export interface Sentence {
  text: string
  tokens: Token[]
}

// The model loads once (about 80 ms); wink is synchronous and deterministic. Only sentence boundaries and parts of
// speech (which bring lemmas) are needed: without wink's entity, negation and sentiment stages it runs 2.7x faster.
const nlp = winkNLP(model, ['sbd', 'pos'])
const its = nlp.its

/** Sentences and tokens of an English text (wink-nlp handles abbreviations such as "Mrs." and contractions). */
export function parseText(text: string): Sentence[] {
  const sentences: Sentence[] = []
  nlp.readDoc(text).sentences().each((s: ItemSentence) => {
    const tokens = s.tokens()
    // wink's typings do not accept every `its` helper in out(); at run time they all return one value per token.
    const column = (f: unknown) => (tokens.out as (f: unknown) => string[])(f)
    const value = column(its.value)
    const lemma = column(its.lemma)
    const pos = column(its.pos)
    const space = column(its.precedingSpaces)
    sentences.push({
      text: s.out(),
      tokens: value.map((v, i) => {
        const lower = v.toLowerCase()
        // "n't" and "not" are one negator; curly apostrophes fold to straight ones.
        const norm = lower === "n't" || lower === 'n’t' ? 'not' : lower.replace(/’/g, "'")
        return { value: v, lower: norm, lemma: norm === 'not' ? 'not' : (lemma[i] ?? norm).toLowerCase(), pos: pos[i] ?? 'X', space: space[i] ?? '' }
      })
    })
  })
  return sentences
}

export function tokensText(tokens: readonly Token[]): string {
  return tokens.map((t, i) => (i === 0 ? '' : t.space) + t.value).join('')
}
