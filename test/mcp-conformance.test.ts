import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { startTestService, type TestService } from './helpers/service.js'

/**
 * Third-party checks against the real server: the official MCP conformance suite (0.1.16 needs Node 22, which its
 * own npm package supplies) and the MCP Inspector CLI. Both are pinned in test/mcp-tools/package-lock.json and
 * installed there on first use, apart from the project's dependencies.
 */
const TOOLS = resolve('test/mcp-tools')
const NODE_22 = join(TOOLS, 'node_modules/.bin/node')
const CONFORMANCE = join(TOOLS, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')
// Inspector CLI 1.0.3 looks for its package.json relative to the working directory, so it runs from its build folder.
const INSPECTOR_DIR = join(TOOLS, 'node_modules/@modelcontextprotocol/inspector-cli/build')
const BASELINE = resolve('test/mcp-conformance-baseline.yml')

let svc: TestService
let url: string
let out: string

function installTools(): void {
  if (existsSync(CONFORMANCE) && existsSync(NODE_22) && existsSync(INSPECTOR_DIR)) return
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefix', TOOLS], { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'] })
  assert.equal(r.status, 0, 'npm ci in test/mcp-tools failed')
}

/** The conformance suite's DNS-rebinding check needs the server's own origin (host and port) to be allowed. */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => ok(port))
    })
    s.on('error', fail)
  })
}

function run(cmd: string, args: string[], cwd = process.cwd()): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    child.on('close', (status) => ok({ status, stdout, stderr }))
  })
}

before(async () => {
  installTools()
  const port = await freePort()
  svc = await startTestService({ env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` } })
  url = `${svc.url}/mcp`
  out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'))
})
after(async () => {
  await svc?.stop()
  if (out) rmSync(out, { recursive: true, force: true })
})

/** checks.json of every scenario run so far: name -> statuses of its checks. */
function results(): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const dir of readdirSync(out)) {
    const checks = JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as { status: string }[]
    map.set(dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, ''), checks.map((c) => c.status))
  }
  return map
}

describe('MCP conformance suite 0.1.16', () => {
  test('every 2025-06-18 scenario passes except those that need the suite\'s fixtures (baseline)', async () => {
    const r = await run(NODE_22, [CONFORMANCE, 'server', '--url', url, '--spec-version', '2025-06-18', '--expected-failures', BASELINE, '-o', out])
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`)
    assert.match(r.stdout, /Baseline check passed/)
    const passed = [...results()].filter(([, s]) => s.every((x) => x !== 'FAILURE')).map(([name]) => name)
    for (const name of ['server-initialize', 'ping', 'logging-set-level', 'tools-list', 'resources-list', 'prompts-list']) assert.ok(passed.includes(name), name)
  })

  for (const scenario of ['dns-rebinding-protection', 'server-sse-multiple-streams']) {
    test(`${scenario} (a 2025-11-25 scenario that needs no fixture) passes`, async () => {
      const r = await run(NODE_22, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario])
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`)
      assert.match(r.stdout, /0 failed/)
    })
  }
})

describe('MCP Inspector CLI', () => {
  const inspector = (...args: string[]) => run(process.execPath, ['cli.js', '--cli', url, '--transport', 'http', ...args], INSPECTOR_DIR)

  test('lists the tools', async () => {
    const r = await inspector('--method', 'tools/list')
    assert.equal(r.status, 0, r.stderr)
    assert.equal(JSON.parse(r.stdout).tools.length, 9)
  })

  test('calls search_reviews', async () => {
    const r = await inspector('--method', 'tools/call', '--tool-name', 'search_reviews', '--tool-arg', 'mentions_technician=peggy', '--tool-arg', 'limit=2')
    assert.equal(r.status, 0, r.stderr)
    const result = JSON.parse(r.stdout)
    assert.equal(result.isError, undefined)
    assert.equal(result.structuredContent.returned, 2)
    assert.ok(result.structuredContent.reviews.every((x: { mentions: { technicians: string[] } }) => x.mentions.technicians.includes('Margaret Hollis')))
  })
})
