import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Business, type Review } from '../domain/index.js'
import { buildMentionIndex } from '../mentions/index.js'
import { analyzeReview, readRules } from './analyze.js'
import { FUNERAL_HOME_TAXONOMY } from './funeral-home-taxonomy.js'
import { compileTaxonomy } from './taxonomy.js'

const business = Business.parse({
  id: 'test-home',
  name: 'Quiet Oak Funeral Home',
  address: {},
  technicians: [
    { name: 'Priya Raman', role: 'Funeral director', aliases: [] },
    { name: 'Declan Fitzpatrick', role: 'Crematory operator', aliases: ['Dec'] }
  ],
  services: [{ id: 'direct-cremation', name: 'Direct Cremation', aliases: ['cremation only'] }]
})
const mentions = buildMentionIndex(business)
const ctx = { taxonomy: compileTaxonomy(FUNERAL_HOME_TAXONOMY), mentions }

function reviewOf(text: string, rating: number): Review {
  return {
    id: 'r1', author: 'A', author_avatar_url: null, rating, date: '2024-01-01', published_at: null, text, source: 'test',
    source_url: null, owner_reply: null, verified: true, language: 'en', updated_at: '2024-01-01T00:00:00Z', mentions: mentions.detect(text)
  }
}
const analyze = (text: string, rating = 4) => analyzeReview(reviewOf(text, rating), ctx)
const aspects = (text: string, rating?: number) => Object.fromEntries(analyze(text, rating).analysis.aspects.map((a) => [a.id, a.sentiment]))

describe('negation', () => {
  test('a negated judgement flips: "not helpful", "never returned our calls"', () => {
    assert.equal(aspects('The office was not helpful and never returned our calls.', 3).communication, 'negative')
  })
  test('not taking the trouble is neglect: "nobody bothered to tell me"', () => {
    assert.equal(aspects('Nobody bothered to tell me they were ready.', 3).communication, 'negative')
  })
  test('a negated modal with a comparative is praise: "couldn\'t have been kinder"', () => {
    assert.equal(aspects('Priya couldn\'t have been kinder.', 3).compassion, 'positive')
  })
  test('what the family did not need is not missing: "we didn\'t need embalming"', () => {
    assert.notEqual(aspects('They told us we didn\'t need embalming.', 3).professionalism, 'negative')
  })
  test('a negated criticism is praise: "not once did we feel rushed", "wouldn\'t say they were unkind"', () => {
    assert.equal(aspects('Not once did we feel rushed.', 3).compassion, 'positive')
    assert.equal(aspects('I wouldn\'t say they were unkind.', 3).compassion, 'positive')
  })
  test('no fees and no charge are praise; no ramp and no updates are criticism', () => {
    assert.equal(aspects('No hidden fees, and the chapel was ours at no charge.', 3).pricing, 'positive')
    assert.equal(aspects('There was no ramp at the entrance.', 3).facilities, 'negative')
    assert.equal(aspects('We got no updates for a week.', 3).communication, 'negative')
  })
  test('"can\'t thank them enough" and "nothing was too much trouble" are praise', () => {
    assert.ok(analyze('I can\'t thank them enough.', 3).analysis.sentiment.score > 0.3)
    assert.ok(analyze('Nothing was too much trouble.', 3).analysis.sentiment.score > 0.3)
  })
})

describe('contrast and mixed feelings', () => {
  test('a judging term judges its own aspect only: "very calm, a little slow on the paperwork"', () => {
    assert.equal(aspects('Very kind, very calm, a little slow on the paperwork.', 4).timeliness, 'negative')
  })
  test('each side of "but" judges its own aspect', () => {
    assert.deepEqual(aspects('Priya was kind, but the bill was a mess.', 3), { compassion: 'positive', pricing: 'negative' })
  })
  test('praise and criticism of one aspect make it mixed', () => {
    assert.equal(aspects('The chapel was beautiful, but it was freezing in there.', 3).facilities, 'mixed')
  })
  test('a faint concession before "but" does not make it mixed', () => {
    assert.equal(aspects('I wouldn\'t say the staff were unkind, but we felt rushed through everything.', 3).compassion, 'negative')
  })
})

