import assert from 'node:assert/strict'
import { test } from 'node:test'
import { clusteredWords, clustersOf } from './word-clusters.js'

test('every word of the table has one class at each level, within the level\'s count', () => {
  const words = [...clusteredWords()]
  assert.equal(words.length, 50_000)
  const counts = [300, 1200]
  for (const word of words.slice(0, 2000)) {
    const classes = clustersOf(word)
    assert.equal(classes.length, counts.length, word)
    classes.forEach((c, level) => {
      const [prefix, n] = c.split(':')
      assert.equal(prefix, `~${level}`)
      assert.ok(Number(n) >= 0 && Number(n) < counts[level]!, `${word}: ${c}`)
    })
  }
})

test('words near in meaning share a class; a word outside the table has none', () => {
  assert.ok(clustersOf('expensive').some((c) => clustersOf('overpriced').includes(c)))
  assert.ok(clustersOf('considerate').some((c) => clustersOf('thoughtful').includes(c)))
  assert.deepEqual(clustersOf('bellweather'), [])
  assert.deepEqual(clustersOf('Considerate'), [], 'the table holds lower-case lemmas')
})
