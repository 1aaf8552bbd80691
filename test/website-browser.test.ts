import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { Browser, Frame, Page } from 'playwright-core'
import { freePort, launchBrowser, openPage, screenshot, seriousA11yViolations } from './helpers/browser.js'
import { dataset, review } from './helpers/fixtures.js'
import { get } from './helpers/http.js'
import { startTestService, type TestService } from './helpers/service.js'

/**
 * The badge and the widget where they are meant to be: on another site. A second local origin (localhost on its own
 * port, where the service is 127.0.0.1 on another) serves a page made of the snippets the guide prints, and a real
 * Chromium shows it.
 */

const LONG = `${'Evie sat with us for as long as we needed and explained every choice without hurrying us. '.repeat(5)}Thank you.`
const REVIEWS = [
  review({ id: 'b1', rating: 5, date: '2024-06-05', text: 'Nos trataron con mucho cariño y respeto en el peor momento de nuestra vida.', language: 'es' }),
  review({ id: 'b2', rating: 4, date: '2024-06-04', text: LONG, owner_reply: { text: 'Thank you.', date: '2024-06-06' } }),
  review({ id: 'b3', rating: 2, date: '2024-06-03', text: 'The paperwork took weeks, and nobody called us back about the death certificates.' }),
  review({ id: 'b4', rating: 5, date: '2024-06-02', text: null })
]

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e]!)

/** The service on a port known in advance, so BASE_URL (and every snippet) points where the browser can go. */
async function startForBrowser(env: Record<string, string> = {}): Promise<TestService> {
  const port = await freePort()
  return startTestService({ data: dataset(REVIEWS), env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, ...env } })
}

/** The badge and widget snippets exactly as the guide prints them for copying. */
async function snippets(s: TestService): Promise<{ badge: string; widget: string }> {
  const guide = (await get(`${s.url}/developers`, { accept: 'text/html' })).text
  const blocks = [...guide.matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescapeHtml(m[1]!))
  return { badge: blocks.find((b) => b.includes('/badge.svg'))!, widget: blocks.find((b) => b.startsWith('<iframe'))! }
}

