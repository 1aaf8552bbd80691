#!/usr/bin/env node
// The one test command (npm test, and .ci/run): make sure the system tools exist, type-check and build, start a throwaway
// PostgreSQL cluster, run every *.test.ts under src/ and test/ with the Node test runner on SQLite (the store contract
// test covers PostgreSQL too; the ALONE files after the others, by themselves), then the suites that go through the
// store a second time on PostgreSQL, and stop the cluster. Node 20's --test has no glob support, so files are listed
// here.
//
//   node scripts/test.mjs                  everything
//   node scripts/test.mjs <file>...        these files (those in POSTGRES_SUITES on both stores)
import { spawn, spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startPostgres, stopOnExit } from './postgres.mjs'

/**
 * Suites that run a second time with TEST_STORE=postgres (each service or CLI process they start gets a database of
 * its own): the ones that write or read through the store, whether directly (import, WebSub, MCP sessions, the demo
 * seeding) or through the snapshot built from it (feeds, search), and the shutdown path that closes it. Not the MCP
 * conformance suite: third-party protocol checks on their own Node 22 tooling, nothing the store changes.
 */
const POSTGRES_SUITES = [
  'test/demo-data.test.ts',
  'test/feeds.test.ts',
  'test/import.test.ts',
  'test/import-google.test.ts',
  'test/import-mapped.test.ts',
  'test/mcp-fuzz.test.ts',
  'test/mcp-http.test.ts',
  'test/mcp-tools.test.ts',
  'test/search.test.ts',
  'test/shutdown.test.ts',
  'test/websub-crash.test.ts',
  'test/websub-slow-host.test.ts',
  'test/websub.test.ts'
]

/**
 * Files that time what several processes sharing this machine do (three nodes, PostgreSQL and nginx: an import served
 * by every node within 2 s), run by themselves after the rest: beside another suite's processes on two cores their
 * snapshot builds took 2 s instead of 0.9 (once in five runs), which measures the neighbour, not the service.
 */
const ALONE = ['test/cluster.test.ts']

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : findTests(p)
    return e.name.endsWith('.test.ts') ? [p] : []
  })
}

const only = process.argv.slice(2)
const files = only.length ? only : [...findTests('src'), ...findTests('test')].sort()
const postgresFiles = files.filter((f) => POSTGRES_SUITES.includes(f.replace(/^\.\//, '')))

const tools = spawnSync('bash', ['scripts/ensure-test-tools.sh'], { stdio: 'inherit' })
if (tools.status !== 0) {
  console.error('could not install the system tools the tests need (jing, libxml2-utils, python3-feedparser, openssl, chromium, postgresql, nginx, prometheus)')
  process.exit(1)
}

// Type-check everything, then build the service: the tests run `reviews-service` as its own process from dist/, as
// `npm start` does (test/helpers/processes.ts).
for (const [project, emit, failure] of [['tsconfig.json', false, 'type check failed'], ['tsconfig.build.json', true, 'build failed']]) {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, ...(emit ? [] : ['--noEmit'])], { stdio: 'inherit' })
  if (tsc.status !== 0) {
    console.error(failure)
    process.exit(1)
  }
}

const started = Date.now()
const cluster = await startPostgres()
const stopCluster = stopOnExit(cluster)
console.log(`PostgreSQL test cluster up in ${Date.now() - started} ms`)

const totals = { passed: 0, failed: 0, skipped: 0 }
const isAlone = (f) => ALONE.includes(f.replace(/^\.\//, ''))
const shared = files.filter((f) => !isAlone(f))
let status = shared.length ? await run(shared, { TEST_POSTGRES_URL: cluster.url }) : 0
for (const f of files.filter(isAlone)) {
  console.log(`\n${f}, by itself`)
  const aloneStatus = await run([f], { TEST_POSTGRES_URL: cluster.url })
  status ||= aloneStatus
}
if (postgresFiles.length) {
  console.log(`\nThe suites that go through the store, again on PostgreSQL (TEST_STORE=postgres): ${postgresFiles.length} files`)
  const postgresStatus = await run(postgresFiles, { TEST_POSTGRES_URL: cluster.url, TEST_STORE: 'postgres' })
  status ||= postgresStatus
}
stopCluster()
// Both runs together, in the one closing line CI reads.
console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(status)

/** Runs the Node test runner on `testFiles`, showing its spec output and adding its counts to the totals; resolves to its exit code. */
function run(testFiles, env) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', '--test-reporter=spec', ...testFiles], {
    stdio: ['inherit', 'pipe', 'inherit'],
    // Piped, the reporter would drop its colours; keep them for a terminal.
    env: { ...process.env, NODE_ENV: 'test', ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env }
  })
  let text = ''
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk)
    text += chunk
  })
  return new Promise((resolve) => {
    child.once('close', (code) => {
      count(text)
      resolve(code ?? 1)
    })
  })
}

/** The reporter's summary lines (ℹ pass N, ℹ fail N, ℹ skipped N), colour codes stripped. */
function count(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '')
  const n = (word) => Number(plain.match(new RegExp(`^ℹ ${word} (\\d+)$`, 'm'))?.[1] ?? 0)
  totals.passed += n('pass')
  totals.failed += n('fail')
  totals.skipped += n('skipped')
}
