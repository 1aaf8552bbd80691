/**
 * A small, deterministic guess at the language of a review, for the `language` field of imports that do not state it.
 * No model and no network: the writing system decides where it is distinctive, and for Latin script the share of
 * very common words of eight languages. It answers null whenever it is not clearly sure (short texts, mixed
 * languages, languages it does not know), because a wrong tag is worse than none: screen readers read by it.
 */

const STOPWORDS: Record<string, string> = {
  en: 'the and was were is are to of with for they we our you very this that have has not all it my he she his her at be so but us from would',
  es: 'el la los las del que y en con por para muy nos una es fue su sus lo al pero todo gracias más como también estaba fueron mi han hemos',
  fr: 'le la les des du et est une nous pour avec très qui dans pas sur ont été mais notre leur tout merci je ils au aux ce cette sont était vous',
  de: 'der die das und ist ein eine wir nicht sehr mit für auf den dem sich uns war waren haben hat auch zu von ich sie bei wurde wurden unsere',
  it: 'il lo gli di che è un una per con molto non sono siamo del della nel ci ma anche tutto grazie ha hanno stato stati nostra sempre',
  pt: 'o os as do da dos das que é um uma para com muito não foi nos em no na mas obrigado obrigada todos sua seu estava nossa',
  nl: 'de het een en is van dat die niet met zeer voor op wij ons onze was waren heel ook maar zijn hebben heeft bij naar er goed',
  pl: 'i w z na się nie jest to że do bardzo dla jak był była było nas mi za po ale czy pan pani dziękuję wszystko'
}
const WORDS = new Map(Object.entries(STOPWORDS).map(([lang, list]) => [lang, new Set(list.split(' '))]))

/** Fewer words than this and a guess from common words is a coin toss. */
const MIN_WORDS = 4
const MIN_HITS = 3
/** The winner must clearly beat the runner-up, and common words must make up a real share of the text. */
const MARGIN = 1.5
const MIN_SHARE = 0.15

export function detectLanguage(text: string | null): string | null {
  if (!text) return null
  return byScript(text) ?? byCommonWords(text)
}

/** Scripts that belong to one language (or tell their languages apart by a few letters of their own). */
function byScript(text: string): string | null {
  const count = (re: RegExp) => text.match(re)?.length ?? 0
  const latin = count(/\p{Script=Latin}/gu)
  const decide = (letters: number, lang: string | null) => (letters >= 4 && letters > latin ? lang : undefined)
  const cyrillic = count(/\p{Script=Cyrillic}/gu)
  const arabic = count(/\p{Script=Arabic}/gu)
  const kana = count(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu)
  const han = count(/\p{Script=Han}/gu)
  const found =
    decide(count(/\p{Script=Hangul}/gu), 'ko') ??
    decide(kana + han, kana > 0 ? 'ja' : 'zh') ??
    decide(count(/\p{Script=Greek}/gu), 'el') ??
    decide(count(/\p{Script=Hebrew}/gu), 'he') ??
    decide(count(/\p{Script=Thai}/gu), 'th') ??
    decide(cyrillic, cyrillicLanguage(text)) ??
    decide(arabic, arabicScriptLanguage(text))
  return found === undefined ? null : found
}

function cyrillicLanguage(text: string): string | null {
  if (/[іїєґ]/iu.test(text)) return 'uk'
  if (/[ђјљњћџ]/iu.test(text)) return 'sr'
  if (/ў/iu.test(text)) return 'be'
  // Bulgarian and Macedonian have no ы or э; Russian text of a sentence or more nearly always has one.
  return /[ыэё]/iu.test(text) ? 'ru' : null
}

function arabicScriptLanguage(text: string): string | null {
  if (/[ٹڈڑںے]/u.test(text)) return 'ur'
  if (/[پچژگکی]/u.test(text)) return 'fa'
  return 'ar'
}

function byCommonWords(text: string): string | null {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? []
  if (words.length < MIN_WORDS) return null
  const scores = [...WORDS].map(([lang, set]) => ({ lang, hits: words.filter((w) => set.has(w)).length })).sort((a, b) => b.hits - a.hits)
  const [best, second] = scores as [{ lang: string; hits: number }, { lang: string; hits: number }]
  const sure = best.hits >= MIN_HITS && best.hits >= MARGIN * second.hits && best.hits / words.length >= MIN_SHARE
  return sure ? best.lang : null
}
