import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseText } from './nlp.js'

test('a text parses the same whatever was parsed before it', () => {
  // wink-nlp keeps the words it meets: after "It was my mom's." it would read "mom's" below as one word, not two.
  const text = "He remembered my mom's name at the store."
  const first = parseText(text)
  assert.deepEqual(first[0]!.tokens.slice(3, 5).map((t) => t.value), ['mom', "'s"])
  for (const other of ["It was my mom's.", "Mom's.", '"mom\'s"', "my mom's"]) parseText(other)
  assert.deepEqual(parseText(text), first)
})
