import { existsSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { z } from 'zod'
import { HttpUrl } from '../domain/index.js'
import type { StoreOptions } from '../store/index.js'
import type { HubSettings } from '../websub/index.js'

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])

const EnvShape = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  BASE_URL: HttpUrl.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must be sqlite:<path> or postgres://...')
    .default('sqlite:./var/reviews.db'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  WORKERS: z
    .string()
    .regex(/^(auto|[1-9][0-9]{0,2})$/, 'must be a whole number from 1 to 999, or auto (one per available core)')
    .default('1')
    .transform((v) => (v === 'auto' ? availableParallelism() : Number(v))),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((a) => a.trim()).filter(Boolean))
    .pipe(
      z.union(
        [z.tuple([z.string().regex(/^[0-9]{1,2}$/)]).transform(([hops]) => Number(hops)), z.array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]))],
        { error: 'must be proxy addresses or CIDR ranges, comma-separated, or a number of hops' }
      )
    ),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  LOG_LEVEL: LogLevel.default('info'),
  LOG_REQUEST_SAMPLE: z.coerce.number().int().min(0).max(1_000_000).default(100),
  LOG_REQUEST_MAX_PER_SECOND: z.coerce.number().int().min(1).max(1_000_000).default(10),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'must be a comma-separated list of http(s) origins' }))),
  MCP_MAX_SESSIONS: z.coerce.number().int().min(1).max(100_000).default(1000),
  EMBED_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine(isOrigin, 'must be a comma-separated list of origins such as https://www.example.org (scheme, host and port only)'))),
  MCP_SESSION_IDLE_S: z.coerce.number().int().min(1).max(86_400).default(1800),
  WEBSUB_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+){0,9}\s*$/, 'must be 1 to 10 comma-separated waits in milliseconds')
    .default('60000,300000')
    .transform((v) => v.split(',').map(Number)),
  WEBSUB_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  WEBSUB_LEASE_DEFAULT_S: z.coerce.number().int().min(1).default(864_000),
  WEBSUB_LEASE_MIN_S: z.coerce.number().int().min(1).default(3600),
  WEBSUB_LEASE_MAX_S: z.coerce.number().int().min(1).default(2_592_000),
  WEBSUB_ALLOW_PRIVATE_CALLBACKS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  WEBSUB_MAX_CALLBACK_LENGTH: z.coerce.number().int().min(64).max(65_536).default(2048),
  WEBSUB_MAX_PER_HOST: z.coerce.number().int().min(1).default(1000),
  WEBSUB_RATE_PER_MIN: z.coerce.number().int().min(1).default(300),
  WEBSUB_MAX_REQUEST_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(16_384),
  WEBSUB_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(64),
  WEBSUB_CONNECTIONS_PER_HOST: z.coerce.number().int().min(1).max(1024).default(8),
  WEBSUB_QUEUE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  WEBSUB_CLAIM_LEASE_MS: z.coerce.number().int().min(300).max(300_000).default(15_000),
  WEBSUB_EXTRA_CA_FILE: z.string().min(1).optional()
})

/** The environment variables the service reads: deployment files are checked against this list. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvShape.shape)

const Env = EnvShape.superRefine((e, ctx) => {
  if (!(e.WEBSUB_LEASE_MIN_S <= e.WEBSUB_LEASE_DEFAULT_S && e.WEBSUB_LEASE_DEFAULT_S <= e.WEBSUB_LEASE_MAX_S)) {
    ctx.addIssue({ code: 'custom', path: ['WEBSUB_LEASE_DEFAULT_S'], message: 'must lie between WEBSUB_LEASE_MIN_S and WEBSUB_LEASE_MAX_S' })
  }
  if (e.WEBSUB_CONNECTIONS_PER_HOST > e.WEBSUB_CONCURRENCY) {
    ctx.addIssue({ code: 'custom', path: ['WEBSUB_CONNECTIONS_PER_HOST'], message: 'must not exceed WEBSUB_CONCURRENCY' })
  }
  if (e.WEBSUB_EXTRA_CA_FILE && !existsSync(e.WEBSUB_EXTRA_CA_FILE)) {
    ctx.addIssue({ code: 'custom', path: ['WEBSUB_EXTRA_CA_FILE'], message: 'no such file' })
  }
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
  search: string
  /** Reviews since a day: append `/YYYY-MM-DD`. */
  since: string
  reviewPermalink(id: string): string
}

