import { randomBytes } from 'node:crypto'
import { QueueExpired } from './host-slots.js'
import type { Outbound } from './outbound.js'

/** The callback URL with hub.* parameters appended: its own query string is kept exactly as the subscriber wrote it. */
export function withParams(callback: string, params: Record<string, string>): string {
  return `${callback}${callback.includes('?') ? '&' : '?'}${new URLSearchParams(params).toString()}`
}

export interface VerificationResult {
  ok: boolean
  /** Why it failed, for the log. */
  reason?: string
}

/**
 * Verification of intent (WebSub section 5.3): a GET with a fresh single-use challenge; only a 2xx whose body is
 * exactly the challenge confirms. `leaseSeconds` is sent for subscribe, as the spec requires. A GET that never got a
 * connection (QueueExpired) is not an answer: it is thrown, for the caller to try again.
 */
export async function verifyIntent(out: Outbound, mode: 'subscribe' | 'unsubscribe', topic: string, callback: string, leaseSeconds: number): Promise<VerificationResult> {
  const challenge = randomBytes(32).toString('base64url')
  const params: Record<string, string> = { 'hub.mode': mode, 'hub.topic': topic, 'hub.challenge': challenge }
  if (mode === 'subscribe') params['hub.lease_seconds'] = String(leaseSeconds)
  try {
    const answer = await out.get(withParams(callback, params), challenge.length)
    if (answer.status < 200 || answer.status > 299) return { ok: false, reason: `callback answered ${answer.status}` }
    if (answer.body !== challenge) return { ok: false, reason: 'callback did not echo the challenge exactly' }
    return { ok: true }
  } catch (err) {
    if (err instanceof QueueExpired) throw err
    return { ok: false, reason: describe(err) }
  }
}

/** Tells a subscriber its subscription ended (WebSub section 5.2). Best effort: nobody is told if this fails too. */
export async function sendDenied(out: Outbound, topic: string, callback: string, reason: string): Promise<void> {
  await out.get(withParams(callback, { 'hub.mode': 'denied', 'hub.topic': topic, 'hub.reason': reason }), 1024).catch(() => undefined)
}

/** A short cause for logs and counters: the message of the innermost error (undici wraps socket errors). */
export function describe(err: unknown): string {
  let e = err as { message?: string; cause?: unknown; name?: string }
  while (e?.cause) e = e.cause as typeof e
  return e?.name === 'TimeoutError' ? 'timed out' : (e?.message ?? String(err))
}
