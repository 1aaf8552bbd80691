import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { importFile } from '../src/ingest/index.js'
import { openStore } from '../src/store/index.js'
import { dataset, review, writeJson } from './helpers/fixtures.js'
import { get, request } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'
import { hubRequest, makeTestPki, sleep, Subscriber, waitFor, type Delivery, type TestPki, type Verification } from './helpers/websub.js'

/**
 * The hub against a real HTTPS subscriber on loopback (test CA made here): websub.rocks hub tests 100-106, every row
 * of the spec's states table, and the failure modes of decisions.md section 4.
 */
let dir: string
let pki: TestPki
let sub: Subscriber
let svc: TestService
let hub: string
let atom: string
let jsonFeed: string
let reviewsJson: string
let published = 0

const HUB_ENV = (pkiFile: string) => ({
  WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
  WEBSUB_EXTRA_CA_FILE: pkiFile,
  WEBSUB_RETRY_DELAYS_MS: '150,300',
  WEBSUB_TIMEOUT_MS: '700',
  WEBSUB_LEASE_MIN_S: '1'
})

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'websub-'))
  pki = makeTestPki(dir)
  sub = await new Subscriber().start(pki)
  svc = await startTestService({ data: dataset([review({ id: 'w0', date: '2024-01-01', text: 'Evie was kind.' })]), env: HUB_ENV(pki.caFile) })
  hub = `${svc.url}/api/websub/hub`
  atom = `${svc.baseUrl}/feed.xml`
  jsonFeed = `${svc.baseUrl}/api/feed.json`
  reviewsJson = `${svc.baseUrl}/reviews.json`
})
after(async () => {
  await svc.stop()
  await sub.stop()
  rmSync(dir, { recursive: true, force: true })
})

let callbacks = 0
/** A fresh callback path for each test, so tests never see each other's traffic. */
const callback = (query = '') => {
  const path = `/cb/${++callbacks}`
  return { path, url: `${sub.url}${path}${query}` }
}

/** Publishes a change of review data (a new review, from another connection, as an import would) and waits for it. */
async function publish(target: TestService = svc): Promise<number> {
  const before = target.service.holder.current.version
  const store = await openStore(target.databaseUrl)
  try {
    published++
    await importFile(store, writeJson(dir, `p${published}.json`, dataset([review({ id: `p${published}`, date: '2024-06-01', text: `Change number ${published}.` })])), { replace: false })
  } finally {
    await store.close()
  }
  await waitFor('the new data version', () => target.service.holder.current.version > before)
  return target.service.holder.current.version
}

