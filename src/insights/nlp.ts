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

/** What wink's model keeps of its words: each one, and its index by the word. */
interface Lexemes {
  list: string[]
  hash: Record<string, number>
}

/**
 * wink-nlp (English lite model; only its sentence and part-of-speech stages, which bring lemmas: without the entity,
 * negation and sentiment stages it runs 2.7x faster), parsing each text as it would parse it first.
 *
 * wink adds every word it has not met before to its model, and its tokenizer then takes those words as known: once any
 * text had "mom's" as one token, "my mom's name" stays one token where it was "mom" + "'s" before. A parse would then
 * depend on the parses before it, and two nodes that read the same reviews in another order (one restarted, one
 * running for weeks) would publish different insights for the same data version. A word of letters alone is read the
 * same whether wink knows it or not (one token either way), but one with other characters is not: after each parse
 * those it added leave the index wink looks words up in (they stay in its list, so its numbering stays in step, and
 * the instance is replaced once many have piled up).
 */
class Wink {
  private current = loadWink()
  /** Words dropped from the index since the instance was built. */
  private forgotten = 0

  get its() {
    return this.current.nlp.its
  }

  /** A parsed document, and what to call once it has been read. */
  readDoc(text: string) {
    if (this.forgotten > MAX_FORGOTTEN) {
      this.current = loadWink()
      this.forgotten = 0
    }
    const { nlp, lexemes } = this.current
    const before = lexemes.list.length
    const doc = nlp.readDoc(text)
    return { doc, done: () => this.forget(lexemes, before) }
  }

  /** Drops from the index the words added since the list had `before` entries, but for those of letters alone. */
  private forget(lexemes: Lexemes, before: number): void {
    for (let i = before; i < lexemes.list.length; i++) {
      const word = lexemes.list[i]!
      if (LETTERS.test(word)) continue
      delete lexemes.hash[word]
      this.forgotten++
    }
  }
}

const LETTERS = /^\p{L}+$/u

/** A wink instance with a model of its own, and that model's words. */
function loadWink() {
  let core: { features: { lexeme: Lexemes } } | undefined
  const own = { ...model, core: () => (core = (model as unknown as { core(): typeof core }).core()) }
  const nlp = winkNLP(own as typeof model, ['sbd', 'pos'])
  return { nlp, lexemes: core!.features.lexeme }
}

/** Words forgotten (each a few dozen bytes that stay in wink's lists) past which the instance is replaced. */
const MAX_FORGOTTEN = 200_000

const wink = new Wink()

/** Sentences and tokens of an English text (wink-nlp handles abbreviations such as "Mrs." and contractions). */
export function parseText(text: string): Sentence[] {
  const sentences: Sentence[] = []
  const { doc, done } = wink.readDoc(text)
  const its = wink.its
  doc.sentences().each((s: ItemSentence) => {
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
  done()
  return sentences
}

export function tokensText(tokens: readonly Token[]): string {
  return tokens.map((t, i) => (i === 0 ? '' : t.space) + t.value).join('')
}
