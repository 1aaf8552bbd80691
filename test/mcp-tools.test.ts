import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { business, dataset, review, writeJson } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { connectClient } from './helpers/mcp.js'
import { runCli } from './helpers/processes.js'
import { startTestService, type TestService } from './helpers/service.js'

const reviews = [
  review({ id: 'm1', rating: 5, date: '2024-03-01', text: 'Evie was so kind, and the simple cremation price was fair.' }),
  review({ id: 'm2', rating: 2, date: '2024-02-01', text: 'Teddy took three weeks to return the ashes and nobody called us back.' }),
  review({ id: 'm3', rating: 4, date: '2024-01-15', text: 'The graveside service was lovely; Grace Whitfield spoke beautifully.' }),
  review({ id: 'm4', rating: 5, date: '2023-12-01', text: null })
]

let svc: TestService
let client: Client

before(async () => {
  svc = await startTestService({ data: dataset(reviews) })
  ;({ client } = await connectClient(svc.url))
})
after(async () => {
  await client.close()
  await svc.stop()
})

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult
}

/** A good result carries structuredContent and the same JSON as its one text block. */
function structured(r: CallToolResult): any {
  assert.ok(!r.isError, JSON.stringify(r.content))
  assert.equal(r.content.length, 1)
  assert.equal(r.content[0]!.type, 'text')
  assert.deepEqual(JSON.parse((r.content[0] as { text: string }).text), r.structuredContent)
  return r.structuredContent
}

/** A tool error: isError, one text block holding the HTTP error body, and no structuredContent. */
function toolError(r: CallToolResult): { error: string; message: string; issues?: { code: string; path: string[]; message: string }[] } {
  assert.equal(r.isError, true)
  assert.equal(r.structuredContent, undefined)
  assert.equal(r.content.length, 1)
  return JSON.parse((r.content[0] as { text: string }).text)
}

describe('initialize', () => {
  test('names the server, its capabilities and instructions that say how fresh the data is', () => {
    assert.equal(client.getServerVersion()?.name, 'reviews-service')
    const caps = client.getServerCapabilities()!
    assert.ok(caps.tools && caps.prompts && caps.logging)
    assert.equal(caps.resources?.subscribe, true)
    const instructions = client.getInstructions()!
    assert.match(instructions, /Quiet Oak Funeral Home/)
    assert.match(instructions, /4 reviews dated 2023-12-01 to 2024-03-01/)
    assert.match(instructions, /last updated \d{4}-\d\d-\d\dT/)
    assert.match(instructions, /search_reviews/)
  })
})

