import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { dataset, review } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'
import { runTool, writeTemp } from './helpers/tools.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

let s: TestService
let doc: any

before(async () => {
  const reviews = [
    review({ id: 'o1', rating: 5, date: '2024-05-01', text: 'Evie was lovely.', owner_reply: { text: 'Thank you.', date: '2024-05-02' } }),
    review({ id: 'o2', rating: 2, date: '2024-04-01', text: null, published_at: '2024-04-01T09:00:00-07:00' }),
    review({ id: 'o3', rating: 4, date: '2023-04-01', text: 'The simple cremation was done in a week.', language: null })
  ]
  s = await startTestService({ data: dataset(reviews) })
  doc = (await get(`${s.url}/openapi.json`)).json()
})
after(() => s.stop())

/** Paths whose GET produces each documented response: "<operationId> <status>" -> paths. 304 replays the first 200. */
const RECIPES: Record<string, string[]> = {
  'getReviews 200': ['/reviews.json'],
  'getInsights 200': ['/insights.json'],
  'getFeed 200': ['/api/feed.json'],
  'getAtomFeed 200': ['/feed.xml'],
  'searchReviews 200': ['/api/reviews/search', '/api/reviews/search?min_rating=4&limit=1', '/api/reviews/search?mentions_technician=nobody'],
  'searchReviews 400': ['/api/reviews/search?rating=7&x=1', '/api/reviews/search?since=2024-02-30'],
  'getReviewsSince 200': ['/api/reviews/since/2024-01-01', '/api/reviews/since/2999-01-01'],
  'getReviewsSince 400': ['/api/reviews/since/2024-13-01'],
  'getReview 200': ['/reviews/o1', '/reviews/o2'],
  'getReview 404': ['/reviews/missing']
}

function operations(): { path: string; operationId: string; responses: Record<string, any> }[] {
  return Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.values(item).map((op: any) => ({ path, operationId: op.operationId, responses: op.responses }))
  )
}

function resolve(node: any): any {
  return node.$ref ? node.$ref.split('/').slice(1).reduce((n: any, k: string) => n[k], doc) : node
}

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1.0, version 1.0.0, with the operationIds of the spec', () => {
    assert.equal(doc.openapi, '3.1.0')
    assert.equal(doc.info.version, '1.0.0')
    const ids = operations().map((o) => o.operationId)
    for (const id of ['getReviews', 'getInsights', 'getFeed', 'searchReviews', 'getReviewsSince']) assert.ok(ids.includes(id), id)
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique')
    assert.equal(doc.servers[0].url, s.baseUrl)
  })

  test('lints clean with @redocly/cli', () => {
    const r = runTool(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', '--format=stylish', writeTemp(s.dir, 'openapi.json', JSON.stringify(doc))])
    assert.equal(r.status, 0, r.output)
    assert.match(r.output, /Your API description is valid/)
    assert.doesNotMatch(r.output, /\d+:\d+\s+(warning|error)\s/, "no lint findings")
  })

  test('documents search parameters from the same schema that validates them', () => {
    const params = doc.paths['/api/reviews/search'].get.parameters.filter((p: any) => p.in === 'query')
    assert.deepEqual(params.map((p: any) => p.name), ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'offset'])
    const limit = params.find((p: any) => p.name === 'limit').schema
    assert.deepEqual([limit.type, limit.minimum, limit.maximum, limit.default], ['integer', 1, 100, 20])
  })
})

describe('every documented response of every endpoint validates against the document', () => {
  test('each (operation, status) has a request that produces it, and its body matches the schema', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats(ajv)
    ajv.addSchema({ ...doc, $id: 'openapi' })
    const covered: string[] = []
    for (const op of operations()) {
      for (const [status, raw] of Object.entries(op.responses)) {
        const spec = resolve(raw)
        if (status === '304') {
          const path = RECIPES[`${op.operationId} 200`]![0]!
          const etag = String((await get(`${s.url}${path}`)).headers.etag)
          const res = await get(`${s.url}${path}`, { 'if-none-match': etag })
          assert.equal(res.status, 304, path)
          assert.equal(res.body.length, 0)
          covered.push(`${op.operationId} 304`)
          continue
        }
        const recipes = RECIPES[`${op.operationId} ${status}`]
        assert.ok(recipes, `no request produces documented response ${op.operationId} ${status}`)
        for (const path of recipes) {
          const res = await get(`${s.url}${path}`)
          assert.equal(String(res.status), status, `${op.operationId}: ${res.text.slice(0, 200)}`)
          const [type, media] = Object.entries(spec.content ?? {})[0] as [string, any]
          assert.equal(String(res.headers['content-type']).split(';')[0], type)
          if (type.endsWith('json')) {
            const validate = ajv.compile({ $ref: `openapi${media.schema.$ref ?? ''}` })
            assert.ok(validate(res.json()), `${op.operationId} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`)
          } else {
            assert.equal(media.schema.type, 'string')
            assert.ok(res.body.length > 0)
          }
        }
        covered.push(`${op.operationId} ${status}`)
      }
    }
    assert.deepEqual(Object.keys(RECIPES).filter((k) => !covered.includes(k)), [], 'every recipe matches a documented response')
  })
})