describe('grief is not a judgement of the business', () => {
  test('the reviewer\'s own failure judges no one; "I will never forget how ..." is still praise', () => {
    assert.equal(aspects('I had forgotten I had even pre-planned with them.', 5).arrangements, 'positive')
    assert.equal(aspects('I will never forget how Priya knelt down to talk to our youngest.', 5).compassion, 'positive')
  })
  test('a review about the loss alone has no aspect and is not negative', () => {
    const r = analyze('My father died of cancer in May after a long fight. We miss him terribly every day.', 5)
    assert.deepEqual(r.analysis.aspects, [])
    assert.notEqual(r.analysis.sentiment.label, 'negative')
  })
  test('praise beside grief words stays praise', () => {
    assert.equal(aspects('The worst week of our lives was made bearable by Priya.', 5).compassion, 'positive')
  })
})

describe('intensity', () => {
  test('an intensifier inside a phrase leaves it the phrase: "with such care"', () => {
    assert.equal(aspects('Sam carried him down the stairs with such care.', 5).professionalism, 'positive')
  })
  test('hedges soften and boosters strengthen', () => {
    const score = (t: string) => analyze(t, 3).analysis.aspects.find((a) => a.id === 'facilities')!.score
    assert.ok(score('The parking lot was a bit cramped.') > score('The parking lot was terribly cramped.'))
    assert.ok(score('The parking lot was very clean.') > score('The parking lot was clean.'))
  })
  test('excess is a complaint: "far too heavy"', () => {
    assert.equal(aspects('Whoever did his makeup went far too heavy.', 3).professionalism, 'negative')
  })
})

describe('implicit judgements', () => {
  test('facts take the side of the stars: the same sentence in a 5-star and a 1-star review', () => {
    assert.equal(aspects('They answered the phone at 3am.', 5).communication, 'positive')
    assert.equal(aspects('They answered the phone at 3am.', 1).communication, 'negative')
  })
  test('having to chase them is criticism', () => {
    assert.equal(aspects('I had to call four times about the urn.', 3).communication, 'negative')
  })
  test('expectations are not events: "fully expecting voicemail"', () => {
    assert.equal(aspects('I called at midnight fully expecting voicemail, and Priya answered.', 5).communication, 'positive')
  })
})

describe('clause structure', () => {
  test('a clause that judges nothing takes the opposite of the clause it is contrasted with', () => {
    assert.equal(aspects('The ceremony was lovely, although the officiant read from his phone the whole time.', 3).ceremony, 'mixed')
  })
  test('a heading before a colon judges what it lists', () => {
    assert.equal(aspects('Bad: the parking.', 3).facilities, 'negative')
  })
  test('clauses a comma lists share their judgement', () => {
    assert.equal(aspects('The urn was back in two weeks, the staff were rude, the whole thing was awful.', 3).timeliness, 'negative')
  })
  test('an elliptical negation denies what the clause before expected', () => {
    assert.equal(aspects('They said someone would call us back. Nobody did.', 3).communication, 'negative')
  })
})

describe('facts are not judgements', () => {
  test('where and when things happened, and what was paid, are neutral whatever the stars', () => {
    assert.deepEqual(aspects('We held the memorial in their chapel.', 5), { ceremony: 'neutral', facilities: 'neutral' })
    assert.equal(aspects('We paid $4,200 for everything.', 5).pricing, 'neutral')
    assert.equal(aspects('He argued with my wife at her father\'s viewing.', 1).ceremony, undefined)
  })
  test('waiting is a complaint only when the family waits', () => {
    assert.equal(aspects('They waited quietly while we said goodbye.', 5).timeliness, undefined)
    assert.equal(aspects('We waited six weeks for the ashes.', 3).timeliness, 'negative')
  })
  test('a term reached through a preposition is not missing: "wasn\'t in the quote"', () => {
    assert.equal(aspects('The cemetery fee wasn\'t in the quote.', 2).pricing, 'negative')
  })
})

