import { HUB_SECRET_MAX_BYTES } from '../../domain/index.js'
import { plural } from '../format.js'
import type { SiteData } from '../site.js'
import { Code, DocsTable, duration, Section, shellArg } from './blocks.js'
import type { DeveloperDocsFacts, WebSubSettings } from './facts.js'

export function WebSub({ site, facts }: { site: SiteData; facts: DeveloperDocsFacts }) {
  const { urls } = site
  return (
    <Section id="websub">
      <p>
        This site is its own <a href="https://www.w3.org/TR/websub/">WebSub</a> hub, at <code>{urls.hub}</code>. Subscribe an HTTPS callback to a topic and,
        whenever the reviews change, the hub POSTs the topic's full new content to it.
      </p>
      <h3>Topics</h3>
      <DocsTable columns={['Topic', 'Content-Type of a delivery']}>
        {facts.topics.map((t) => (
          <tr>
            <th scope="row">
              <code>{t.url}</code>
            </th>
            <td>
              <code>{t.contentType}</code>
            </td>
          </tr>
        ))}
      </DocsTable>
      <p>
        A GET of each topic names the hub in its <code>Link</code> header (<code>rel="hub"</code> and <code>rel="self"</code>), and both feeds name it inside.
      </p>
      <Subscribing site={site} facts={facts} />
      <Deliveries facts={facts} />
      <Failures site={site} settings={facts.websub} />
    </Section>
  )
}

/** An example callback; example.com names are reserved for documentation. */
const CALLBACK = 'https://subscriber.example.com/websub/reviews'

function Subscribing({ site, facts }: { site: SiteData; facts: DeveloperDocsFacts }) {
  const { urls } = site
  const s = facts.websub
  const week = Math.min(Math.max(7 * 86_400, s.leaseMinS), s.leaseMaxS)
  const topic = facts.topics[0]?.url ?? urls.feedAtom
  return (
    <>
      <h3>Subscribing</h3>
      <p>
        POST a form (<code>application/x-www-form-urlencoded</code>) to the hub. <code>hub.lease_seconds</code> and <code>hub.secret</code> are optional; with
        a secret, every delivery is signed.
      </p>
      <Code>
        {[
          'secret=$(openssl rand -hex 32)   # keep it: your callback checks signatures with it',
          `curl -i ${shellArg(urls.hub)} \\`,
          '  --data-urlencode hub.mode=subscribe \\',
          `  --data-urlencode ${shellArg(`hub.topic=${topic}`)} \\`,
          `  --data-urlencode ${shellArg(`hub.callback=${CALLBACK}`)} \\`,
          `  --data-urlencode hub.lease_seconds=${week} \\`,
          '  --data-urlencode "hub.secret=$secret"'
        ].join('\n')}
      </Code>
      <p>
        A valid request is answered <code>202 Accepted</code> at once; the hub then checks with your callback. A refusal is plain text, one problem per line:{' '}
        <code>400</code> for a missing or bad field, an unknown topic, a secret of {HUB_SECRET_MAX_BYTES + 1} bytes or more, or a callback that is not <code>https://</code>, holds
        credentials or a fragment, is longer than {s.maxCallbackLength.toLocaleString('en-US')} characters or points at a private or loopback address;{' '}
        <code>403</code> when the callback's host already has {plural(s.maxPerHost, 'subscription')}; <code>413</code> for a body over{' '}
        {s.maxRequestBytes.toLocaleString('en-US')} bytes; <code>415</code> for anything but a form; <code>429</code> past {s.ratePerMinute} requests a
        minute from one address.
      </p>
      <h3>Verification of intent</h3>
      <p>
        The hub sends a GET to the callback, adding <code>hub.mode</code>, <code>hub.topic</code>, <code>hub.challenge</code> and{' '}
        <code>hub.lease_seconds</code> (the lease granted) to its query string:
      </p>
      <Code>{`GET ${callbackWith({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.challenge': 'kM3qZ8vT1xWb6nR0yLp4sD9fGh2jC5eA', 'hub.lease_seconds': String(week) })}`}</Code>
      <p>
        Answer with a <code>2xx</code> status and exactly the challenge as the body: no newline, no JSON. Anything else, a redirect included, and the
        subscription is not made (an existing one stays as it was).
      </p>
    </>
  )
}

