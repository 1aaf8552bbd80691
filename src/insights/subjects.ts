/**
 * A judgement aimed at a task belongs to that task's aspect: "the service went smoothly" judges the ceremony, "the
 * arrangement conference was efficient" the arrangements, "the transfer was handled flawlessly" the transfer, though
 * "smoothly", "efficient" and "flawlessly" name the staff's competence when said of the staff or of nothing; so with
 * manner ("the arrangement meeting was calm"). Only words of competence and manner move: how soon ("the permit was
 * late", "done quickly") is timeliness whatever it is said of.
 */
import type { Token } from './nlp.js'
import type { TermHit } from './taxonomy.js'

/** The aspects of people's competence and manner, whose words said of a task judge the task. */
const PEOPLE = new Set(['professionalism', 'compassion'])
/** Verbs that join a subject to how it went: "was", "seemed", "went", "ran", "came off", "turned out". */
const HOW_IT_WENT = new Set(['be', 'seem', 'feel', 'look', 'sound', 'appear', 'go', 'run', 'come', 'turn', 'proceed', 'happen'])
const POSSESSIVES = new Set(['my', 'our', 'your', 'his', 'her', 'their', 'its'])
/** Between the verb and the judging word: "was very efficient", "ran so smoothly", "was calm and efficient". */
const BETWEEN = new Set(['ADV', 'PART', 'ADP', 'ADJ', 'CCONJ'])

/**
 * Moves each one-word competence or manner term used as an adjective or adverb ("efficient", "calm") to the aspect of the
 * clause's subject when that subject is a term of another aspect. What a judgement says of a person stays where it is.
 */
export function aimAtSubjects(tokens: readonly Token[], terms: TermHit[]): void {
  for (const hit of terms) {
    if (!PEOPLE.has(hit.aspect) || hit.end - hit.start !== 1) continue
    const word = tokens[hit.start]!
    if (word.pos !== 'ADJ' && word.pos !== 'ADV') continue
    const verb = verbBefore(tokens, hit.start)
    if (verb < 0) continue
    const head = subjectHead(tokens, verb, (j) => terms.some((g) => g.start === j && g.aspect !== hit.aspect))
    if (!head) continue
    const subject = terms.find((g) => g !== hit && g.aspect !== hit.aspect && !g.setting && g.sign === undefined && g.start < head.end && head.start < g.end)
    if (subject) hit.aspect = subject.aspect
  }
}

/** The verb a predicative word follows: "was efficient", "went smoothly", "was handled flawlessly" (the auxiliary). */
function verbBefore(tokens: readonly Token[], at: number): number {
  let k = at - 1
  while (k >= 0 && (BETWEEN.has(tokens[k]!.pos) || tokens[k]!.lower === ',') && tokens[k]!.lower !== 'by') k--
  const t = tokens[k]
  if (!t) return -1
  if ((t.pos === 'AUX' || t.pos === 'VERB') && HOW_IT_WENT.has(t.lemma)) return k
  // A passive: "was handled flawlessly", "were done perfectly".
  if (t.pos === 'VERB' && tokens[k - 1]?.lemma === 'be') return k - 1
  return -1
}

/**
 * The nouns that head the subject before the verb, its leftmost run of nouns ("the ceremony at the grave" is the
 * ceremony, "our state transfer" the state transfer); undefined when the subject is a person, a pronoun or nothing.
 */
function subjectHead(tokens: readonly Token[], verb: number, termAt: (j: number) => boolean): { start: number; end: number } | undefined {
  let head: { start: number; end: number } | undefined
  for (let j = verb - 1; j >= 0; j--) {
    const t = tokens[j]!
    // The tagger takes some nouns of a noun phrase for verbs ("our state transfer from Oregon went"); a term there is a noun.
    if (t.pos === 'NOUN' || (t.pos === 'VERB' && termAt(j) && ['NOUN', 'DET', 'ADJ', 'PRON'].includes(tokens[j - 1]?.pos ?? ''))) {
      head = head?.start === j + 1 ? { start: j, end: head.end } : { start: j, end: j + 1 }
    }
    else if (t.pos === 'PROPN' || t.pos === 'PRON') {
      // A possessor ("Priya's service", "their service") is not the subject; a name or "they", "it" is.
      // Nor is the object of a preposition ("the transfer from Oregon"), nor "itself".
      const possessor = tokens[j + 1]?.lower === "'s" || POSSESSIVES.has(t.lower)
      const aside = tokens[j - 1]?.pos === 'ADP' || t.lower === 'itself' || t.lower === 'themselves'
      if (!possessor && !aside) return undefined
    } else if (['VERB', 'PUNCT', 'SCONJ', 'CCONJ'].includes(t.pos)) break
  }
  return head
}
