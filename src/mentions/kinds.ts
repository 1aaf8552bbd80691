/**
 * Services named in free text: "the flag ceremony", "we scattered Mum's ashes", "they livestreamed it", "Dad pre-paid
 * his funeral". Each service of the business gets the kinds its name and aliases name ("Veterans Honors" is military
 * honors); a review that uses a phrase of a kind mentions the one service of that kind. When several services share the
 * kind, the words of the clause decide (a word that only one of their names uses), or none is counted.
 *
 * A kind is named by what sets it apart: a direct cremation is a cremation with no ceremony, so "the cremation" names
 * no service (every cremation the business performs is one, before a memorial or a scattering too), and neither do
 * "the funeral", "the service" or "the viewing"; "just a cremation, no service" names the direct cremation.
 */
import { tokenize } from './text.js'

interface Kind {
  /** Phrases that, in a service's name, id or aliases, give it this kind. */
  names: string[]
  /** How families write it. */
  phrases: string[]
  /** Phrases that count only with one of these words in the clause ("scattered" with "ashes"). */
  needs?: { phrases: string[]; words: string[] }
  /**
   * The kind is named only by a service whose whole name or alias is one of `names`: "Burial" is the burial service,
   * but "Green Burial" is one kind of burial, and "the burial" after a traditional funeral is not it.
   */
  exact?: boolean
}

const KINDS: Kind[] = [
  {
    names: ['veterans', 'veteran', 'military', 'honors', 'honours', 'honor guard'],
    phrases: ['military honors', 'military honours', 'full honors', 'the honors', 'honors', 'honor guard', 'honour guard', 'flag ceremony', 'flag folding', 'folding of the flag', 'folded the flag', 'flag presentation', 'presented the flag', 'taps', 'bugler', 'rifle volley', 'gun salute']
  },
  {
    names: ['livestream', 'livestreaming', 'live stream', 'live streaming', 'webcast', 'webcasting', 'streaming'],
    phrases: ['livestream', 'livestreamed', 'livestreaming', 'live stream', 'live streamed', 'live streaming', 'streamed', 'the stream', 'webcast', 'zoom', 'zoom link', 'broadcast online', 'watch online', 'watched online', 'video link']
  },
  {
    names: ['scattering', 'scatter'],
    phrases: ['scattering', 'ash scattering', 'scattering of ashes'],
    needs: { phrases: ['scatter', 'scattered', 'scattering'], words: ['ashes', 'ash', 'remains', 'cremains'] }
  },
  {
    names: ['pre planning', 'preplanning', 'pre need', 'preneed', 'prearrangement', 'pre arrangement', 'advance planning'],
    phrases: ['pre planning', 'preplanning', 'pre planned', 'preplanned', 'pre plan', 'preplan', 'pre need', 'preneed', 'pre paid', 'prepaid', 'pre pay', 'prepay', 'pre arranged', 'prearranged', 'prearrangement', 'pre arrangement', 'planned ahead', 'plan ahead', 'planning ahead', 'planned in advance', 'paid in advance', 'arranged in advance']
  },
  {
    names: ['out of state', 'shipping', 'repatriation', 'international', 'long distance'],
    phrases: ['out of state transfer', 'repatriation', 'repatriated', 'flown home', 'flew him home', 'flew her home', 'fly him home', 'fly her home', 'flown back', 'shipped him', 'shipped her', 'ship him', 'ship her', 'shipping him', 'shipping her', 'shipping someone', 'shipping a body', 'shipping the body']
  },
  { names: ['graveside', 'committal', 'gravesite'], phrases: ['graveside', 'committal', 'gravesite service', 'service at the cemetery', 'service at the grave', 'service at the gravesite', 'cemetery service'] },
  { names: ['memorial', 'celebration of life'], phrases: ['memorial', 'memorial service', 'celebration of life', 'life celebration'] },
  {
    names: ['direct cremation', 'simple cremation', 'cremation only', 'basic cremation'],
    phrases: ['direct cremation', 'simple cremation', 'basic cremation', 'plain cremation', 'cremation only', 'just a cremation', 'just cremation', 'cremation with no service', 'cremation without a service', 'cremation and no service']
  },
  { names: ['traditional funeral', 'full service funeral', 'funeral with visitation'], phrases: ['traditional funeral', 'full service funeral', 'full funeral', 'traditional service', 'funeral with visitation', 'funeral with a visitation', 'funeral with viewing', 'funeral with a viewing'] },
  { names: ['burial', 'burial service', 'interment', 'entombment'], phrases: ['burial', 'interment', 'entombment', 'laid to rest'], exact: true }
]