describe('tools', () => {
  test('nine read-only tools, each with title, description, input and output schemas and annotations', async () => {
    const { tools } = await client.listTools()
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'get_aspect_sentiment', 'get_business', 'get_faq', 'get_insights_summary', 'get_review', 'get_reviews_since', 'get_service', 'get_technician', 'search_reviews'
    ])
    for (const t of tools) {
      assert.ok(t.title && t.description && t.description.length > 60, t.name)
      assert.equal(t.inputSchema.type, 'object')
      assert.equal(t.outputSchema?.type, 'object')
      assert.equal(t.annotations?.readOnlyHint, true)
      assert.equal(t.annotations?.openWorldHint, false)
    }
    const search = tools.find((t) => t.name === 'search_reviews')!
    assert.deepEqual(Object.keys(search.inputSchema.properties!).sort(), ['limit', 'mentions_service', 'mentions_technician', 'min_rating', 'offset', 'query', 'rating', 'since', 'until'])
  })

  test('get_business: the business file and the aggregate rating', async () => {
    const r = structured(await call('get_business'))
    assert.equal(r.business.name, business().name)
    assert.deepEqual(r.aggregate_rating.distribution, { '1': 0, '2': 1, '3': 0, '4': 1, '5': 2 })
    assert.match(r.updated_at, /^\d{4}-/)
  })

  test('search_reviews gives exactly what GET /api/reviews/search gives for the same parameters', async () => {
    for (const args of [{}, { rating: 5 }, { min_rating: 4, limit: 1 }, { mentions_technician: 'evie' }, { mentions_service: 'simple cremation' }, { query: 'ASHES' }, { since: '2024-01-20', until: '2024-02-28' }, { limit: 1, offset: 1 }]) {
      const viaMcp = structured(await call('search_reviews', args))
      const viaHttp = (await get(`${svc.url}/api/reviews/search?${new URLSearchParams(args as Record<string, string>)}`)).json()
      assert.deepEqual(viaMcp, viaHttp, JSON.stringify(args))
    }
  })

  test('search_reviews with bad arguments: isError with the same issues as the HTTP 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ rating: 9, colour: 'blue' }, 'rating=9&colour=blue'],
      [{ since: '2024-05-01', until: '2024-04-30' }, 'since=2024-05-01&until=2024-04-30'],
      [{ since: '2025-02-30', limit: 0 }, 'since=2025-02-30&limit=0']
    ]
    for (const [args, qs] of cases) {
      const err = toolError(await call('search_reviews', args))
      const http = (await get(`${svc.url}/api/reviews/search?${qs}`)).json()
      assert.deepEqual(err, http, qs)
    }
    // JSON types are strict: a string where a number is due is an issue, not coerced.
    assert.deepEqual(toolError(await call('search_reviews', { rating: '5' })).issues!.map((i) => i.path), [['rating']])
  })

  test('get_reviews_since pages through the reviews on or after a day', async () => {
    const r = structured(await call('get_reviews_since', { date: '2024-01-01', limit: 1 }))
    assert.deepEqual([r.since, r.count, r.returned, r.offset, r.next_offset, r.reviews[0].id], ['2024-01-01', 3, 1, 0, 1, 'm1'])
    const last = structured(await call('get_reviews_since', { date: '2024-01-01', limit: 2, offset: 2 }))
    assert.deepEqual([last.returned, last.next_offset, last.reviews[0].id], [1, null, 'm3'])
    assert.equal(structured(await call('get_reviews_since', { date: '2099-01-01' })).count, 0)
    assert.deepEqual(toolError(await call('get_reviews_since', { date: '2024-13-01' })).issues!.map((i) => i.path), [['date']])
    assert.deepEqual(toolError(await call('get_reviews_since', {})).issues!.map((i) => i.path), [['date']])
  })

  test('get_review by id; an unknown id is not_found', async () => {
    assert.equal(structured(await call('get_review', { id: 'm2' })).text, reviews[1]!.text)
    assert.equal(toolError(await call('get_review', { id: 'nope' })).error, 'not_found')
    assert.equal(toolError(await call('get_review', { id: '../etc' })).error, 'invalid_request')
  })

  test('get_aspect_sentiment by id or label, with example reviews and their phrases', async () => {
    const byId = structured(await call('get_aspect_sentiment', { aspect: 'timeliness' }))
    const byLabel = structured(await call('get_aspect_sentiment', { aspect: 'TIMELINESS' }))
    assert.deepEqual(byId, byLabel)
    assert.equal(byId.aspect.id, 'timeliness')
    assert.ok(byId.examples.some((e: { review_id: string; sentiment: string }) => e.review_id === 'm2' && e.sentiment === 'negative'))
    const unknown = toolError(await call('get_aspect_sentiment', { aspect: 'parking karma' }))
    assert.equal(unknown.error, 'not_found')
    assert.match(unknown.message, /compassion \(Compassion\)/)
  })

  test('get_technician by alias, first name or misspelling; unknown names list the staff', async () => {
    for (const name of ['Teddy', 'theodore', 'Theodore Quist', 'Theodor Quist']) {
      const r = structured(await call('get_technician', { name }))
      assert.equal(r.technician.name, 'Theodore Quist', name)
      assert.deepEqual(r.insight.review_ids, ['m2'])
      assert.deepEqual(r.recent_reviews.map((x: { id: string }) => x.id), ['m2'])
    }
    const unknown = toolError(await call('get_technician', { name: 'Bob' }))
    assert.equal(unknown.error, 'not_found')
    assert.match(unknown.message, /Evelyn Marsh, Theodore Quist, Grace Whitfield/)
  })

  test('get_service by id, name or alias', async () => {
    for (const service of ['direct-cremation', 'Direct Cremation', 'simple cremation']) {
      const r = structured(await call('get_service', { service }))
      assert.equal(r.service.id, 'direct-cremation')
      assert.deepEqual(r.insight.review_ids, ['m1'])
    }
    assert.equal(toolError(await call('get_service', { service: 'embalming' })).error, 'not_found')
  })

  test('get_faq and get_insights_summary come from /insights.json', async () => {
    const insights = (await get(`${svc.url}/insights.json`)).json()
    assert.deepEqual(structured(await call('get_faq')).faq, insights.faq)
    const s = structured(await call('get_insights_summary'))
    assert.equal(s.summary, insights.summary)
    assert.equal(s.review_count, 4)
    assert.equal(s.aspects.length, insights.aspects.length)
  })

  test('tools without arguments refuse unexpected ones', async () => {
    for (const name of ['get_business', 'get_faq', 'get_insights_summary']) {
      assert.deepEqual(toolError(await call(name, { verbose: true })).issues!.map((i) => i.path), [['verbose']], name)
    }
    assert.deepEqual(toolError(await call('get_review', { id: 'm1', extra: 1 })).issues!.map((i) => i.code), ['unrecognized_keys'])
  })

  test('an unknown tool is an isError result naming the tools', async () => {
    const err = toolError(await call('delete_reviews'))
    assert.equal(err.error, 'not_found')
    assert.match(err.message, /search_reviews/)
  })
})

