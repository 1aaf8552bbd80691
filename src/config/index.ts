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
  POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(500)
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
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    pollIntervalMs: e.POLL_INTERVAL_MS,
    urls: buildUrls(e.BASE_URL ?? `http://localhost:${e.PORT}`)
  }
}