export interface ServiceNames {
  id: string
  /** The service's id, name and aliases. */
  phrases: string[]
}

const words = (s: string) => tokenize(s).map((t) => t.folded)

function occurs(phrase: string[], text: string[]): boolean {
  return text.some((_, i) => phrase.every((w, k) => text[i + k] === w))
}

interface CompiledKind {
  services: string[]
  /** The kind's phrases that count only with one of these words in the clause. */
  needs: Set<string> | undefined
}

/** Finds services a text names by their kind; built once per business. */
export class ServiceKinds {
  private readonly kinds: CompiledKind[] = []
  /** Phrases by first word: [kind index, words, gated by `needs`]. */
  private readonly byFirst = new Map<string, [number, string[], boolean][]>()
  /** The longest word of each phrase ("ceremony" in "flag ceremony", "honors" in "the honors"): a text without any has none. */
  private readonly keys = new Set<string>()
  /** Words of each service's names that no other service's names use: they decide between services of one kind. */
  private readonly distinct = new Map<string, Set<string>>()

  constructor(services: readonly ServiceNames[]) {
    const named = services.map((s) => ({ id: s.id, phrases: s.phrases.map(words) }))
    for (const k of KINDS) {
      // A kind belongs to the services whose own names name it.
      const names = k.names.map(words)
      const ids = named.filter((s) => names.some((n) => s.phrases.some((p) => (k.exact ? p.join(' ') === n.join(' ') : occurs(n, p))))).map((s) => s.id)
      if (ids.length === 0) continue
      const index = this.kinds.push({ services: ids, needs: k.needs && new Set(k.needs.words) }) - 1
      const add = (phrase: string, gated: boolean) => {
        const w = words(phrase)
        this.byFirst.set(w[0]!, [...(this.byFirst.get(w[0]!) ?? []), [index, w, gated]])
        this.keys.add(w.reduce((a, b) => (b.length > a.length ? b : a)))
      }
      for (const p of k.phrases) add(p, false)
      for (const p of k.needs?.phrases ?? []) add(p, true)
    }
    const counts = new Map<string, number>()
    for (const s of named) for (const w of new Set(s.phrases.flat())) counts.set(w, (counts.get(w) ?? 0) + 1)
    for (const s of named) this.distinct.set(s.id, new Set(s.phrases.flat().filter((w) => counts.get(w) === 1)))
  }

  /** Whether a word is the key word of a phrase of a kind: most texts have none and need no closer look. */
  mayName(word: string): boolean {
    return this.keys.has(word)
  }

  /** Service ids the text names by kind, clause by clause. */
  find(text: string): string[] {
    if (this.kinds.length === 0) return []
    const found: string[] = []
    for (const clause of text.split(/[.!?;:()\n]+/)) {
      const tokens = words(clause)
      const named = new Set<number>()
      tokens.forEach((t, i) => {
        for (const [kind, phrase, gated] of this.byFirst.get(t) ?? []) {
          if (named.has(kind) || !phrase.every((w, k) => tokens[i + k] === w)) continue
          if (gated && !tokens.some((x) => this.kinds[kind]!.needs!.has(x))) continue
          named.add(kind)
        }
      })
      for (const kind of named) {
        const id = this.decide(this.kinds[kind]!.services, tokens)
        if (id) found.push(id)
      }
    }
    return found
  }

  /** One service of the kind, or the one whose own words the clause uses; otherwise none. */
  private decide(services: string[], clause: string[]): string | undefined {
    if (services.length === 1) return services[0]
    const hinted = services.filter((id) => clause.some((w) => this.distinct.get(id)!.has(w)))
    return hinted.length === 1 ? hinted[0] : undefined
  }
}