describe('resources', () => {
  test('the datasets and feeds under their public URLs, with the same bytes as GET', async () => {
    const { resources } = await client.listResources()
    const base = svc.baseUrl
    assert.deepEqual(resources.map((r) => r.uri), [`${base}/reviews.json`, `${base}/insights.json`, `${base}/api/feed.json`, `${base}/feed.xml`])
    for (const r of resources) {
      const { contents } = await client.readResource({ uri: r.uri })
      const http = await get(`${svc.url}${r.uri.slice(base.length)}`)
      assert.equal((contents[0] as { text: string }).text, http.text, r.uri)
      assert.equal(contents[0]!.mimeType, String(http.headers['content-type']).split(';')[0])
      assert.equal(r.size, http.body.length)
    }
  })

  test('a template for one review, readable by its permalink', async () => {
    const { resourceTemplates } = await client.listResourceTemplates()
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), [`${svc.baseUrl}/reviews/{id}`])
    const { contents } = await client.readResource({ uri: `${svc.baseUrl}/reviews/m3` })
    assert.equal(JSON.parse((contents[0] as { text: string }).text).id, 'm3')
  })

  test('unknown URIs are -32002 for read and subscribe', async () => {
    for (const uri of [`${svc.baseUrl}/reviews/nope`, 'https://elsewhere.example/reviews.json', `${svc.baseUrl}/reviews/%E0%A4%A`]) {
      await assert.rejects(client.readResource({ uri }), (e: { code?: number }) => e.code === -32002, uri)
      await assert.rejects(client.subscribeResource({ uri }), (e: { code?: number }) => e.code === -32002, uri)
    }
  })
})

describe('prompts', () => {
  test('prompts for a family\'s questions, with their arguments checked', async () => {
    const { prompts } = await client.listPrompts()
    assert.ok(prompts.length >= 2)
    for (const p of prompts) assert.ok(p.description, p.name)
    const r = await client.getPrompt({ name: 'answer_family_question', arguments: { question: 'Will they be kind to my mother?' } })
    const text = (r.messages[0]!.content as { text: string }).text
    assert.match(text, /Quiet Oak Funeral Home/)
    assert.match(text, /Will they be kind to my mother\?/)
    assert.match((await client.getPrompt({ name: 'whats_new', arguments: {} })).messages[0]!.content.type, /text/)
    await assert.rejects(client.getPrompt({ name: 'answer_family_question', arguments: {} }), (e: { code?: number }) => e.code === -32602)
    await assert.rejects(client.getPrompt({ name: 'whats_new', arguments: { since: 'last week' } }), (e: { code?: number; message: string }) => e.code === -32602 && /since/.test(e.message))
    await assert.rejects(client.getPrompt({ name: 'whats_new', arguments: { colour: 'blue' } }), (e: { code?: number }) => e.code === -32602)
    await assert.rejects(client.getPrompt({ name: 'nope' }), (e: { code?: number }) => e.code === -32602)
  })
})

describe('logging', () => {
  test('logging/setLevel is accepted; an unknown level is -32602', async () => {
    assert.deepEqual(await client.setLoggingLevel('warning'), {})
    await assert.rejects(client.setLoggingLevel('loud' as 'info'), (e: { code?: number }) => e.code === -32602)
    await client.setLoggingLevel('debug')
  })
})

describe('notifications after an import', () => {
  test('a subscribed resource gets notifications/resources/updated, and a log message says what changed', async () => {
    const updated: string[] = []
    const logs: unknown[] = []
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri))
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data))
    await client.subscribeResource({ uri: `${svc.baseUrl}/reviews.json` })
    await client.subscribeResource({ uri: `${svc.baseUrl}/reviews/m1` })
    await client.subscribeResource({ uri: `${svc.baseUrl}/reviews/m3` })
    await client.subscribeResource({ uri: `${svc.baseUrl}/feed.xml` })
    await client.unsubscribeResource({ uri: `${svc.baseUrl}/feed.xml` })
    const edited = { ...reviews[0]!, text: 'Evie was so kind. Edited: the urn arrived early too.' }
    const file = writeJson(svc.dir, 'update.json', dataset([edited, review({ id: 'm5', date: '2024-04-01', text: 'Thank you.' })]))
    const r = runCli(['import', file], { DATABASE_URL: svc.databaseUrl })
    assert.equal(r.status, 0, r.stderr)
    const deadline = Date.now() + 10_000
    while (updated.length < 2 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 50))
    await new Promise((ok) => setTimeout(ok, 200))
    assert.deepEqual(updated.sort(), [`${svc.baseUrl}/reviews.json`, `${svc.baseUrl}/reviews/m1`])
    assert.ok(logs.some((d) => (d as { review_count?: number }).review_count === 5), JSON.stringify(logs))
    const after = structured(await call('get_review', { id: 'm1' }))
    assert.match(after.text, /Edited/)
  })
})