function callbackWith(params: Record<string, string>): string {
  return `${new URL(CALLBACK).pathname}?${new URLSearchParams(params)}`
}

function Deliveries({ facts }: { facts: DeveloperDocsFacts }) {
  const topic = facts.topics[0]
  return (
    <>
      <h3>What arrives</h3>
      <p>
        After every change of the reviews, one POST per subscription with the topic's full current content, exactly as a GET of the topic returns it. If you
        fall behind on several changes you get only the newest.
      </p>
      {topic && (
        <Code>
          {[
            `POST ${new URL(CALLBACK).pathname}`,
            `Content-Type: ${topic.contentType}`,
            `Link: ${topic.link}`,
            'X-Hub-Signature: sha256=<HMAC-SHA256 of the body, keyed with your hub.secret, in lowercase hex>',
            '',
            '<the whole topic document>'
          ].join('\n')}
        </Code>
      )}
      <p>
        <code>X-Hub-Signature</code> is sent only when you gave a secret. Check it over the exact bytes received, and answer <code>2xx</code> whatever it says:
        a delivery whose signature does not match is not from this hub, so drop it, but a non-2xx answer would count as a failed delivery. A subscriber in
        Node.js, to run behind your HTTPS server:
      </p>
      <Code>{SUBSCRIBER_SNIPPET}</Code>
    </>
  )
}

/** A complete callback: it answers verification and checks signatures (test/developers.test.ts runs it). */
const SUBSCRIBER_SNIPPET = `// subscriber.mjs: WEBSUB_SECRET=<your hub.secret> node subscriber.mjs
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'

const secret = process.env.WEBSUB_SECRET

createServer(async (req, res) => {
  if (req.method === 'GET') {
    // Verification of intent: echo the challenge, and nothing else.
    // (A removal notice, hub.mode=denied, has no challenge.)
    const url = new URL(req.url, 'http://callback')
    res.end(url.searchParams.get('hub.challenge') ?? '')
    return
  }
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const body = Buffer.concat(chunks)
  res.writeHead(204).end()
  const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(body).digest('hex'))
  const given = Buffer.from(req.headers['x-hub-signature'] ?? '')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return
  console.log('new content:', req.headers['content-type'], body.length, 'bytes')
}).listen(process.env.PORT ?? 8000)`

function Failures({ site, settings: s }: { site: SiteData; settings: WebSubSettings }) {
  const attempts = s.retryDelaysMs.length + 1
  return (
    <>
      <h3>Failures and removal</h3>
      <ul>
        <li>
          A delivery fails when the answer is not <code>2xx</code> or does not come within {duration(s.timeoutMs / 1000)}, or on a network or TLS error. It
          is tried again after {s.retryDelaysMs.map((ms) => duration(ms / 1000)).join(', then after ')}. Any success resets the count.
        </li>
        <li>
          After {attempts} failed attempts in a row the subscription is removed, and the hub tells the callback with a GET carrying{' '}
          <code>hub.mode=denied</code> and a <code>hub.reason</code>. Subscribe again to resume.
        </li>
        <li>
          An answer of <code>410 Gone</code> removes the subscription at once.
        </li>
      </ul>
      <h3>Leases and unsubscribing</h3>
      <ul>
        <li>
          A subscription lasts {duration(s.leaseDefaultS)} unless you ask otherwise; a requested <code>hub.lease_seconds</code> is kept between{' '}
          {duration(s.leaseMinS)} and {duration(s.leaseMaxS)}. The lease granted is the <code>hub.lease_seconds</code> of the verification request.
        </li>
        <li>
          Subscribe again before the lease runs out: the renewal replaces the lease and the secret, and never makes a second subscription. An expired
          subscription receives nothing.
        </li>
        <li>
          To stop, send the same form with <code>hub.mode=unsubscribe</code>; it is verified the same way.
        </li>
        <li>
          The hub's counters (subscriptions, deliveries, failures, removals per topic) are at <code>{site.urls.base}/api/websub/stats</code>.
        </li>
      </ul>
    </>
  )
}

