import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { isPlainRequestParams, McpRequestParams } from './jsonrpc.js'

/** An object nested `depth` levels deep: { a: { a: ... { a: 1 } } }. */
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) })

const params = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 6 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })),
  fc.record({ _meta: fc.jsonValue({ maxDepth: 3 }), name: fc.string() }, { requiredKeys: [] }),
  fc.integer({ min: 28, max: 36 }).map(nested)
)

test('the shortcut takes only params the schema takes, and takes the usual ones', () => {
  let taken = 0
  fc.assert(
    fc.property(params, (p) => {
      if (!isPlainRequestParams(p)) return
      taken++
      const parsed = McpRequestParams.optional().safeParse(p)
      assert.ok(parsed.success, `the schema refuses ${JSON.stringify(p)}: ${parsed.success ? '' : parsed.error.message}`)
    }),
    { seed: 20261123, numRuns: 3000 }
  )
  assert.ok(taken > 500, `only ${taken} of 3000 took the shortcut`)
  for (const usual of [undefined, {}, { name: 'search_reviews', arguments: { query: 'kind', limit: 5 } }, nested(32)]) assert.equal(isPlainRequestParams(usual), true)
  for (const unusual of [null, [], 'x', 1, { _meta: {} }, nested(33), JSON.parse('{"_meta":{"progressToken":1}}')]) assert.equal(isPlainRequestParams(unusual), false)
})
