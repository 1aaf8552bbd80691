/** Mentions: which staff, services and service areas a review names, and what a search filter value refers to. */
import type { Business, Mentions } from '../domain/index.js'
import { FuzzyNames } from './fuzzy.js'
import { ServiceKinds } from './kinds.js'
import { buildPatterns, staffNameWords, type Kind, type Pattern } from './patterns.js'
import { tokenize, type Token } from './text.js'
import { NAME_LIKE_WORDS } from './words.js'

export { foldText, foldWord } from './text.js'

export interface MentionIndex {
  detect(text: string | null): Mentions
  /** The canonical technician a filter value names (name, alias, unambiguous first or last name, misspelling), or null. */
  resolveTechnician(value: string): string | null
  /** The service id a filter value names (id, name or alias), or null. */
  resolveService(value: string): string | null
}

export function buildMentionIndex(business: Business): MentionIndex {
  return new Matcher(business)
}

interface ScanMode {
  /** Treat lowercase words as possible misspelt names (normally only capitalised words are). */
  fuzzyLowercase: boolean
  /** Accept names that are also English words even when not capitalised. */
  ignoreCapitalRule: boolean
}

/** Filter values are typed by people searching, in any case. */
const LENIENT: ScanMode = { fuzzyLowercase: true, ignoreCapitalRule: true }

const EMPTY: Mentions = Object.freeze({ technicians: [], services: [], service_areas: [] }) as Mentions

class Matcher implements MentionIndex {
  /** Patterns by first word, longest first so "Peggy Hollis" wins over "Peggy". */
  private readonly byFirst = new Map<string, Pattern[]>()
  private readonly vocabulary = new Set<string>()
  private readonly fuzzy: FuzzyNames
  private readonly technicianKeys = new Map<string, string>()
  private readonly serviceKeys = new Map<string, string>()
  private readonly kinds: ServiceKinds
  private readonly serviceOrder: Map<string, number>

  constructor(business: Business) {
    const patterns = buildPatterns(business)
    for (const p of patterns.sort((a, b) => b.tokens.length - a.tokens.length)) {
      const list = this.byFirst.get(p.tokens[0]!) ?? []
      list.push(p)
      this.byFirst.set(p.tokens[0]!, list)
      p.tokens.forEach((t) => this.vocabulary.add(t))
      const keys = p.kind === 'technicians' ? this.technicianKeys : p.kind === 'services' ? this.serviceKeys : null
      keys?.set(p.tokens.join(' '), p.key)
    }
    this.fuzzy = new FuzzyNames(staffNameWords(business))
    this.addUniqueSurnames(business)
    this.kinds = new ServiceKinds(business.services.map((s) => ({ id: s.id, phrases: [s.id.replace(/-/g, ' '), s.name, ...s.aliases] })))
    this.serviceOrder = new Map(business.services.map((s, i) => [s.id, i]))
  }

  detect(text: string | null): Mentions {
    if (!text) return EMPTY
    const found: Record<Kind, Map<string, number>> = { technicians: new Map(), services: new Map(), service_areas: new Map() }
    // Someone who writes without any capitals still misspells names; let every word be a misspelling candidate then.
    const mode: ScanMode = { fuzzyLowercase: !/\p{Lu}/u.test(text), ignoreCapitalRule: false }
    const tokens = tokenize(text)
    this.scan(tokens, mode, (p) => found[p.kind].set(p.key, p.order))
    // Services named by their kind rather than their name: "the flag ceremony", "we scattered his ashes".
    if (tokens.some((t) => this.kinds.mayName(t.folded))) {
      for (const id of this.kinds.find(text)) if (!found.services.has(id)) found.services.set(id, this.serviceOrder.get(id)!)
    }
    return { technicians: ordered(found.technicians), services: ordered(found.services), service_areas: ordered(found.service_areas) }
  }

  resolveTechnician(value: string): string | null {
    const exact = this.technicianKeys.get(phrase(value))
    if (exact) return exact
    const found = new Set<string>()
    this.scan(tokenize(value), LENIENT, (p) => p.kind === 'technicians' && found.add(p.key))
    return found.size === 1 ? [...found][0]! : null
  }