describe('judgements of people', () => {
  test('"a considerate person" and a superlative with no noun ("Also the coldest.") judge the staff', () => {
    assert.equal(aspects('Priya is the most considerate person I have met.', 4).compassion, 'positive')
    assert.equal(aspects('The most efficient funeral home I have dealt with. Also the coldest.', 3).compassion, 'negative')
    assert.equal(aspects('We stood around in the cold.', 3).compassion, undefined)
  })
  test('an adjective said of the staff judges its people aspect', () => {
    assert.equal(aspects('Everyone was considerate.', 3).compassion, 'positive')
    assert.equal(aspects('The director was curt on the phone.', 3).compassion, 'negative')
    assert.equal(aspects('They seemed scatterbrained from the first meeting.', 3).professionalism, 'negative')
    assert.equal(aspects('Priya was on the ball from start to finish.', 3).professionalism, 'positive')
  })
  test('their craft, named as their work or as work done right, is professionalism', () => {
    assert.equal(aspects("Jonah's work on Dad was excellent.", 3).professionalism, 'positive')
    assert.equal(aspects('Not fancy, but everything was done right.', 3).professionalism, 'positive')
  })
  test('with nothing named it is said of the staff: "So tactful."', () => {
    assert.equal(aspects('So tactful.', 5).compassion, 'positive')
    assert.equal(aspects('Cold.', 1).compassion, 'negative')
  })
  test('said of a thing it judges that thing, not the people', () => {
    assert.deepEqual(aspects('The chapel was cold.', 3), { facilities: 'negative' })
    assert.equal(aspects('We stood around in the cold.', 3).compassion, undefined)
  })
  test('negation reaches it: "not exactly warm"', () => {
    assert.equal(aspects('Nobody there was warm, exactly.', 3).compassion, 'negative')
  })
})

describe('a judgement aimed at a task', () => {
  test('competence said of a task judges the task: "the service went smoothly", "the transfer was handled flawlessly"', () => {
    assert.deepEqual(aspects('The service itself went smoothly.', 2), { ceremony: 'positive' })
    assert.deepEqual(aspects('Our out of state transfer from Oregon was handled flawlessly.', 3), { arrangements: 'positive' })
    assert.deepEqual(aspects('The arrangement meeting with Marisol was calm and efficient.', 3), { arrangements: 'positive' })
  })
  test('said of a person or of nothing it is professionalism; how soon stays timeliness', () => {
    assert.deepEqual(aspects('Priya was efficient.', 3), { professionalism: 'positive' })
    assert.equal(aspects('The paperwork was done quickly.', 3).timeliness, 'positive')
  })
})

describe('speaking so the family can follow', () => {
  test('"speak slow for me" is communication, not a delay; "wouldn\'t slow down" criticises it', () => {
    assert.deepEqual(aspects('She was so kind to speak slow for me.', 5).timeliness, undefined)
    assert.equal(aspects('She was so kind to speak slow for me.', 5).communication, 'positive')
    assert.equal(aspects('My brother is deaf and they wouldn\'t slow down for him.', 1).communication, 'negative')
  })
})

describe('criticism without a judging word', () => {
  test('a thing that needs something lacks it: "the building needs work", "could use a refresh"', () => {
    assert.equal(aspects('The building needs work.', 4).facilities, 'negative')
    assert.equal(aspects('The chapel could use a refresh.', 5).facilities, 'negative')
    assert.equal(aspects('We needed more time in the chapel, and they gave it to us.', 5).facilities, undefined)
  })
  test('"the only thing was" opens a complaint; "took ages" is a delay', () => {
    assert.equal(aspects('Great funeral. The only thing was the sound system in the chapel kept squealing.', 4).facilities, 'negative')
    assert.equal(aspects('Only complaint: the permit took ages.', 4).timeliness, 'negative')
  })
})

