import type { McpSessionRecord } from './types.js'

/** What an adapter that caches session records hands out: the caller's own copy, so a change to it cannot reach the cache. */
export const copySessionRecord = (r: McpSessionRecord): McpSessionRecord => ({ ...r, subscriptions: [...r.subscriptions] })