  resolveService(value: string): string | null {
    return this.serviceKeys.get(phrase(value)) ?? null
  }

  /** Reports each non-overlapping pattern occurrence, leftmost-longest. */
  private scan(tokens: Token[], mode: ScanMode, report: (p: Pattern) => void): void {
    const words = tokens.map((t) => this.canonicalWord(t, mode))
    for (let i = 0; i < words.length; i++) {
      const hit = this.patternAt(words, tokens, i, mode)
      if (!hit) continue
      report(hit)
      i += hit.tokens.length - 1
    }
  }

  private patternAt(words: string[], tokens: Token[], i: number, mode: ScanMode): Pattern | undefined {
    const first = words[i]!
    const exact = this.byFirst.get(first) ?? this.byFirst.get(first.slice(0, -1)) ?? this.byFirst.get(first.slice(0, -2))
    const near = this.fuzzy.near(first)
    // Most words start no pattern: nothing to gather then.
    if (exact === undefined && near.length === 0) return undefined
    const candidates = [...(exact ?? []), ...near.flatMap((w) => this.byFirst.get(w) ?? [])]
    return candidates.find((p) => (mode.ignoreCapitalRule || !p.requireCapital || tokens[i]!.capitalized) && this.fullMatch(p, words, tokens, i))
  }

  /**
   * Every word of the pattern matches; in a name of two or more words, one capitalised word may be further off
   * (two edits) when all the others match as written: "Beatrice Lund" is Beatrix Lund.
   */
  private fullMatch(p: Pattern, words: string[], tokens: Token[], i: number): boolean {
    let loose = 0
    for (let j = 0; j < p.tokens.length; j++) {
      if (sameWord(p.tokens[j]!, words[i + j], p.plural)) continue
      const t = tokens[i + j]
      if (p.kind !== 'technicians' || p.tokens.length < 2 || !t?.capitalized || !this.fuzzy.near(t.folded).includes(p.tokens[j]!)) return false
      loose++
    }
    return loose <= 1 && loose < p.tokens.length
  }

  /** A capitalised word that is not a known name word may be a pet form or a misspelling of a staff name. */
  private canonicalWord(token: Token, mode: ScanMode): string {
    const w = token.folded
    if (this.vocabulary.has(w) || NAME_LIKE_WORDS.has(w) || !(token.capitalized || mode.fuzzyLowercase)) return w
    const stem = petFormStem(w)
    if (stem && this.vocabulary.has(stem)) return stem
    return this.fuzzy.match(w) ?? w
  }

  private addUniqueSurnames(business: Business): void {
    const counts = new Map<string, string[]>()
    for (const t of business.technicians) {
      const parts = tokenize(t.name).map((x) => x.folded)
      if (parts.length > 1) counts.set(parts.at(-1)!, [...(counts.get(parts.at(-1)!) ?? []), t.name])
    }
    for (const [surname, names] of counts) {
      if (names.length === 1 && !this.technicianKeys.has(surname)) this.technicianKeys.set(surname, names[0]!)
    }
  }
}

function phrase(value: string): string {
  return tokenize(value)
    .map((t) => t.folded)
    .join(' ')
}

/** Apostrophes are folded away, so a trailing "s" may be a possessive ("Peggys") as well as a plural. */
function sameWord(expected: string, actual: string | undefined, plural: boolean): boolean {
  if (actual === undefined) return false
  return actual === expected || actual === `${expected}s` || (plural && actual === `${expected}es`)
}

/** The name a pet form is made from: "Sammy" (Sam), "Hallie" (Hal); a doubled last letter is written once in the name. */
function petFormStem(word: string): string | undefined {
  if (!word.endsWith('y') && !word.endsWith('ie')) return undefined
  const m = /^(\p{L}{2,}?)(\p{L})?(?:y|ie)$/u.exec(word)
  if (!m) return undefined
  return m[2] && m[1]!.endsWith(m[2]) ? m[1] : m[1]! + (m[2] ?? '')
}

function ordered(found: Map<string, number>): string[] {
  return [...found].sort((a, b) => a[1] - b[1]).map(([key]) => key)
}
