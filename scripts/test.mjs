#!/usr/bin/env node
// The one test command (npm test, and .ci/run): make sure the system tools exist, type-check, then run every
// *.test.ts under src/ and test/ with the Node test runner. Node 20's --test has no glob support, so files are listed here.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : findTests(p)
    return e.name.endsWith('.test.ts') ? [p] : []
  })
}

const only = process.argv.slice(2)
const files = only.length ? only : [...findTests('src'), ...findTests('test')].sort()

const tools = spawnSync('bash', ['scripts/ensure-test-tools.sh'], { stdio: 'inherit' })
if (tools.status !== 0) {
  console.error('could not install the system tools the tests need (jing, libxml2-utils, python3-feedparser, openssl, chromium)')
  process.exit(1)
}

const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'], { stdio: 'inherit' })
if (tsc.status !== 0) {
  console.error('type check failed')
  process.exit(1)
}

const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } }
)
process.exit(run.status ?? 1)