/** Another site: a page with the snippets pasted in, the badge also on a dark band (with ?theme=dark). */
async function hostSite(s: TestService, port = 0): Promise<{ url: string; server: Server }> {
  const { badge, widget } = await snippets(s)
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quiet Oak Funeral Home</title><style>body{margin:0;padding:8px;font:16px system-ui}.dark{background:#1f1d1a;padding:8px}</style></head>
<body><main><h1>Quiet Oak Funeral Home</h1><p>${badge}</p><div class="dark">${badge.replace('/badge.svg"', '/badge.svg?theme=dark"')}</div>
<h2>What families say</h2>${widget.replace('<iframe ', '<iframe id="widget" ')}</main></body></html>`
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page))
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok))
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server }
}

async function widgetFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('#widget')
  const frame = (await handle.contentFrame())!
  await frame.waitForLoadState('load')
  return frame
}

describe('the badge and the widget on another site, in a real browser', () => {
  let s: TestService
  let host: { url: string; server: Server }
  let browser: Browser
  before(async () => {
    ;[s, browser] = await Promise.all([startForBrowser(), launchBrowser()])
    host = await hostSite(s)
  })
  after(async () => {
    host?.server.close()
    await browser?.close()
    await s?.stop()
  })

  for (const width of [320, 800]) {
    test(`at ${width} px the widget renders inside the other site's page, fits its width, and the badges show`, async () => {
      const { page, offsite } = await openPage(browser, host.url, { width, height: 900 })
      const frame = await widgetFrame(page)
      const data = (await get(`${s.url}/reviews.json`)).json()
      assert.equal(await frame.locator('h1 a').evaluate((a) => a.firstChild!.textContent), data.business.name)
      assert.equal(await frame.locator('article').count(), 3)
      const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      assert.ok(overflow <= 0, `the widget is ${overflow}px wider than its frame`)
      const below = await frame.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)
      assert.ok(below <= 0, `three reviews (one cut short) need ${below}px more than the snippet's height`)
      const links = await frame.locator('a').evaluateAll((as) => as.map((a) => [a.getAttribute('target'), a.getAttribute('rel')]))
      assert.ok(links.length >= 5 && links.every(([t, r]) => t === '_blank' && r === 'noopener'))
      for (const img of await page.locator('img').all()) {
        const drawn = await img.evaluate((el: HTMLImageElement) => ({ complete: el.complete, width: el.naturalWidth, height: el.naturalHeight }))
        assert.ok(drawn.complete && drawn.width > 100 && drawn.height === 28, `badge drawn: ${JSON.stringify(drawn)}`)
      }
      assert.deepEqual(offsite, [])
      await screenshot(page, `widget-on-another-site-${width}`)
      await page.context().close()
    })
  }

  test('axe-core finds no serious or critical violation in the widget, in light, dark and auto (dark system setting)', async () => {
    for (const theme of ['light', 'dark', 'auto']) {
      const { page } = await openPage(browser, `${s.url}/embed?limit=4&theme=${theme}`, { width: 320, height: 900 })
      if (theme === 'auto') await page.emulateMedia({ colorScheme: 'dark' })
      assert.deepEqual(await seriousA11yViolations(page), [], theme)
      if (theme !== 'light') await screenshot(page, `widget-${theme}-320`)
      await page.context().close()
    }
  })

  test("the guide shows both live: its policy allows this site's own frames and images", async () => {
    const { page } = await openPage(browser, `${s.url}/developers`, { width: 1000 })
    const handle = await page.waitForSelector('iframe.widget')
    await handle.scrollIntoViewIfNeeded() // loading="lazy": a frame out of view is not loaded
    const preview = await handle.contentFrame()
    await preview!.locator('article').first().waitFor()
    assert.equal(await preview!.locator('article').count(), 3)
    assert.ok(await page.locator('section[aria-labelledby="website"] img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100))
    await page.context().close()
  })

  test('the badge parses as SVG, and its text is the rating and count of /reviews.json', async () => {
    const { page } = await openPage(browser, `${s.url}/badge.svg`, { width: 400, height: 100 })
    const data = (await get(`${s.url}/reviews.json`)).json()
    // Parsed from the bytes the service sends (the badge's own policy rightly lets it fetch nothing), and drawn as opened.
    const svg = (await get(`${s.url}/badge.svg`)).text
    const parsed = await page.evaluate((svg) => {
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml')
      return {
        root: doc.documentElement.localName,
        errors: doc.getElementsByTagName('parsererror').length,
        texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
        title: doc.querySelector('title')?.textContent,
        drawn: document.querySelector('svg')!.getBoundingClientRect().width
      }
    }, svg)
    assert.deepEqual(parsed.root, 'svg')
    assert.equal(parsed.errors, 0)
    assert.deepEqual(parsed.texts, [data.aggregate_rating.rating_value.toFixed(1), '★★★★★', `${data.aggregate_rating.review_count} reviews`])
    assert.equal(parsed.title, `${data.business.name}: rated ${data.aggregate_rating.rating_value.toFixed(1)} out of 5`)
    assert.ok(parsed.drawn > 100)
    await page.context().close()
  })
})

describe('EMBED_ALLOWED_ORIGINS in a real browser', () => {
  let s: TestService
  let allowed: { url: string; server: Server }
  let other: { url: string; server: Server }
  let browser: Browser
  before(async () => {
    const [allowedPort, otherPort] = [await freePort(), await freePort()]
    ;[s, browser] = await Promise.all([startForBrowser({ EMBED_ALLOWED_ORIGINS: `http://localhost:${allowedPort}` }), launchBrowser()])
    ;[allowed, other] = await Promise.all([hostSite(s, allowedPort), hostSite(s, otherPort)])
  })
  after(async () => {
    allowed?.server.close()
    other?.server.close()
    await browser?.close()
    await s?.stop()
  })

  test('a site in the list shows the widget; the browser refuses it on any other site', async () => {
    const ok = await openPage(browser, allowed.url, { width: 800 })
    assert.equal(await (await widgetFrame(ok.page)).locator('article').count(), 3)
    await ok.page.context().close()

    const refused = await openPage(browser, other.url, { width: 800 })
    const messages: string[] = []
    refused.page.on('console', (m) => void messages.push(m.text()))
    await refused.page.reload()
    const frame = await widgetFrame(refused.page)
    assert.equal(await frame.locator('article').count(), 0, 'no review is shown on a site outside the list')
    assert.ok(!frame.url().startsWith(s.url) || (await frame.locator('main h1 a').count()) === 0)
    assert.ok(messages.some((m) => /frame-ancestors/.test(m)), `the browser says why: ${messages.join(' | ')}`)
    await screenshot(refused.page, 'widget-refused-on-another-site')
    await refused.page.context().close()
  })
})