async function subscribed(topic: string, cb: { path: string; url: string }, extra: Record<string, string> = {}, target = hub): Promise<void> {
  const verified = sub.verificationsOf(cb.path).length
  const r = await hubRequest(target, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': cb.url, ...extra })
  assert.equal(r.status, 202, r.text)
  await waitFor('the verification GET', () => sub.verificationsOf(cb.path).length > verified)
  await waitFor('the verification to be applied', async () => !(await pendingIntent(cb.url)))
}

async function pendingIntent(callbackUrl: string): Promise<boolean> {
  const store = await openStore(svc.databaseUrl)
  try {
    return (await store.dump()).intents.some((i) => i.callback === callbackUrl)
  } finally {
    await store.close()
  }
}

/** Active subscriptions of a topic, read from the database (the stats endpoint caches for a second). */
async function activeCount(topic: string, target: TestService = svc): Promise<number> {
  const store = await openStore(target.databaseUrl)
  try {
    return (await store.subscriptions.totals(target.service.holder.current.version, Date.now())).active[topic] ?? 0
  } finally {
    await store.close()
  }
}

/** What a websub.rocks subscriber checks on a delivery (app/Hub.php post_subscriber). */
async function assertDelivery(d: Delivery, topic: string, secret?: string): Promise<void> {
  const current = await get(`${svc.url}${new URL(topic).pathname}`)
  assert.ok(d.body.length > 0, 'a fat ping: the body is the content')
  assert.equal(d.body.toString('utf8'), current.text, 'the body is the current content of the topic')
  assert.equal(d.headers['content-type'], current.headers['content-type'], 'exactly the Content-Type a GET of the topic returns')
  const link = String(d.headers.link)
  assert.equal(link.match(/<([^>]+)>;\s*rel="hub"/)?.[1], `${svc.baseUrl}/api/websub/hub`)
  assert.equal(link.match(/<([^>]+)>;\s*rel="self"/)?.[1], topic)
  if (!secret) return assert.equal(d.headers['x-hub-signature'], undefined, 'no signature without a secret')
  assert.equal(d.headers['x-hub-signature'], `sha256=${createHmac('sha256', secret).update(d.body).digest('hex')}`)
}

describe('websub.rocks hub tests, replicated', () => {
  test('100 typical subscriber request: 202, verification with mode, topic, challenge and lease; unsigned fat ping', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    const v = sub.verificationsOf(cb.path)[0]!
    assert.equal(v.params['hub.mode'], 'subscribe')
    assert.equal(v.params['hub.topic'], atom)
    assert.ok(v.params['hub.challenge']!.length >= 32)
    assert.equal(v.params['hub.lease_seconds'], '864000')
    await publish()
    await waitFor('a delivery', () => sub.deliveriesTo(cb.path).length === 1)
    await assertDelivery(sub.deliveriesTo(cb.path)[0]!, atom)
  })

  test('101 subscription with a secret: X-Hub-Signature sha256 over the exact body, lowercase hex', async () => {
    const cb = callback()
    await subscribed(atom, cb, { 'hub.secret': 'Gx8lP2qYz0uAq5e1vB7c' })
    await publish()
    await waitFor('a delivery', () => sub.deliveriesTo(cb.path).length === 1)
    await assertDelivery(sub.deliveriesTo(cb.path)[0]!, atom, 'Gx8lP2qYz0uAq5e1vB7c')
  })

  test('102 additional parameters are ignored', async () => {
    const cb = callback()
    await subscribed(atom, cb, { foo: 'bar', 'hub.foo': 'hub.bar' })
    await publish()
    await waitFor('a delivery', () => sub.deliveriesTo(cb.path).length === 1)
  })

  test('103 re-subscribing before expiration renews: one notification, not two', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    await subscribed(atom, cb)
    assert.equal(sub.verificationsOf(cb.path).length, 2)
    await publish()
    await waitFor('a delivery', () => sub.deliveriesTo(cb.path).length >= 1)
    await sleep(500)
    assert.equal(sub.deliveriesTo(cb.path).length, 1)
  })

  test('104 unsubscription: verified with mode=unsubscribe, then no notifications', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    const r = await hubRequest(hub, { 'hub.mode': 'unsubscribe', 'hub.topic': atom, 'hub.callback': cb.url, 'hub.lease_seconds': 'ignored' })
    assert.equal(r.status, 202, r.text)
    await waitFor('the unsubscribe verification', () => sub.verificationsOf(cb.path).length === 2)
    const v = sub.verificationsOf(cb.path)[1]!
    assert.equal(v.params['hub.mode'], 'unsubscribe')
    assert.equal(v.params['hub.topic'], atom)
    await waitFor('the unsubscription to be applied', async () => !(await pendingIntent(cb.url)))
    await publish()
    await sleep(600)
    assert.equal(sub.deliveriesTo(cb.path).length, 0)
  })

  test('105/106 each topic type arrives with its own body and exact Content-Type (Atom, JSON Feed, JSON)', async () => {
    const cbs = [atom, jsonFeed, reviewsJson].map((topic) => ({ topic, cb: callback() }))
    for (const { topic, cb } of cbs) await subscribed(topic, cb)
    await publish()
    for (const { topic, cb } of cbs) {
      await waitFor(`a delivery of ${topic}`, () => sub.deliveriesTo(cb.path).length === 1)
      await assertDelivery(sub.deliveriesTo(cb.path)[0]!, topic)
    }
    const types = cbs.map(({ cb }) => sub.deliveriesTo(cb.path)[0]!.headers['content-type'])
    assert.deepEqual(types, ['application/atom+xml', 'application/feed+json', 'application/json; charset=utf-8'])
  })
})

