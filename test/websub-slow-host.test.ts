import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { importFile } from '../src/ingest/index.js'
import { openStore } from '../src/store/index.js'
import { dataset, review, writeJson } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'
import { hubRequest, makeTestPki, sleep, Subscriber, waitFor, type TestPki } from './helpers/websub.js'

/**
 * Many subscriptions on one slow callback host (issue 14, part 3). Each delivery's timeout counts from when its
 * request is sent, not from when it was queued behind the host's other deliveries: with 100 callbacks that each take
 * ~1.5 s, 25 at a time, and a 4 s timeout, a hub that counted queueing time would time out the last two rounds'
 * requests (sent after 3 and 4.5 s in the queue) that the subscriber had received, retry them (duplicates) and count
 * failures against healthy subscribers. The timeout leaves 2.5 s for a loaded machine to answer in.
 */
const SUBSCRIPTIONS = 100
const ANSWER_AFTER_MS = 1500

let dir: string
let pki: TestPki
let published = 0

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'websub-slow-'))
  pki = makeTestPki(dir)
})
after(() => rmSync(dir, { recursive: true, force: true }))

/** A hub and a subscriber whose every callback answers deliveries after `answerAfterMs`. */
async function slowHost(env: Record<string, string>, answerAfterMs: number) {
  const sub = await new Subscriber().start(pki)
  const svc = await startTestService({
    data: dataset([review({ id: 's0', date: '2024-01-01', text: 'Kind people.' })]),
    env: { WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true', WEBSUB_EXTRA_CA_FILE: pki.caFile, WEBSUB_RETRY_DELAYS_MS: '100,100', WEBSUB_RATE_PER_MIN: '1000', ...env }
  })
  const topic = `${svc.baseUrl}/feed.xml`
  return {
    sub,
    svc,
    topic,
    async subscribe(paths: string[]): Promise<void> {
      for (const path of paths) {
        const r = await hubRequest(`${svc.url}/api/websub/hub`, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': `${sub.url}${path}` })
        assert.equal(r.status, 202, r.text)
      }
      await waitFor('every subscription verified', async () => (await activeSubscriptions(svc)) === paths.length, 20_000)
      sub.onDeliver = () => ({ status: 204, delayMs: answerAfterMs })
    },
    /** Changes the reviews once, and waits until every path got that many deliveries. */
    async changeAndWait(paths: string[], change: number): Promise<void> {
      await publish(svc)
      await waitFor(`change ${change} delivered to every subscriber`, () => paths.every((p) => sub.deliveriesTo(p).length >= change), 60_000)
    },
    async feedStats() {
      const stats = (await get(`${svc.url}/api/websub/stats`)).json()
      return stats.topics.find((t: { topic: string }) => t.topic === topic)
    },
    async stop(): Promise<void> {
      await svc.stop()
      await sub.stop()
    }
  }
}

async function publish(svc: TestService): Promise<void> {
  const before = svc.service.holder.current.version
  const store = await openStore(svc.databaseUrl)
  try {
    const n = ++published
    await importFile(store, writeJson(dir, `p${n}.json`, dataset([review({ id: `p${n}`, date: '2024-06-01', text: `Change ${n}.` })])), { replace: false })
  } finally {
    await store.close()
  }
  await waitFor('the new data version', () => svc.service.holder.current.version > before)
}

test(`${SUBSCRIPTIONS} subscribers on one host answering after ${ANSWER_AFTER_MS} ms: one POST each per change, no failure counted`, async () => {
  // 4 rounds of 25 per change instead of the default 8's 13, to keep the test short; the rule is the same.
  const host = await slowHost({ WEBSUB_TIMEOUT_MS: '4000', WEBSUB_CONNECTIONS_PER_HOST: '25' }, ANSWER_AFTER_MS)
  try {
    const paths = Array.from({ length: SUBSCRIPTIONS }, (_, i) => `/slow/${i}`)
    await host.subscribe(paths)
    for (let change = 1; change <= 2; change++) await host.changeAndWait(paths, change)
    // Anything still in flight (a timed-out request being retried) would arrive within a timeout and a retry delay.
    await sleep(4500)
    assert.deepEqual(paths.map((p) => host.sub.deliveriesTo(p).length), paths.map(() => 2), 'exactly one POST per subscriber per change')
    const feed = await host.feedStats()
    assert.equal(feed.delivery_failures, 0, 'no failure counted against a healthy subscriber')
    assert.equal(feed.deliveries, 2 * SUBSCRIPTIONS)
    assert.equal(feed.active_subscriptions, SUBSCRIPTIONS)
  } finally {
    await host.stop()
  }
})

test('deliveries that wait past the queue bound are put back, not failed: each still gets one POST', async () => {
  // One connection, a queue bound far shorter than one answer: the second and third owed deliveries expire in the
  // queue again and again while the first is answered, and must neither be sent twice nor count as failures.
  const host = await slowHost({ WEBSUB_TIMEOUT_MS: '2000', WEBSUB_CONNECTIONS_PER_HOST: '1', WEBSUB_QUEUE_TIMEOUT_MS: '100' }, 400)
  try {
    const paths = ['/queued/1', '/queued/2', '/queued/3']
    await host.subscribe(paths)
    await host.changeAndWait(paths, 1)
    await sleep(500)
    assert.deepEqual(paths.map((p) => host.sub.deliveriesTo(p).length), [1, 1, 1])
    assert.equal((await host.feedStats()).delivery_failures, 0)
  } finally {
    await host.stop()
  }
})

async function activeSubscriptions(svc: TestService): Promise<number> {
  const store = await openStore(svc.databaseUrl)
  try {
    return Object.values((await store.subscriptions.totals(0, Date.now())).active).reduce((a, b) => a + b, 0)
  } finally {
    await store.close()
  }
}
