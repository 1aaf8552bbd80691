import type { Business } from '../domain/index.js'
import { tokenize } from './text.js'
import { NAME_LIKE_WORDS, TITLES } from './words.js'

export type Kind = 'technicians' | 'services' | 'service_areas'

export interface Pattern {
  tokens: string[]
  kind: Kind
  /** Canonical technician name, service id or area name. */
  key: string
  /** Position of the entity in the business file, which orders the output. */
  order: number
  /** Names that are also English words only count when written with a capital letter. */
  requireCapital: boolean
  /** Service phrases also match in the plural ("graveside services"). */
  plural: boolean
}

const words = (s: string) => tokenize(s).map((t) => t.folded)

/** Explicit names beat names we derive (first names, title + surname); two entities claiming one phrase cancel out. */
const EXPLICIT = 2
const DERIVED = 1

class PatternTable {
  private readonly entries = new Map<string, { pattern: Pattern; priority: number; ambiguous: boolean }>()

  add(tokens: string[], kind: Kind, key: string, order: number, priority: number): void {
    if (tokens.length === 0) return
    const id = `${kind}\u0000${tokens.join(' ')}`
    const pattern: Pattern = {
      tokens,
      kind,
      key,
      order,
      requireCapital: tokens.length === 1 && NAME_LIKE_WORDS.has(tokens[0]!),
      plural: kind === 'services'
    }
    const prev = this.entries.get(id)
    if (!prev || priority > prev.priority) this.entries.set(id, { pattern, priority, ambiguous: false })
    else if (priority === prev.priority && prev.pattern.key !== key) prev.ambiguous = true
  }

  patterns(): Pattern[] {
    return [...this.entries.values()].filter((e) => !e.ambiguous).map((e) => e.pattern)
  }
}

export function buildPatterns(business: Business): Pattern[] {
  const table = new PatternTable()
  business.technicians.forEach((t, order) => {
    const name = words(t.name)
    table.add(name, 'technicians', t.name, order, EXPLICIT)
    for (const alias of t.aliases) table.add(words(alias), 'technicians', t.name, order, EXPLICIT)
    if (name.length > 1) {
      table.add([name[0]!], 'technicians', t.name, order, DERIVED)
      for (const title of TITLES) table.add([title, name.at(-1)!], 'technicians', t.name, order, DERIVED)
    }
  })
  business.services.forEach((s, order) => {
    for (const phrase of [s.id.replace(/-/g, ' '), s.name, ...s.aliases]) table.add(words(phrase), 'services', s.id, order, EXPLICIT)
  })
  business.service_areas.forEach((area, order) => table.add(words(area), 'service_areas', area, order, EXPLICIT))
  return table.patterns()
}

/** Words of staff names that a misspelling may stand for (surnames too: "Mrs. Hollace", "Tobias Lindquist"). */
export function staffNameWords(business: Business): string[] {
  return business.technicians.flatMap((t) => [t.name, ...t.aliases].flatMap(words)).filter((w) => !TITLES.has(w))
}
