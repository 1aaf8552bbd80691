import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
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
