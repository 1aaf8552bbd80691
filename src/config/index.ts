import { z } from 'zod'
import { HttpUrl } from '../domain/index.js'

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  BASE_URL: HttpUrl.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must be sqlite:<path> or postgres://...')
    .default('sqlite:./var/reviews.db'),
  LOG_LEVEL: LogLevel.default('info'),
  POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'must be a comma-separated list of http(s) origins' }))),
  MCP_MAX_SESSIONS: z.coerce.number().int().min(1).max(100_000).default(1000),
  MCP_SESSION_IDLE_S: z.coerce.number().int().min(1).max(86_400).default(1800)
})

export interface Urls {
  base: string
  hub: string
  reviews: string
  insights: string
  feedJson: string
  feedAtom: string
  openapi: string
  mcp: string
  reviewPermalink(id: string): string
}

export interface Config {
  port: number
  host: string
  databaseUrl: string
  logLevel: z.output<typeof LogLevel>
  /** How often a server checks the store for data written by another process. */
  pollIntervalMs: number
  urls: Urls
  mcp: {
    /** Browser origins allowed on /mcp: the public origin, its loopback twins, and MCP_ALLOWED_ORIGINS. */
    allowedOrigins: string[]
    maxSessions: number
    sessionIdleMs: number
  }
}

export function buildUrls(base: string): Urls {
  const b = base.replace(/\/+$/, '')
  return {
    base: b,
    hub: `${b}/api/websub/hub`,
    reviews: `${b}/reviews.json`,
    insights: `${b}/insights.json`,
    feedJson: `${b}/api/feed.json`,
    feedAtom: `${b}/feed.xml`,
    openapi: `${b}/openapi.json`,
    mcp: `${b}/mcp`,
    reviewPermalink: (id) => `${b}/reviews/${encodeURIComponent(id)}`
  }
}

export class ConfigError extends Error {}

/** Reads and validates the environment once, at start; nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const urls = buildUrls(e.BASE_URL ?? `http://localhost:${e.PORT}`)
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    pollIntervalMs: e.POLL_INTERVAL_MS,
    urls,
    mcp: {
      allowedOrigins: [...new Set([...ownOrigins(urls.base), ...e.MCP_ALLOWED_ORIGINS.map((o) => new URL(o).origin)])],
      maxSessions: e.MCP_MAX_SESSIONS,
      sessionIdleMs: e.MCP_SESSION_IDLE_S * 1000
    }
  }
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']

/** The public origin; when it is a loopback one, the same port under the other loopback names too. */
function ownOrigins(base: string): string[] {
  const url = new URL(base)
  if (!LOOPBACK.includes(url.hostname)) return [url.origin]
  return LOOPBACK.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`)
}
