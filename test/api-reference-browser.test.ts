import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { freePort, launchBrowser, openPage, screenshot, seriousA11yViolations } from './helpers/browser.js'
import { startTestService, type TestService } from './helpers/service.js'

/** The operations the contract names (interface-spec.md), by operationId and path. */
const CONTRACT_OPERATIONS = [
  ['getReviews', '/reviews.json'],
  ['getInsights', '/insights.json'],
  ['getFeed', '/api/feed.json'],
  ['searchReviews', '/api/reviews/search'],
  ['getReviewsSince', '/api/reviews/since/{date}'],
  ['mcp', '/mcp']
] as const

/**
 * Reloads the page with a listener for Content-Security-Policy violations in place from the first byte (injected
 * through the DevTools protocol, which the policy does not govern), so a refused script, style or fetch fails the test.
 */
async function recordPolicyViolations(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    const seen: string[] = []
    Object.assign(window, { policyViolations: seen })
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`))
  })
  await page.reload({ waitUntil: 'load' })
}

function policyViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { policyViolations: string[] }).policyViolations)
}

describe('the API reference and the developer guide in a real browser', () => {
  let s: TestService
  let browser: Browser
  before(async () => {
    // A port known in advance, so BASE_URL (the OpenAPI servers entry) is where the browser really is.
    const port = await freePort()
    ;[s, browser] = await Promise.all([startTestService({ env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` } }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await s?.stop()
  })

  test('Swagger UI renders every operation of the contract from this server alone, within the page policy', async () => {
    const { page, offsite } = await openPage(browser, `${s.url}/developers/api`)
    await recordPolicyViolations(page)
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 })
    const listed = await page.locator('.opblock-summary').evaluateAll((blocks) =>
      blocks.map((b) => [b.querySelector('.opblock-summary-operation-id')?.textContent?.trim(), b.querySelector('.opblock-summary-path')?.getAttribute('data-path')])
    )
    for (const [operationId, path] of CONTRACT_OPERATIONS) {
      assert.ok(listed.some(([id, p]) => id === operationId && p === path), `${operationId} ${path} is listed (got ${JSON.stringify(listed)})`)
    }
    assert.deepEqual(offsite, [], 'nothing was requested from another host')
    assert.deepEqual(await policyViolations(page), [], 'the Content-Security-Policy refused nothing')
    await screenshot(page, 'api-reference')
    await page.context().close()
  })

  test('"Try it out" calls the origin of the page, even one other than BASE_URL, and shows the public curl line', async () => {
    // BASE_URL says 127.0.0.1; the page is opened as localhost, a different origin for the browser and its policy.
    const { page, offsite } = await openPage(browser, `${s.url.replace('127.0.0.1', 'localhost')}/developers/api#/Reviews/searchReviews`)
    await recordPolicyViolations(page)
    const operation = page.locator('#operations-Reviews-searchReviews')
    await operation.locator('.btn.execute').waitFor({ timeout: 20_000 })
    await operation.locator('.btn.execute').click()
    const status = operation.locator('.live-responses-table tbody .response-col_status').first()
    await status.waitFor({ timeout: 10_000 })
    assert.equal((await status.textContent())?.trim(), '200')
    assert.match((await operation.locator('.curl-command').textContent()) ?? '', new RegExp(`${s.baseUrl}/api/reviews/search`))
    assert.deepEqual(await policyViolations(page), [])
    assert.deepEqual(offsite, [])
    await page.context().close()
  })

  test('the developer guide passes axe, loads nothing from elsewhere and fits a phone', async () => {
    const { page, offsite } = await openPage(browser, `${s.url}/developers`, { width: 390, height: 844 })
    assert.deepEqual(await seriousA11yViolations(page), [])
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`)
    assert.deepEqual(offsite, [])
    await screenshot(page, 'developers-phone')
    await page.context().close()
  })
})
