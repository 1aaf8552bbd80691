import assert from 'node:assert/strict'
import { test } from 'node:test'
import { HostSlots, QueueExpired } from './host-slots.js'

test('a host gets at most its connections at once; the next waits and starts when one is released, in order', async () => {
  const slots = new HostSlots(2, 1000)
  const a = await slots.acquire('a.example')
  const b = await slots.acquire('a.example')
  assert.ok(slots.full('a.example'))
  assert.deepEqual(slots.fullHosts(), ['a.example'])
  const other = await slots.acquire('b.example')
  assert.equal(slots.full('b.example'), false, 'another host is not held up')
  const order: string[] = []
  const c = slots.acquire('a.example').then((release) => (order.push('c'), release))
  const d = slots.acquire('a.example').then((release) => (order.push('d'), release))
  a()
  a()
  const releaseC = await c
  assert.deepEqual(order, ['c'], 'releasing twice frees one slot, not two')
  b()
  const releaseD = await d
  assert.deepEqual(order, ['c', 'd'])
  for (const release of [releaseC, releaseD, other]) release()
  assert.deepEqual(slots.fullHosts(), [])
  assert.equal(slots.full('a.example'), false)
})

test('a request that waits past the queue bound fails with QueueExpired and leaves the host as it was', async () => {
  const slots = new HostSlots(1, 50)
  const held = await slots.acquire('slow.example')
  const started = Date.now()
  await assert.rejects(slots.acquire('slow.example'), QueueExpired)
  assert.ok(Date.now() - started >= 45)
  held()
  assert.equal(slots.full('slow.example'), false)
  const again = await slots.acquire('slow.example')
  again()
})