describe('judgements told as events', () => {
  test('an act done so that the family could do something, or be spared something, is care', () => {
    assert.equal(aspects('Dec called when it was done so we wouldn\'t be waiting by the phone.', 3).compassion, 'positive')
    assert.equal(aspects('They moved a chair so my mother could sit with us.', 3).compassion, 'positive')
    assert.equal(aspects("Marisol came to my house because I couldn't drive.", 3).compassion, 'positive')
    assert.equal(aspects('Mari remembered our names when we came back a month later.', 3).compassion, 'positive')
  })
  test('a slight aimed at the family is compassion, criticised; an answer "no" does not deny it', () => {
    assert.equal(aspects('When I said no the director sighed at me.', 3).compassion, 'negative')
    assert.equal(aspects('The woman at the desk snapped at my mother.', 3).compassion, 'negative')
    assert.equal(aspects('He sighed and sat down.', 3).compassion, undefined)
  })
  test('a consequence is not a purpose', () => {
    assert.equal(aspects('There was no ramp, so my uncle had to be lifted in.', 3).compassion, undefined)
    assert.equal(aspects("We left early because we couldn't stand the heat.", 3).compassion, undefined)
  })
})

describe('irony in a bad review', () => {
  test('relishing an ordeal, congratulating a failure, an ironic exclamation', () => {
    assert.equal(aspects('Loved being billed twice for the hearse.', 1).pricing, 'negative')
    assert.equal(aspects('Great job losing the death certificates.', 1).arrangements, 'negative')
    assert.equal(aspects('Such sensitivity.', 1).compassion, 'negative')
    assert.equal(aspects('Oh wonderful, another package upgrade pitch while I was picking out a casket.', 2).pricing, 'negative')
  })
  test('the same praise in a good review is praise', () => {
    assert.equal(aspects('Such sensitivity.', 5).compassion, 'positive')
  })
})

describe('what would have been good', () => {
  test('a wish in the conditional is criticism of what was missing', () => {
    assert.equal(aspects('Would have liked a call when the ashes were ready.', 4).communication, 'negative')
    assert.equal(aspects("A few more updates would've been nice.", 5).communication, 'negative')
    assert.equal(aspects('They should have called us.', 4).communication, 'negative')
  })
  test('not when negated, nor the deceased\'s wish', () => {
    assert.equal(aspects("Priya couldn't have been kinder.", 3).compassion, 'positive')
    assert.equal(aspects('Dad would have loved the music.', 5).ceremony, 'positive')
  })
})

describe('blame lifted from the business', () => {
  test('what the reviewer says is no one\'s fault is a fact, not criticism', () => {
    assert.equal(aspects("It started fifteen minutes late because the hearse got stuck, which isn't really anyone's fault.", 4).timeliness, 'neutral')
    assert.equal(aspects("Parking was muddy but that's the cemetery, not them.", 4).facilities, 'neutral')
    assert.equal(aspects('The permit took a while, which is the state\'s doing.', 5).arrangements, 'neutral')
  })
  test('the excuse covers what comes before it, not what follows', () => {
    assert.equal(aspects("The permit took a while, which is the state's doing, and Marisol kept us updated.", 4).communication, 'positive')
  })
  test('without the excuse it is criticism', () => {
    assert.equal(aspects('It started fifteen minutes late.', 4).timeliness, 'negative')
  })
})

describe('reviews written as lists', () => {
  test('a score out of 5 or 10 judges its label: "Facility: 5/5. Parking: 2/5." is mixed', () => {
    assert.equal(aspects('Facility: 5/5. Parking: 2/5.', 4).facilities, 'mixed')
    assert.equal(aspects('I would give the chapel 2 out of 5.', 4).facilities, 'negative')
  })
  test('an item takes the side of its heading, not the stars', () => {
    assert.equal(aspects('pros: the chapel. cons: the bill, the parking lot', 5).pricing, 'negative')
    assert.equal(aspects('Cons - the invoice.', 5).pricing, 'negative')
    assert.equal(aspects('Only minus: the obituary.', 5).arrangements, 'negative')
    assert.equal(aspects('Pros - the paperwork.', 1).arrangements, 'positive')
  })
  test('one item a line, under "Good:" and "Not good:"', () => {
    const r = aspects('Good:\n* the explanations of costs\n* a quiet family room\nNot good:\n* the parking', 3)
    assert.deepEqual([r.pricing, r.facilities], ['positive', 'mixed'])
  })
  test('a label takes the verdict after its colon: "Communication: poor"', () => {
    assert.equal(aspects('Communication: poor.', 4).communication, 'negative')
  })
})

