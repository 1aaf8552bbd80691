import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

/** Debian's Chromium, installed by scripts/ensure-test-tools.sh (playwright's own browser download cannot work here). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Screenshots and other browser artefacts; ignored by git. */
export const TEST_OUTPUT = join('test-output', 'browser')

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without the networking switches Chromium keeps calling Google's hosts, which this sandbox refuses.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']
  })
}

export interface OpenedPage {
  page: Page
  /** Every request the page tried to send off the loopback interface (each was aborted). */
  offsite: string[]
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Opens a page with JavaScript on or off; any request leaving loopback is aborted and recorded, so "offline" is proven. */
export async function openPage(browser: Browser, url: string, o: { width?: number; height?: number; javaScript?: boolean } = {}): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: o.width ?? 1280, height: o.height ?? 900 }, javaScriptEnabled: o.javaScript ?? true })
  const offsite: string[] = []
  await context.route('**/*', (route) => {
    const target = new URL(route.request().url())
    if (target.protocol === 'data:' || LOOPBACK.has(target.hostname)) return route.continue()
    offsite.push(target.href)
    return route.abort('blockedbyclient')
  })
  const page = await context.newPage()
  const response = await page.goto(url, { waitUntil: 'load' })
  if (!response || response.status() !== 200) throw new Error(`GET ${url} answered ${response?.status()}`)
  return { page, offsite }
}

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: unknown[] }[]
}

/** Runs axe-core (from npm, injected into the page) and returns the serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol rather than a <script> tag, which the pages' CSP rightly refuses.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'))
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe
    return axe.run()
  })
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(TEST_OUTPUT, { recursive: true })
  const file = join(TEST_OUTPUT, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  return file
}

/** A free loopback port, so a browser test can give the service a BASE_URL the browser can actually follow. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
