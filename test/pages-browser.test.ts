import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser, openPage, screenshot, seriousA11yViolations } from './helpers/browser.js'
import { dataset, plumberBusiness, review } from './helpers/fixtures.js'
import { startTestService, type TestService } from './helpers/service.js'

/** The service on a port known in advance, so BASE_URL (and every absolute link) points where the browser can go. */
async function startForBrowser(data?: unknown): Promise<TestService> {
  const port = await freePort()
  return startTestService({ data, env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` } })
}

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 900 }

describe('the pages in a real browser', () => {
  let s: TestService
  let browser: Browser
  before(async () => {
    ;[s, browser] = await Promise.all([startForBrowser(), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await s?.stop()
  })

  test('the front page renders with labelled charts, loads nothing from elsewhere and passes axe', async () => {
    const { page, offsite } = await openPage(browser, `${s.url}/`, DESKTOP)
    assert.equal(await page.locator('h1').textContent(), (await (await fetch(`${s.url}/reviews.json`)).json()).business.name)
    const charts = page.locator('svg.chart[role="img"]')
    assert.equal(await charts.count(), 2)
    for (const chart of await charts.all()) {
      const name = await chart.evaluate((el) => el.querySelector('title')?.textContent ?? '')
      assert.ok(name.length > 0, 'each chart has a title')
      const box = await chart.boundingBox()
      assert.ok(box && box.width > 200 && box.height > 50, 'each chart is drawn at a readable size')
    }
    assert.deepEqual(await seriousA11yViolations(page), [])
    assert.deepEqual(offsite, [])
    await screenshot(page, 'home-desktop')
    await page.context().close()
  })

  test('on a phone the page fits the screen, works without JavaScript, and is screenshotted', async () => {
    const { page, offsite } = await openPage(browser, `${s.url}/`, { ...PHONE, javaScript: false })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`)
    assert.equal(await page.locator('svg.chart').count(), 2)
    assert.deepEqual(offsite, [])
    await screenshot(page, 'home-phone')
    await page.context().close()
  })

  test('a reload revalidates the front page: the browser sends its ETag and gets 304', async () => {
    // A context without request routing (openPage routes every request): Playwright's routing turns the HTTP cache off.
    const context = await browser.newContext()
    const page = await context.newPage()
    const log = await networkLog(page)
    await page.goto(`${s.url}/`)
    const heading = await page.locator('h1').textContent()
    await page.reload()
    assert.equal(await page.locator('h1').textContent(), heading)
    const front = log().filter((e) => e.url === `${s.url}/`)
    assert.deepEqual(front.map((e) => e.status), [200, 304])
    assert.equal(front[1]!.request['if-none-match'], front[0]!.response.etag)
    assert.equal(front[1]!.request['cache-control'], 'max-age=0', 'a reload asks caches to revalidate, and the origin still answers 304')
    await context.close()
  })

  test("another site's script revalidates the dataset with fetch(): 304 with or without no-cache spelled out, 412 to a stale If-Match", async () => {
    // The front page's own policy lets no script fetch; here it stands in for any page on another origin.
    const context = await browser.newContext({ bypassCSP: true })
    const page = await context.newPage()
    await page.goto(`${s.url}/`)
    const dataset = `${s.url.replace('127.0.0.1', 'localhost')}/reviews.json`
    const statuses = await page.evaluate(async (url) => {
      const etag = (await fetch(url)).headers.get('etag')!
      const attempts: Record<string, string>[] = [
        { 'If-None-Match': etag },
        { 'If-None-Match': etag, 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
        { 'If-Match': '"not-this"' },
        { 'If-Match': etag, 'If-Unmodified-Since': new Date().toUTCString() }
      ]
      return Promise.all(attempts.map((headers) => fetch(url, { headers }).then((r) => r.status, (e: Error) => e.message)))
    }, dataset)
    assert.deepEqual(statuses, [304, 304, 412, 200])
    await context.close()
  })

  test('links lead to a review page, the review list, and both feeds', async () => {
    const { page } = await openPage(browser, `${s.url}/`, DESKTOP)
    const firstReview = page.locator('section[aria-labelledby="newest"] article.review time').first()
    await Promise.all([page.waitForURL(/\/reviews\/[^/]+$/), firstReview.click()])
    assert.match((await page.locator('h1').textContent()) ?? '', /^Review by /)
    assert.deepEqual(await seriousA11yViolations(page), [])
    await page.goBack()
    await Promise.all([page.waitForURL(/\/reviews$/), page.getByRole('link', { name: /^Read all/ }).click()])
    assert.equal(await page.locator('article.review').count(), 20)
    assert.deepEqual(await seriousA11yViolations(page), [])
    await Promise.all([page.waitForURL(/page=2$/), page.getByRole('link', { name: /Older reviews/ }).click()])
    for (const type of ['application/feed+json', 'application/atom+xml']) {
      const href = await page.locator(`link[rel="alternate"][type="${type}"]`).getAttribute('href')
      const res = await page.request.get(href!)
      assert.equal(res.status(), 200, href!)
      assert.ok(res.headers()['content-type']!.startsWith(type))
    }
    await page.context().close()
  })
})

/** One exchange as the browser's own network log (DevTools protocol) has it: the status and fields on the wire. */
interface Exchange {
  url: string
  status?: number
  request: Record<string, string>
  response: Record<string, string>
}

const lowerCased = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]))

/** The page's network log from now on. Playwright's own response events show a revalidated page as its cached 200. */
async function networkLog(page: Page): Promise<() => Exchange[]> {
  const cdp = await page.context().newCDPSession(page)
  const byId = new Map<string, Exchange>()
  const entry = (id: string) => byId.get(id) ?? byId.set(id, { url: '', request: {}, response: {} }).get(id)!
  cdp.on('Network.requestWillBeSent', (e) => void (entry(e.requestId).url = e.request.url))
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => void (entry(e.requestId).request = lowerCased(e.headers)))
  cdp.on('Network.responseReceivedExtraInfo', (e) => Object.assign(entry(e.requestId), { status: e.statusCode, response: lowerCased(e.headers) }))
  await cdp.send('Network.enable')
  return () => [...byId.values()]
}

describe('a second business in a real browser', () => {
  let s: TestService
  let browser: Browser
  before(async () => {
    const reviews = [
      review({ id: 'w1', date: '2024-05-01', text: 'Gus arrived on time and fixed the water heater. Fair price.' }),
      review({ id: 'w2', date: '2024-05-02', rating: 2, text: 'They showed up late, and the leak came back a week later.' })
    ]
    ;[s, browser] = await Promise.all([startForBrowser(dataset(reviews, plumberBusiness())), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await s?.stop()
  })

  test('renders its own business and taxonomy, accessibly', async () => {
    const { page } = await openPage(browser, `${s.url}/`, DESKTOP)
    assert.equal(await page.locator('h1').textContent(), plumberBusiness().name)
    const aspectChart = page.locator('svg.chart').nth(1)
    assert.match((await aspectChart.textContent()) ?? '', /Punctuality.*Workmanship/s)
    assert.deepEqual(await seriousA11yViolations(page), [])
    await screenshot(page, 'second-business-desktop')
    await page.context().close()
  })
})
