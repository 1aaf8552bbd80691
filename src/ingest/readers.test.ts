import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { datePattern, dayIn } from './dates.js'
import { originalText } from './google-text.js'
import { detectLanguage } from './language.js'
import { readRating } from './ratings.js'

describe("Google's translation markup", () => {
  test('keeps the original in either order, and in other languages of the markers', () => {
    const cases: [string, string][] = [
      ['(Translated by Google) Very kind.\n\n(Original)\nMuy amables.', 'Muy amables.'],
      ['Muy amables.\n\n(Translated by Google)\nVery kind.', 'Muy amables.'],
      ['(Original)\nSehr freundlich.\n\n(Translated by Google)\nVery friendly.', 'Sehr freundlich.'],
      ['(Traduit par Google) Very kind.\n\n(Original)\nVery kind indeed, in English.', 'Very kind indeed, in English.'],
      ['（Google による翻訳）Very kind.\n\n（原文）\nとても親切でした。', 'とても親切でした。']
    ]
    for (const [comment, original] of cases) assert.deepEqual(originalText(comment), { text: original, translated: true, originalMissing: false }, comment)
  })

  test('a translation without its original keeps nothing; text without markup is left as written', () => {
    assert.deepEqual(originalText('(Translated by Google) Very kind.'), { text: null, translated: true, originalMissing: true })
    assert.deepEqual(originalText('We said "(Original)" was the word.\n(Original) too'), { text: 'We said "(Original)" was the word.\n(Original) too', translated: false, originalMissing: false })
    assert.deepEqual(originalText('Ask for Google (the maps) directions.'), { text: 'Ask for Google (the maps) directions.', translated: false, originalMissing: false })
    assert.deepEqual(originalText('   '), { text: null, translated: false, originalMissing: false })
  })
})

describe('language of a review', () => {
  test('by script, then by common words; null when unsure', () => {
    const cases: [string, string | null][] = [
      ['The staff were kind and they took care of everything for us.', 'en'],
      ['Nos trataron con mucho cariño y respeto en el peor momento.', 'es'],
      ['Nous avons été très bien accueillis par toute la famille.', 'fr'],
      ['Il personale è stato molto gentile con la nostra famiglia.', 'it'],
      ['Спасибо вам за всё, вы были очень внимательны.', 'ru'],
      ['Дякуємо за вашу турботу і підтримку.', 'uk'],
      ['とても親切に対応していただきました。', 'ja'],
      ['非常感谢你们的帮助。', 'zh'],
      ['정말 친절하게 도와주셨습니다.', 'ko'],
      ['Great!', null],
      ['Thank you, Evie.', null],
      ['Danke, merci, gracias and thank you.', null]
    ]
    for (const [text, lang] of cases) assert.equal(detectLanguage(text), lang, text)
  })
})

describe('ratings and dates of other exports', () => {
  test('ratings on their own scale, rounded to whole stars, halves up', () => {
    const stars = (cell: string, scale = 5) => {
      const r = readRating(cell, scale)
      return 'stars' in r ? r.stars : r.problem
    }
    assert.deepEqual(['4', '4.0', '4/5', '8/10', '7/10', '4 out of 5', '5 stars', '★★★★☆', '1/10'].map((c) => stars(c)), [4, 4, 4, 4, 4, 4, 5, 4, 1])
    assert.equal(stars('9', 10), 5)
    assert.match(String(stars('6')), /above the top of its scale/)
    assert.match(String(stars('0/5')), /below one star/)
    assert.match(String(stars('good')), /is not a rating/)
  })

  test('date patterns give the day as written; timestamps give the day where the business is', () => {
    assert.equal(datePattern('MM/DD/YYYY')('03/05/2024'), '2024-03-05')
    assert.equal(datePattern('D.M.YYYY')('5.3.2024'), '2024-03-05')
    assert.equal(datePattern('MMM D, YYYY [at] h:mm A')('Mar 5, 2024 at 3:07 PM'), '2024-03-05')
    assert.equal(datePattern('D MMMM YYYY')('5 march 2024'), '2024-03-05')
    assert.equal(datePattern('MM/DD/YYYY')('2024-03-05'), null)
    assert.throws(() => datePattern('MM/YYYY'), /must name the day once/)
    assert.equal(dayIn('2024-01-03T05:30:00Z', 'America/Chicago'), '2024-01-02')
    assert.equal(dayIn('2024-01-03T05:30:00Z', null), '2024-01-03')
    assert.equal(dayIn('2024-01-02T23:30:00-06:00', 'Asia/Tokyo'), '2024-01-03')
  })
})
