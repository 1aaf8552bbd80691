import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { InsightsDocument } from '../src/domain/index.js'
import { openStore } from '../src/store/index.js'
import { dataset, plumberBusiness, review } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'

const strict = InsightsDocument
const TOP_KEYS = ['version', 'generated_at', 'model', 'review_count', 'date_range', 'overall_sentiment', 'aspects', 'entities', 'topics', 'temporal', 'per_review', 'faq', 'summary', 'pull_quote']

describe('insights.json on the demo funeral home', () => {
  let s: TestService
  let doc: any
  let reviews: any[]
  before(async () => {
    s = await startTestService()
    doc = (await get(`${s.url}/insights.json`)).json()
    reviews = (await get(`${s.url}/reviews.json`)).json().reviews
  })
  after(() => s.stop())

  test('has every field of the contract, in order, and validates against its schema', () => {
    assert.deepEqual(Object.keys(doc), TOP_KEYS)
    strict.parse(doc)
    assert.equal(doc.model, 'reviews-service-absa/1')
    assert.equal(doc.review_count, reviews.length)
    assert.deepEqual(doc.aspects.map((a: { id: string }) => a.id), ['compassion', 'communication', 'professionalism', 'pricing', 'timeliness', 'facilities', 'arrangements', 'ceremony'])
    for (const a of doc.aspects) assert.equal(a.positive_count + a.neutral_count + a.negative_count, a.mention_count)
  })

  test('per_review covers every published review; entities match the reviews\' mentions', () => {
    assert.deepEqual(Object.keys(doc.per_review).sort(), reviews.map((r) => r.id).sort())
    for (const t of doc.entities.technicians) {
      const named = reviews.filter((r) => r.mentions.technicians.includes(t.name)).map((r) => r.id)
      assert.deepEqual([...t.review_ids].sort(), named.sort(), t.name)
      assert.equal(t.mention_count, named.length)
    }
  })

  test('every FAQ answer, the summary and the pull quote are grounded in real review ids', () => {
    const ids = new Set(reviews.map((r) => r.id))
    assert.ok(doc.faq.length >= 6)
    const questions = doc.faq.map((f: { question: string }) => f.question).join(' ')
    for (const topic of [/kind/i, /price/i, /ashes/i, /staff|work with/i, /informed/i, /facilities/i]) assert.match(questions, topic)
    for (const f of doc.faq) {
      assert.ok(f.review_ids.length > 0, f.question)
      for (const id of f.review_ids) assert.ok(ids.has(id), `${f.question}: ${id}`)
      assert.match(f.answer, /\d/, 'answers carry numbers')
    }
    const cited = [...doc.summary.matchAll(/\[([^\]]+)\]/g)].flatMap((m) => m[1].split(', '))
    assert.ok(cited.length >= 4)
    for (const id of cited) assert.ok(ids.has(id), id)
    const quoted = reviews.find((r) => r.id === doc.pull_quote.review_id)
    assert.ok(quoted.text.includes(doc.pull_quote.text))
    assert.equal(quoted.author, doc.pull_quote.author)
  })

  test('the monthly series spans the reviews and the trend is one of three values', () => {
    const months = doc.temporal.monthly.map((m: { month: string }) => m.month)
    assert.deepEqual(months, [...months].sort())
    assert.equal(doc.temporal.monthly.reduce((n: number, m: { review_count: number }) => n + m.review_count, 0), reviews.length)
    assert.ok(['improving', 'stable', 'declining'].includes(doc.temporal.trend))
  })

  test('topics come from the text and do not restate the aspects', () => {
    assert.ok(doc.topics.length >= 5)
    const aspectNames = new Set(doc.aspects.flatMap((a: { id: string; label: string }) => [a.id, a.label.toLowerCase()]))
    for (const t of doc.topics) {
      assert.ok(!aspectNames.has(t.label.toLowerCase()), t.label)
      assert.ok(t.review_count >= 3)
    }
  })
})

describe('determinism', () => {
  test('two services on the same data produce the same bytes apart from generated_at', async () => {
    const data = dataset([
      review({ id: 'd1', date: '2024-01-02', text: 'Evie was kind, but the bill was a mess.' }),
      review({ id: 'd2', date: '2024-02-03', rating: 2, text: 'We waited three weeks for the ashes and nobody called.' }),
      review({ id: 'd3', date: '2024-03-04', text: 'The chapel was spotless and the price list was clear.' })
    ])
    const [a, b] = await Promise.all([startTestService({ data }), startTestService({ data })])
    try {
      const [x, y] = await Promise.all([get(`${a.url}/insights.json`), get(`${b.url}/insights.json`)])
      const strip = (t: string) => t.replace(/"generated_at":"[^"]+"/, '')
      assert.equal(strip(x.text), strip(y.text))
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  })
})

describe('a business with its own taxonomy', () => {
  let s: TestService
  const plumber = plumberBusiness()
  before(async () => {
    s = await startTestService({
      data: dataset(
        [
          review({ id: 'p1', date: '2024-05-01', text: 'Gus arrived on time and fixed the water heater. Fair price.' }),
          review({ id: 'p2', date: '2024-05-02', rating: 2, text: 'They showed up late, and the leak came back a week later.' }),
          review({ id: 'p3', date: '2024-05-03', text: 'Gaspard explained the quote and the repair held up.' })
        ],
        plumber
      )
    })
  })
  after(() => s.stop())

  test('aspects, FAQ and entities follow the business file, with no funeral vocabulary', async () => {
    const doc = (await get(`${s.url}/insights.json`)).json()
    strict.parse(doc)
    assert.deepEqual(doc.aspects.map((a: { id: string }) => a.id), ['punctuality', 'workmanship', 'pricing'])
    const punctuality = doc.aspects[0]
    assert.deepEqual([punctuality.mention_count, punctuality.positive_count, punctuality.negative_count], [2, 1, 1])
    assert.deepEqual(doc.per_review.p2.aspects.map((a: { id: string; sentiment: string }) => [a.id, a.sentiment]), [['punctuality', 'negative'], ['workmanship', 'negative']])
    assert.deepEqual(doc.faq.map((f: { question: string }) => f.question), ['Do they show up on time?', 'Is the work done right?', 'Is the price fair?', 'Who does the work?'])
    assert.equal(doc.entities.technicians[0].mention_count, 2)
    assert.doesNotMatch(JSON.stringify(doc), /funeral|ashes|cremation|compassion/i)
  })
})

describe('refresh', () => {
  test('a new review is reflected in insights after an import by another writer', async () => {
    const s = await startTestService({ data: dataset([review({ id: 'f1', date: '2024-01-01', text: 'Kind people.' })]) })
    try {
      const before = (await get(`${s.url}/insights.json`)).json()
      const store = await openStore(s.databaseUrl)
      await store.applyImport({ reviews: [{ ...review({ id: 'f2', date: '2024-06-01', rating: 1, text: 'The bill had hidden fees.' }), author: 'X' } as any], replace: false, now: new Date().toISOString() })
      await store.close()
      let after = before
      for (let i = 0; i < 40 && after.review_count === 1; i++) {
        await new Promise((r) => setTimeout(r, 50))
        after = (await get(`${s.url}/insights.json`)).json()
      }
      assert.equal(after.review_count, 2)
      assert.equal(after.per_review.f2.aspects[0].id, 'pricing')
      assert.equal(after.per_review.f2.aspects[0].sentiment, 'negative')
      assert.deepEqual(after.per_review.f1, before.per_review.f1)
    } finally {
      await s.stop()
    }
  })
})
