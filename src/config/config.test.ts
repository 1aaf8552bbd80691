import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from './index.js'

test('defaults follow the documented settings', () => {
  const c = loadConfig({})
  assert.deepEqual([c.port, c.host, c.databaseUrl, c.logLevel], [8080, '0.0.0.0', 'sqlite:./var/reviews.db', 'info'])
  assert.equal(c.urls.base, 'http://localhost:8080')
  assert.equal(c.urls.hub, 'http://localhost:8080/api/websub/hub')
})

test('BASE_URL drives every absolute URL, without a trailing slash', () => {
  const c = loadConfig({ BASE_URL: 'https://reviews.example.org/' })
  assert.equal(c.urls.feedAtom, 'https://reviews.example.org/feed.xml')
  assert.equal(c.urls.reviewPermalink('a b'), 'https://reviews.example.org/reviews/a%20b')
})

test('invalid settings stop the start with every problem named', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty', BASE_URL: 'ftp://x', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' }),
    (e: unknown) => e instanceof ConfigError && ['PORT', 'BASE_URL', 'DATABASE_URL', 'LOG_LEVEL'].every((k) => e.message.includes(k))
  )
})

test('MCP: the public origin (and its loopback twins) plus MCP_ALLOWED_ORIGINS may call /mcp; sessions are bounded', () => {
  const local = loadConfig({})
  assert.deepEqual(local.mcp, {
    allowedOrigins: ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080'],
    maxSessions: 1000,
    sessionIdleMs: 1_800_000
  })
  const c = loadConfig({ BASE_URL: 'https://reviews.example.org', MCP_ALLOWED_ORIGINS: 'https://app.example/, http://localhost:6274', MCP_MAX_SESSIONS: '5', MCP_SESSION_IDLE_S: '60' })
  assert.deepEqual(c.mcp, { allowedOrigins: ['https://reviews.example.org', 'https://app.example', 'http://localhost:6274'], maxSessions: 5, sessionIdleMs: 60_000 })
  assert.throws(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'not a url', MCP_MAX_SESSIONS: '0' }), (e: unknown) => e instanceof ConfigError && /MCP_ALLOWED_ORIGINS/.test(e.message) && /MCP_MAX_SESSIONS/.test(e.message))
})
