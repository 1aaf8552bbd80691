/** Clause structure of a sentence: where one point of view ends and the next begins; praise that is irony, blame lifted. */
import { NEGATORS, valence } from './lexicon.js'
import type { Token } from './nlp.js'

export const CONTRAST = new Set(['but', 'however', 'although', 'though', 'yet', 'except', 'whereas', 'nevertheless', 'nonetheless', 'unfortunately', 'sadly'])
const EXCEPTING = new Set(['anything', 'nothing', 'everything', 'anyone', 'everyone', 'all', 'none'])
const HARD_STOPS = new Set([';', ':', '—', '–', '(', ')', '…'])

/** Clauses of a sentence, each with the stop that opened it. */
export function splitClauses(tokens: readonly Token[]): { tokens: Token[]; after: string | null }[] {
  const parts: { tokens: Token[]; after: string | null }[] = [{ tokens: [], after: null }]
  tokens.forEach((t, i) => {
    const current = parts.at(-1)!.tokens
    // A line break ends a clause too: the items of a list written one per line.
    if (HARD_STOPS.has(t.lower) || (t.pos === 'SPACE' && t.value.includes('\n'))) {
      if (current.length) parts.push({ tokens: [], after: t.lower })
      return
    }
    // A contrast word opens a new clause ("kind, but the bill was a mess"), unless it begins the sentence, is an
    // afterthought before a comma or a stop ("the eulogy, though, sounded canned", "a beautiful job though, I'll give
    // him that", "Very slow though: five weeks")
    // or means "except" ("never called him anything but Bob").
    const afterthought = tokens[i + 1] === undefined || tokens[i + 1]!.lower === ',' || HARD_STOPS.has(tokens[i + 1]!.lower) || tokens[i + 1]!.pos === 'PUNCT'
    if (CONTRAST.has(t.lower) && current.some((x) => x.pos !== 'PUNCT') && !afterthought && !EXCEPTING.has(tokens[i - 1]?.lower ?? '')) {
      parts.push({ tokens: [t], after: t.lower })
    } else current.push(t)
    // A comma before a new subject and its verb ends a clause: "the building is fine, and the price was fair".
    if (t.lower === ',' && newSubject(tokens, i + 1)) parts.push({ tokens: [], after: ',' })
  })
  return parts.filter((p) => p.tokens.some((t) => t.pos !== 'PUNCT'))
}

const SUBJECT = new Set(['NOUN', 'PROPN', 'PRON'])
const NOUN_PHRASE = new Set(['DET', 'PRON', 'PROPN', 'NOUN', 'ADJ', 'NUM', 'PART'])
/** Relative pronouns and subordinators open a clause that belongs to the one before ("..., which was amazing"). */
const DEPENDENT = new Set(['which', 'who', 'whom', 'whose', 'that', 'where', 'when', 'while', 'if', 'because', 'as', 'since'])

/** Whether a subject and its verb start at `from` (after "and", "so" or "or"), perhaps with an adverb between them. */
function newSubject(tokens: readonly Token[], from: number): boolean {
  const start = ['and', 'so', 'or'].includes(tokens[from]?.lower ?? '') ? from + 1 : from
  let subject = false
  for (let k = start; k < start + 5 && k < tokens.length; k++) {
    const t = tokens[k]!
    if (t.pos === 'AUX' || t.pos === 'VERB') return subject
    // An adverb between the subject and its verb: "and Bea even brought", "and she quietly walked".
    if (subject && t.pos === 'ADV') continue
    if (!NOUN_PHRASE.has(t.pos) || DEPENDENT.has(t.lower)) return false
    subject ||= SUBJECT.has(t.pos)
  }
  return false
}

const RELISH = new Set(['love', 'appreciate', 'enjoy', 'adore'])
const IRONY_MARKERS = new Set(['such', 'wow', 'bravo', 'clearly', 'indeed'])

/**
 * Praise that is irony when the review is bad: relishing an ordeal ("Love being charged a coordination fee", "Really
 * loved spending my lunch breaks on hold"), congratulating a failure ("Great job losing the order"), praise exclaimed
 * ("Oh wonderful, another upgrade pitch"), or a short exclamation with a marker of irony ("Such sensitivity.", "Money
 * well spent, clearly.").
 */
export function ironic(tokens: readonly Token[]): boolean {
  const gerund = (t: Token | undefined) => t?.pos === 'VERB' && t.lower.endsWith('ing')
  const construed = tokens.some((t, i) => {
    const next = tokens[i + 1]
    const relish = RELISH.has(t.lemma) && (next?.lower === 'being' || gerund(next))
    const congratulate = t.lower === 'job' && ['great', 'good', 'nice'].includes(tokens[i - 1]?.lower ?? '') && gerund(next)
    const exclaimed = t.lower === 'oh' && next !== undefined && valence(next.lower, next.lemma) > 0
    return relish || congratulate || exclaimed
  })
  const words = tokens.filter((t) => t.pos !== 'PUNCT')
  return construed || (words.length <= 6 && words.some((t) => IRONY_MARKERS.has(t.lower)))
}

const BLAME = new Set(['fault', 'blame'])
const CONTROL = new Set(['control', 'hands'])
const THEM = new Set(['them', 'theirs'])

/**
 * The reviewer clears the business of what the sentence criticises: "not their fault", "which isn't really anyone's
 * fault", "can't blame them", "that's the cemetery, not them", "the state's doing", "out of their control".
 */
export function excuses(tokens: readonly Token[]): boolean {
  return tokens.some((t, i) => {
    if (BLAME.has(t.lemma) && tokens.slice(Math.max(0, i - 4), i).some((x) => NEGATORS.has(x.lower))) return true
    // "that's the cemetery, not them": someone else named, the business denied.
    if (THEM.has(t.lower) && tokens[i - 1]?.lower === 'not' && tokens[i - 2]?.lower === ',') return true
    if (t.lower === 'doing' && tokens[i - 1]?.lower === "'s" && tokens[i - 2]?.pos !== 'PRON') return true
    return CONTROL.has(t.lower) && tokens[i - 1]?.lower === 'their' && ['beyond', 'of'].includes(tokens[i - 2]?.lower ?? '')
  })
}