describe('the states table', () => {
  test('none -> rejected: a plain-http callback is refused with 400 and never contacted', async () => {
    const r = await hubRequest(hub, { 'hub.mode': 'subscribe', 'hub.topic': atom, 'hub.callback': `${sub.url.replace('https:', 'http:')}/cb/plain` })
    assert.equal(r.status, 400)
    assert.match(r.text, /https/)
    await sleep(200)
    assert.equal(sub.verificationsOf('/cb/plain').length, 0)
  })

  for (const [name, answer] of [
    ['a 404', () => ({ status: 404, body: 'no' })],
    ['a 200 with another body', () => ({ status: 200, body: 'not the challenge' })],
    ['the challenge with a trailing newline', (v: Verification) => ({ status: 200, body: `${v.params['hub.challenge']}\n` })],
    ['a 302 (redirects are not followed)', () => ({ status: 302, body: '' })],
    ['a 500', () => ({ status: 500, body: '' })]
  ] as const) {
    test(`pending -> rejected: ${name} leaves no subscription`, async () => {
      const cb = callback()
      sub.onVerify = (v) => (v.path === cb.path ? answer(v) : undefined)
      try {
        const r = await hubRequest(hub, { 'hub.mode': 'subscribe', 'hub.topic': atom, 'hub.callback': cb.url })
        assert.equal(r.status, 202)
        await waitFor('the verification GET', () => sub.verificationsOf(cb.path).length === 1)
        await sleep(200)
        await publish()
        await sleep(500)
        assert.equal(sub.deliveriesTo(cb.path).length, 0)
      } finally {
        sub.onVerify = () => undefined
      }
    })
  }

  test('active -> active: an unsubscribe whose handshake fails changes nothing', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    sub.onVerify = (v) => (v.path === cb.path && v.params['hub.mode'] === 'unsubscribe' ? { status: 404 } : undefined)
    try {
      assert.equal((await hubRequest(hub, { 'hub.mode': 'unsubscribe', 'hub.topic': atom, 'hub.callback': cb.url })).status, 202)
      await waitFor('the unsubscribe verification', () => sub.verificationsOf(cb.path).length === 2)
      await waitFor('the refusal to be applied', async () => !(await pendingIntent(cb.url)))
      await publish()
      await waitFor('a delivery', () => sub.deliveriesTo(cb.path).length === 1)
    } finally {
      sub.onVerify = () => undefined
    }
  })

  test('active -> removed: 3 consecutive failed deliveries remove it and tell the subscriber (hub.mode=denied)', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    sub.onDeliver = (d) => (d.path === cb.path ? { status: 500 } : undefined)
    try {
      await publish()
      await waitFor('the denial notice', () => sub.verificationsOf(cb.path).some((v) => v.params['hub.mode'] === 'denied'), 5000)
      const denied = sub.verificationsOf(cb.path).find((v) => v.params['hub.mode'] === 'denied')!
      assert.equal(denied.params['hub.topic'], atom)
      assert.match(denied.params['hub.reason']!, /3 consecutive/)
      assert.equal(sub.deliveriesTo(cb.path).length, 3)
      await publish()
      await sleep(600)
      assert.equal(sub.deliveriesTo(cb.path).length, 3, 'no attempts after removal')
    } finally {
      sub.onDeliver = () => undefined
    }
  })
})

