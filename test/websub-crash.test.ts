import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { importFile } from '../src/ingest/index.js'
import { openStore } from '../src/store/index.js'
import { testDatabaseUrl } from './helpers/database.js'
import { dataset, review, writeJson } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startServerProcess, type ServerProcess } from './helpers/processes.js'
import { hubRequest, makeTestPki, sleep, Subscriber, waitFor, type Delivery, type TestPki } from './helpers/websub.js'

let dir: string
let pki: TestPki
let sub: Subscriber
let env: Record<string, string>

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'websub-crash-'))
  pki = makeTestPki(dir)
  sub = await new Subscriber().start(pki)
  env = {
    DATABASE_URL: await testDatabaseUrl(dir, 'hub'),
    BASE_URL: 'https://reviews.test',
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_EXTRA_CA_FILE: pki.caFile,
    WEBSUB_RETRY_DELAYS_MS: '4000,4000',
    WEBSUB_TIMEOUT_MS: '2000',
    // The killed process's claim on the verification it had under way runs out after this; then the restart takes it.
    WEBSUB_CLAIM_LEASE_MS: '2000',
    POLL_INTERVAL_MS: '100'
  }
  await importInto(dataset([review({ id: 'c0', date: '2024-01-01', text: 'Evie was kind.' })]))
})
after(async () => {
  await sub.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function importInto(data: unknown): Promise<void> {
  const store = await openStore(env.DATABASE_URL!)
  try {
    await importFile(store, writeJson(dir, `import-${Date.now()}.json`, data), { replace: false })
  } finally {
    await store.close()
  }
}

const TOPICS = ['https://reviews.test/feed.xml', 'https://reviews.test/api/feed.json', 'https://reviews.test/reviews.json']

test('SIGKILL while deliveries are owed and a verification is under way: after a restart every owed delivery is made exactly once, and no subscription is lost', async () => {
  const callbacks = Array.from({ length: 6 }, (_, i) => ({ path: `/crash/${i}`, topic: TOPICS[i % 3]! }))
  const pending = { path: '/crash/pending', topic: TOPICS[0]! }
  let failing = true
  let holdVerification = true
  const acknowledged: Delivery[] = []
  sub.onDeliver = (d) => {
    if (failing) return { status: 503 }
    acknowledged.push(d)
    return undefined
  }
  sub.onVerify = (v) => (v.path === pending.path && holdVerification ? { status: 200, body: v.params['hub.challenge'], delayMs: 20_000 } : undefined)

  let server: ServerProcess = await startServerProcess(env)
  const hub = `${server.url}/api/websub/hub`
  for (const c of callbacks) assert.equal((await hubRequest(hub, { 'hub.mode': 'subscribe', 'hub.topic': c.topic, 'hub.callback': `${sub.url}${c.path}` })).status, 202)
  await waitFor('six verifications', () => callbacks.every((c) => sub.verificationsOf(c.path).length === 1))
  await sleep(300)
  assert.equal((await hubRequest(hub, { 'hub.mode': 'subscribe', 'hub.topic': pending.topic, 'hub.callback': `${sub.url}${pending.path}` })).status, 202)
  await waitFor('the held verification', () => sub.verificationsOf(pending.path).length === 1)

  await importInto(dataset([review({ id: 'c1', date: '2024-02-01', text: 'A change the subscribers are owed.' })]))
  await waitFor('a failed first attempt for each subscriber', () => callbacks.every((c) => sub.deliveriesTo(c.path).length === 1))
  assert.equal(await server.stop('SIGKILL'), null, 'killed, not exited')

  failing = false
  holdVerification = false
  server = await startServerProcess(env)
  try {
    const current = new Map<string, string>()
    for (const topic of TOPICS) current.set(topic, (await get(`${server.url}${new URL(topic).pathname}`)).text)
    await waitFor('one acknowledged delivery per subscriber', () => callbacks.every((c) => acknowledged.some((d) => d.path === c.path)), 15_000)
    await waitFor('the interrupted verification to be resumed', () => sub.verificationsOf(pending.path).length === 2)
    await sleep(1500)
    for (const c of callbacks) {
      const mine = acknowledged.filter((d) => d.path === c.path)
      assert.equal(mine.length, 1, `${c.path}: exactly one delivery`)
      assert.equal(mine[0]!.body.toString(), current.get(c.topic), `${c.path}: the owed content`)
      assert.equal(sub.deliveriesTo(c.path).length, 2, `${c.path}: the failed attempt before the crash and the one after`)
    }
    await sleep(1100)
    const stats = (await get(`${server.url}/api/websub/stats`)).json()
    const active = stats.topics.reduce((n: number, t: { active_subscriptions: number }) => n + t.active_subscriptions, 0)
    assert.equal(active, 7, 'the six subscriptions and the one verified after the restart')
    assert.equal(stats.owed_deliveries, 0)
    const logged = server.logs.filter((l) => l.msg === 'websub delivery acknowledged')
    assert.equal(logged.length, 6, 'every attempt is logged')
  } finally {
    sub.onDeliver = () => undefined
    sub.onVerify = () => undefined
    await server.stop()
  }
})