describe('staff, durations, phrases', () => {
  test('staff named by first name or misspelling get the judgement of their clause', () => {
    const r = analyze('Pria was wonderful. Dec was rude to my mother.', 3)
    assert.ok(r.technicians.get('Priya Raman')! > 0)
    assert.ok(r.technicians.get('Declan Fitzpatrick')! < 0)
  })
  test('stated turnaround durations are read in days', () => {
    assert.deepEqual(analyze('We had Dad\'s ashes back in five days.').durations, [5])
    assert.deepEqual(analyze('The urn came 2-3 weeks later.').durations, [17.5])
    assert.deepEqual(analyze('Cancer took him in eleven weeks.').durations, [])
  })
  test('phrases keep the judging words: "chapel was spotless", "didn\'t rush us"', () => {
    const r = analyze('The chapel was spotless. They didn\'t rush us.', 5)
    const phrases = r.analysis.aspects.flatMap((a) => a.phrases)
    assert.ok(phrases.includes('chapel was spotless'), phrases.join(' | '))
    assert.ok(phrases.some((p) => p.startsWith("didn't rush")), phrases.join(' | '))
  })
  test('a review in another language keeps its staff, is scored from its stars and has no aspects', () => {
    const text = 'Priya fue muy amable y la cremación fue rápida.'
    const r = analyzeReview(
      { id: 'r3', author: 'A', author_avatar_url: null, rating: 5, date: '2024-01-01', published_at: null, text, source: 't', source_url: null, owner_reply: null, verified: true, language: 'es', updated_at: '2024-01-01T00:00:00Z', mentions: mentions.detect(text) },
      ctx
    )
    assert.deepEqual(r.analysis, { sentiment: { score: 1, label: 'positive' }, aspects: [] })
    assert.ok(r.technicians.get('Priya Raman')! > 0)
  })
  test('a rating-only review is scored from its stars and has no aspects', () => {
    const r = analyzeReview(
      { id: 'r2', author: 'A', author_avatar_url: null, rating: 1, date: '2024-01-01', published_at: null, text: null, source: 't', source_url: null, owner_reply: null, verified: true, language: null, updated_at: '2024-01-01T00:00:00Z', mentions: { technicians: [], services: [], service_areas: [] } },
      ctx
    )
    assert.deepEqual(r.analysis, { sentiment: { score: -1, label: 'negative' }, aspects: [] })
  })
})

// What the learned reader is told of each aspect the rules found: which sides the review's own words took on it.
test('the rules tell the reader whether their own words praised an aspect, criticised it, or both', () => {
  const sides = (text: string, rating = 3) => Object.fromEntries([...readRules(reviewOf(text, rating), ctx).rules].map(([id, e]) => [id, e.sides]))
  assert.deepEqual(sides('Priya was kind to us.'), { compassion: 'praised' })
  assert.deepEqual(sides('The staff were rude.'), { compassion: 'criticised' })
  assert.equal(sides('The chapel was beautiful. The chapel was also freezing and filthy.').facilities, 'both')
  assert.equal(sides('The chapel holds about a hundred people.', 5).facilities, 'neither')
})

test('the rules tell the reader the words around each mention: its clause (negated words marked) and a clause after it that names no aspect', () => {
  const context = (text: string) => Object.fromEntries([...readRules(reviewOf(text, 2), ctx).rules].map(([id, e]) => [id, e.context]))
  const { communication } = context('Nobody at the office returned my calls. It was awful. The chapel was clean.')
  assert.ok(communication, 'communication found')
  assert.ok(communication.includes('not return') && communication.includes('call'), communication.join(','))
  assert.ok(communication.includes('awful'), 'the clause after it, which names no aspect')
  assert.ok(!communication.includes('clean'), 'not a clause that names another aspect')
})