describe('subscriptions', () => {
  test('202 comes at once, before the verification is answered', async () => {
    const cb = callback()
    sub.onVerify = (v) => (v.path === cb.path ? { status: 200, body: v.params['hub.challenge'], delayMs: 1500 } : undefined)
    try {
      const started = Date.now()
      const r = await hubRequest(hub, { 'hub.mode': 'subscribe', 'hub.topic': atom, 'hub.callback': cb.url })
      assert.equal(r.status, 202)
      assert.match(r.text, /Accepted/)
      assert.ok(Date.now() - started < 1000, 'the answer does not wait for verification')
      await waitFor('the verification GET', () => sub.verificationsOf(cb.path).length === 1)
    } finally {
      sub.onVerify = () => undefined
    }
  })

  test('the callback\'s own query string is kept in the verification and the deliveries', async () => {
    const cb = callback('?user=7&list=a%20b')
    await subscribed(atom, cb)
    const v = sub.verificationsOf(cb.path)[0]!
    assert.equal(v.params.user, '7')
    assert.equal(v.params.list, 'a b')
    await publish()
    await waitFor('a delivery', () => sub.deliveriesTo(`${cb.path}?user=7&list=a%20b`).length === 1)
  })

  test('leases are clamped to [min, max] and sent in the verification', async () => {
    const a = callback()
    const b = callback()
    await subscribed(atom, a, { 'hub.lease_seconds': '999999999' })
    await subscribed(atom, b, { 'hub.lease_seconds': '7200' })
    assert.equal(sub.verificationsOf(a.path)[0]!.params['hub.lease_seconds'], '2592000')
    assert.equal(sub.verificationsOf(b.path)[0]!.params['hub.lease_seconds'], '7200')
  })

  test('an expired lease gets no notifications and is purged', async () => {
    const cb = callback()
    await subscribed(jsonFeed, cb, { 'hub.lease_seconds': '1' })
    await sleep(1200)
    await publish()
    await sleep(600)
    assert.equal(sub.deliveriesTo(cb.path).length, 0)
    // The purge runs on the hub's own schedule; it is counted once it has.
    const expired = async () => (await get(`${svc.url}/api/websub/stats`)).json().topics.find((t: { topic: string }) => t.topic === jsonFeed).removals.expired
    await waitFor('the expired subscription purged', async () => (await expired()) >= 1, 5000)
  })

  test('a failed re-verification leaves the subscription as it was (its secret too); a verified one replaces the secret', async () => {
    const cb = callback()
    await subscribed(atom, cb, { 'hub.secret': 'first-secret' })
    sub.onVerify = (v) => (v.path === cb.path ? { status: 404 } : undefined)
    await hubRequest(hub, { 'hub.mode': 'subscribe', 'hub.topic': atom, 'hub.callback': cb.url, 'hub.secret': 'second-secret' })
    await waitFor('the refused verification', () => sub.verificationsOf(cb.path).length === 2)
    sub.onVerify = () => undefined
    await waitFor('the refusal to be applied', async () => !(await pendingIntent(cb.url)))
    await publish()
    await waitFor('a delivery', () => sub.deliveriesTo(cb.path).length === 1)
    await assertDelivery(sub.deliveriesTo(cb.path)[0]!, atom, 'first-secret')
    await subscribed(atom, cb, { 'hub.secret': 'third-secret' })
    await publish()
    await waitFor('a second delivery', () => sub.deliveriesTo(cb.path).length === 2)
    await assertDelivery(sub.deliveriesTo(cb.path)[1]!, atom, 'third-secret')
  })

  test('100 concurrent subscribes to one topic: 100 verified and stored', async () => {
    const cbs = Array.from({ length: 100 }, () => callback())
    const before = await activeCount(jsonFeed)
    const answers = await Promise.all(cbs.map((cb) => hubRequest(hub, { 'hub.mode': 'subscribe', 'hub.topic': jsonFeed, 'hub.callback': cb.url })))
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [202])
    await waitFor('100 verifications', () => cbs.every((cb) => sub.verificationsOf(cb.path).length === 1))
    await waitFor('100 subscriptions', async () => (await activeCount(jsonFeed)) === before + 100)
    await publish()
    await waitFor('100 deliveries', () => cbs.every((cb) => sub.deliveriesTo(cb.path).length === 1))
  })
})

