import { z } from 'zod'
import { Timestamp } from './primitives.js'

/** WebSub 5.1: a secret MUST be less than 200 bytes. */
export const HUB_SECRET_MAX_BYTES = 199

/**
 * A subscription request to the WebSub hub, as the form fields arrive (W3C WebSub section 5.1). Policy limits that
 * depend on configuration (callback length, lease bounds, address checks) are applied by the hub itself.
 */
export const HubRequestForm = z
  .object({
    'hub.mode': z.enum(['subscribe', 'unsubscribe'], { error: 'hub.mode must be subscribe or unsubscribe' }),
    'hub.topic': z.string({ error: 'hub.topic is required' }).min(1, 'hub.topic is required'),
    'hub.callback': z.string({ error: 'hub.callback is required' }).min(1, 'hub.callback is required'),
    'hub.lease_seconds': z
      .string()
      .regex(/^[0-9]{1,10}$/, 'hub.lease_seconds must be a positive whole number of seconds')
      .refine((v) => Number(v) > 0, 'hub.lease_seconds must be a positive whole number of seconds')
      .optional(),
    'hub.secret': z
      .string()
      .refine((v) => Buffer.byteLength(v) <= HUB_SECRET_MAX_BYTES, `hub.secret must be shorter than ${HUB_SECRET_MAX_BYTES + 1} bytes`)
      .refine((v) => v.length > 0, 'hub.secret must not be empty')
      .optional()
  })
  .meta({ id: 'HubRequest', description: 'application/x-www-form-urlencoded fields; unrecognised fields are ignored.' })
export type HubRequestForm = z.output<typeof HubRequestForm>

const Count = z.int().min(0)

export const TopicStats = z.object({
  topic: z.string(),
  active_subscriptions: Count,
  verifications_succeeded: Count,
  verifications_failed: Count,
  deliveries: Count.describe('Notifications a subscriber acknowledged with 2xx.'),
  delivery_failures: Count.describe('Attempts that ended in a non-2xx status, a timeout, or a network or TLS error.'),
  removals: z.object({
    failures: Count.describe('Removed after 3 consecutive failed attempts (the subscriber was sent hub.mode=denied).'),
    gone: Count.describe('Removed because the callback answered 410 Gone.'),
    expired: Count.describe('Leases that ran out.'),
    unsubscribed: Count
  }),
  last_delivery_at: Timestamp.nullable().describe('When a subscriber last acknowledged a notification of this topic.'),
  delivered_version: z.int().nullable().describe('The newest data version some subscriber of this topic has received.')
})

export const HubStats = z
  .object({
    data_version: z.int(),
    owed_deliveries: Count.describe('Active subscriptions that have not yet received the current content.'),
    since: Timestamp.describe('When these counters started: when the database was created. They are kept in the database, so every node of a cluster gives the same numbers.'),
    topics: z.array(TopicStats)
  })
  .meta({ id: 'HubStats' })
export type HubStats = z.output<typeof HubStats>