export interface Config {
  port: number
  host: string
  databaseUrl: string
  /** Worker processes on one port (node:cluster); 1 runs the service in this process. */
  workers: number
  /**
   * The proxies whose X-Forwarded-For is believed (addresses or CIDR ranges), or how many hops to trust: the client
   * address that per-client limits count. Nothing by default: a client cannot pick its address with a header.
   */
  trustProxy: string[] | number
  /** After SIGTERM, how long the node keeps serving with /readyz at 503 before it stops accepting connections. */
  shutdownGraceMs: number
  store: StoreOptions
  logLevel: z.output<typeof LogLevel>
  /** At info, one request in this many is logged (besides every server error and slow request); 0 logs none. */
  logRequestSample: number
  /** At most this many of those sampled lines a second; the next line says how many were skipped. */
  logRequestMaxPerSecond: number
  /** The Prometheus listener: null when METRICS_PORT=0. */
  metrics: { port: number; host: string } | null
  urls: Urls
  embed: {
    /** Sites that may show /embed in a frame, besides this one; empty: any site (the data is public, the page has no actions). */
    allowedOrigins: string[]
  }
  mcp: {
    /** Browser origins allowed on /mcp: the public origin, its loopback twins, and MCP_ALLOWED_ORIGINS. */
    allowedOrigins: string[]
    maxSessions: number
    sessionIdleMs: number
  }
  websub: HubSettings & {
    /** Subscription requests one client may send per minute. */
    ratePerMinute: number
    maxRequestBytes: number
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
    search: `${b}/api/reviews/search`,
    since: `${b}/api/reviews/since`,
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
    workers: e.WORKERS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    trustProxy: e.TRUST_PROXY,
    store: { poolSize: e.DATABASE_POOL_SIZE, statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS, pollIntervalMs: e.POLL_INTERVAL_MS },
    logLevel: e.LOG_LEVEL,
    logRequestSample: e.LOG_REQUEST_SAMPLE,
    logRequestMaxPerSecond: e.LOG_REQUEST_MAX_PER_SECOND,
    metrics: e.METRICS_PORT === 0 ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    urls,
    embed: { allowedOrigins: e.EMBED_ALLOWED_ORIGINS.map((o) => new URL(o).origin) },
    mcp: {
      allowedOrigins: [...new Set([...ownOrigins(urls.base), ...e.MCP_ALLOWED_ORIGINS.map((o) => new URL(o).origin)])],
      maxSessions: e.MCP_MAX_SESSIONS,
      sessionIdleMs: e.MCP_SESSION_IDLE_S * 1000
    },
    websub: {
      leaseDefaultS: e.WEBSUB_LEASE_DEFAULT_S,
      leaseMinS: e.WEBSUB_LEASE_MIN_S,
      leaseMaxS: e.WEBSUB_LEASE_MAX_S,
      retryDelaysMs: e.WEBSUB_RETRY_DELAYS_MS,
      timeoutMs: e.WEBSUB_TIMEOUT_MS,
      allowPrivateCallbacks: e.WEBSUB_ALLOW_PRIVATE_CALLBACKS === 'true',
      maxCallbackLength: e.WEBSUB_MAX_CALLBACK_LENGTH,
      maxPerHost: e.WEBSUB_MAX_PER_HOST,
      concurrency: e.WEBSUB_CONCURRENCY,
      connectionsPerHost: e.WEBSUB_CONNECTIONS_PER_HOST,
      queueTimeoutMs: e.WEBSUB_QUEUE_TIMEOUT_MS,
      claimLeaseMs: e.WEBSUB_CLAIM_LEASE_MS,
      extraCa: e.WEBSUB_EXTRA_CA_FILE ? readFileSync(e.WEBSUB_EXTRA_CA_FILE, 'utf8') : undefined,
      ratePerMinute: e.WEBSUB_RATE_PER_MIN,
      maxRequestBytes: e.WEBSUB_MAX_REQUEST_BYTES
    }
  }
}

/** An http(s) origin: a URL that is nothing but scheme, host and port (a trailing slash allowed). */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  return /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']

/** The public origin; when it is a loopback one, the same port under the other loopback names too. */
function ownOrigins(base: string): string[] {
  const url = new URL(base)
  if (!LOOPBACK.includes(url.hostname)) return [url.origin]
  return LOOPBACK.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`)
}