describe('distribution', () => {
  test('retries on 5xx with backoff, and a success resets the failure count', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    let calls = 0
    sub.onDeliver = (d) => (d.path === cb.path && ++calls <= 2 ? { status: 503 } : undefined)
    try {
      await publish()
      await waitFor('three attempts', () => sub.deliveriesTo(cb.path).length === 3, 5000)
      const [a, b, c] = sub.deliveriesTo(cb.path)
      assert.ok(b!.at - a!.at >= 140 && c!.at - b!.at >= 290, 'waits of 150 and 300 ms between attempts')
      calls = 0
      await publish()
      // The next version's first attempt fails too (a third failure in a row, had the success not reset the count).
      await waitFor('the first attempt at the next version', () => sub.deliveriesTo(cb.path).length === 4, 5000)
      calls = 10 // from now on every attempt succeeds
      await waitFor('the next version', () => sub.deliveriesTo(cb.path).length >= 5, 5000)
      await sleep(600)
      assert.equal(sub.verificationsOf(cb.path).filter((v) => v.params['hub.mode'] === 'denied').length, 0, 'still subscribed: the success reset the count')
    } finally {
      sub.onDeliver = () => undefined
    }
  })

  test('a callback that answers too slowly is a failed attempt, retried', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    let calls = 0
    sub.onDeliver = (d) => (d.path === cb.path && ++calls === 1 ? { status: 204, delayMs: 1500 } : undefined)
    try {
      await publish()
      await waitFor('a second attempt', () => sub.deliveriesTo(cb.path).length === 2, 5000)
      const stats = (await get(`${svc.url}/api/websub/stats`)).json()
      assert.ok(stats.topics.find((t: { topic: string }) => t.topic === atom).delivery_failures >= 1)
    } finally {
      sub.onDeliver = () => undefined
    }
  })

  test('410 Gone removes the subscription at once', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    sub.onDeliver = (d) => (d.path === cb.path ? { status: 410 } : undefined)
    try {
      await publish()
      await waitFor('a delivery', () => sub.deliveriesTo(cb.path).length === 1)
      await publish()
      await sleep(700)
      assert.equal(sub.deliveriesTo(cb.path).length, 1, 'no retry, no later notifications')
      assert.equal(sub.verificationsOf(cb.path).filter((v) => v.params['hub.mode'] === 'denied').length, 0)
    } finally {
      sub.onDeliver = () => undefined
    }
  })

  test('coalescing: a subscriber behind on several changes gets one POST with the newest content', async () => {
    const cb = callback()
    await subscribed(atom, cb)
    let latest: string | undefined
    const acknowledged: Delivery[] = []
    // The first attempt is held open while two more changes land; after that only the newest content is accepted.
    sub.onDeliver = (d) => {
      if (d.path !== cb.path) return undefined
      if (latest === undefined) return { status: 503, delayMs: 600 }
      if (d.body.toString() !== latest) return { status: 503 }
      acknowledged.push(d)
      return undefined
    }
    try {
      await publish()
      await waitFor('the first attempt', () => sub.deliveriesTo(cb.path).length === 1)
      await publish()
      await publish()
      latest = (await get(`${svc.url}/feed.xml`)).text
      await waitFor('a successful delivery', () => acknowledged.length === 1, 5000)
      await sleep(600)
      assert.equal(sub.deliveriesTo(cb.path).length, 2, 'the failed attempt, then one POST for the three changes')
      assert.equal(acknowledged.length, 1)
    } finally {
      sub.onDeliver = () => undefined
    }
  })

  test('duplicate-free: one POST per subscriber per version, identical bytes for every subscriber', async () => {
    const cbs = Array.from({ length: 5 }, () => callback())
    for (const cb of cbs) await subscribed(jsonFeed, cb)
    for (let round = 1; round <= 2; round++) {
      await publish()
      await waitFor(`round ${round}`, () => cbs.every((cb) => sub.deliveriesTo(cb.path).length === round))
      const bodies = new Set(cbs.map((cb) => sub.deliveriesTo(cb.path)[round - 1]!.body.toString('base64')))
      assert.equal(bodies.size, 1)
    }
    await sleep(600)
    for (const cb of cbs) assert.equal(sub.deliveriesTo(cb.path).length, 2)
  })
})

describe('requests the hub refuses', () => {
  const form = (fields: Record<string, string>) => ({ 'hub.mode': 'subscribe', 'hub.topic': atom, 'hub.callback': `${sub.url}/cb/refused`, ...fields })

  test('400 in plain text, every problem at once', async () => {
    const r = await hubRequest(hub, 'hub.mode=follow&hub.topic=https://elsewhere.example/feed&hub.lease_seconds=1.5')
    assert.equal(r.status, 400)
    assert.match(String(r.headers['content-type']), /^text\/plain/)
    for (const problem of [/hub\.mode/, /hub\.callback is required/, /hub\.lease_seconds/]) assert.match(r.text, problem)
  })

  for (const [name, fields, reason] of [
    ['an unknown topic', { 'hub.topic': `${'https://reviews.test'}/other.xml` }, /one of this hub's topics/],
    ['a secret of 200 bytes', { 'hub.secret': 's'.repeat(200) }, /200 bytes/],
    ['a negative lease', { 'hub.lease_seconds': '-5' }, /hub\.lease_seconds/],
    ['a callback over 2048 characters', { 'hub.callback': `${sub?.url ?? 'https://x'}/${'a'.repeat(2100)}` }, /2048/],
    ['a callback with credentials', { 'hub.callback': 'https://user:pw@127.0.0.1/cb' }, /credentials/],
    ['a relative callback', { 'hub.callback': '/cb' }, /absolute URL/]
  ] as const) {
    test(`400 for ${name}`, async () => {
      const r = await hubRequest(hub, form(fields as Record<string, string>))
      assert.equal(r.status, 400, r.text)
      assert.match(r.text, reason)
    })
  }

  test('400 for a field given twice', async () => {
    const r = await hubRequest(hub, `hub.mode=subscribe&hub.topic=${encodeURIComponent(atom)}&hub.callback=https://127.0.0.1/a&hub.callback=https://127.0.0.1/b`)
    assert.equal(r.status, 400)
    assert.match(r.text, /hub\.callback is given more than once/)
  })

  test('415 for another content type, 413 for a large body, 405 for GET', async () => {
    const json = await request('POST', hub, { 'content-type': 'application/json' }, JSON.stringify(form({})))
    assert.equal(json.status, 415)
    assert.match(json.text, /x-www-form-urlencoded/)
    const big = await hubRequest(hub, { ...form({}), pad: 'x'.repeat(20_000) })
    assert.equal(big.status, 413)
    const g = await get(hub)
    assert.equal(g.status, 405)
    assert.equal(g.headers.allow, 'POST')
  })

  test('429 past the subscribe rate of one client, 403 past the subscriptions of one callback host', async () => {
    const limited = await startTestService({ env: { ...HUB_ENV(pki.caFile), WEBSUB_RATE_PER_MIN: '3', WEBSUB_MAX_PER_HOST: '1' } })
    try {
      const url = `${limited.url}/api/websub/hub`
      const first = { 'hub.mode': 'subscribe', 'hub.topic': atom, 'hub.callback': `${sub.url}/cb/limited-1` }
      assert.equal((await hubRequest(url, first)).status, 202)
      await waitFor('the subscription', async () => (await activeCount(atom, limited)) === 1)
      const second = await hubRequest(url, { ...first, 'hub.callback': `${sub.url}/cb/limited-2` })
      assert.equal(second.status, 403)
      assert.match(second.text, /127\.0\.0\.1 already has 1 subscriptions/)
      assert.equal((await hubRequest(url, first)).status, 202, 'a renewal is not a new subscription')
      const third = await hubRequest(url, first)
      assert.equal(third.status, 429)
      assert.match(third.text, /at most 3 a minute/)
    } finally {
      await limited.stop()
    }
  })
})

describe('the subscribe rate behind a proxy', () => {
  const forwarded = (url: string, client: string, n: number) =>
    hubRequest(url, { 'hub.mode': 'subscribe', 'hub.topic': atom, 'hub.callback': `${sub.url}/cb/proxied-${client}-${n}` }, { 'x-forwarded-for': client })

  test('with TRUST_PROXY the client is the forwarded address (each its own limit); without it X-Forwarded-For is ignored', async () => {
    for (const [trust, separate] of [['127.0.0.1', true], ['', false]] as const) {
      const s = await startTestService({ env: { ...HUB_ENV(pki.caFile), WEBSUB_RATE_PER_MIN: '2', TRUST_PROXY: trust } })
      try {
        const url = `${s.url}/api/websub/hub`
        for (const n of [1, 2]) assert.equal((await forwarded(url, '203.0.113.7', n)).status, 202)
        assert.equal((await forwarded(url, '203.0.113.7', 3)).status, 429, 'the third from one client')
        assert.equal((await forwarded(url, '198.51.100.9', 1)).status, separate ? 202 : 429, `TRUST_PROXY=${trust}`)
      } finally {
        await s.stop()
      }
    }
  })
})

describe('the stats endpoint', () => {
  test('counts verifications, deliveries, failures, removals and the last delivery per topic', async () => {
    await sleep(1100)
    const r = await get(`${svc.url}/api/websub/stats`)
    assert.equal(r.status, 200)
    assert.equal(r.headers['cache-control'], 'no-store')
    const stats = r.json()
    assert.equal(stats.data_version, svc.service.holder.current.version)
    const a = stats.topics.find((t: { topic: string }) => t.topic === atom)
    assert.ok(a.verifications_succeeded > 5 && a.verifications_failed >= 5 && a.deliveries > 5 && a.delivery_failures > 3)
    assert.ok(a.removals.failures >= 1 && a.removals.gone >= 1 && a.removals.unsubscribed >= 1)
    assert.ok(Date.now() - Date.parse(a.last_delivery_at) < 120_000)
  })
})

describe('SSRF: a hub with the default settings refuses callbacks on this machine', () => {
  test('every spelling of a loopback callback is a 400, and the subscriber listening there hears nothing', async () => {
    const guarded = await startTestService({ env: { WEBSUB_EXTRA_CA_FILE: pki.caFile } })
    const trap = await new Subscriber().start(pki)
    try {
      const port = new URL(trap.url).port
      const spellings = ['127.0.0.1', 'localhost', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '0.0.0.0']
      for (const host of spellings) {
        const r = await hubRequest(`${guarded.url}/api/websub/hub`, { 'hub.mode': 'subscribe', 'hub.topic': `${guarded.baseUrl}/feed.xml`, 'hub.callback': `https://${host}:${port}/trap` })
        assert.equal(r.status, 400, `${host}: ${r.text}`)
        assert.match(r.text, /(loopback|unspecified) address; only public addresses may receive callbacks/, host)
      }
      await sleep(300)
      assert.deepEqual([trap.verifications.length, trap.deliveries.length], [0, 0], 'nothing reached the trap')
    } finally {
      await trap.stop()
      await guarded.stop()
    }
  })
})
