import { HubRequestForm } from '../domain/index.js'

/** A valid subscribe or unsubscribe request, before the checks that need the network or the store. */
export interface HubRequest {
  mode: 'subscribe' | 'unsubscribe'
  /** One of the hub's topic URLs, as the hub writes it. */
  topic: string
  /** Exactly as the subscriber wrote it: the hub uses this URL, query string included (section 8.3). */
  callback: string
  /** The callback's host name, for the address check and the per-host limit. */
  host: string
  /** As requested; the hub clamps it. */
  leaseSeconds: number | undefined
  secret: string | null
}

/** A refusal with its HTTP status and a plain-text reason (WebSub section 5.1.2). */
export class HubRefusal extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

const FIELDS = ['hub.mode', 'hub.topic', 'hub.callback', 'hub.lease_seconds', 'hub.secret'] as const

/**
 * Reads the form: every problem at once, one per line. Unrecognised parameters are ignored (section 5.1); a hub.*
 * field given twice is ambiguous and refused. `hub.lease_seconds` means nothing for unsubscribe and is ignored there.
 */
export function parseHubRequest(form: URLSearchParams, topicUrls: readonly string[], maxCallbackLength: number): HubRequest {
  const problems = FIELDS.filter((f) => form.getAll(f).length > 1).map((f) => `${f} is given more than once`)
  const fields = Object.fromEntries(FIELDS.flatMap((f) => (form.has(f) ? [[f, form.get(f)!]] : [])))
  if (fields['hub.mode'] === 'unsubscribe') delete fields['hub.lease_seconds']
  const parsed = HubRequestForm.safeParse(fields)
  if (!parsed.success) problems.push(...parsed.error.issues.map((i) => i.message))
  const topic = parsed.data ? knownTopic(parsed.data['hub.topic'], topicUrls) : undefined
  if (parsed.data && !topic) problems.push(`hub.topic must be one of this hub's topics: ${topicUrls.join(', ')}`)
  const callback = parsed.data ? checkCallback(parsed.data['hub.callback'], maxCallbackLength, problems) : undefined
  if (problems.length || !parsed.data || !callback || !topic) throw new HubRefusal(400, problems.join('\n'))
  const d = parsed.data
  return {
    mode: d['hub.mode'],
    topic,
    callback: d['hub.callback'],
    host: callback.hostname,
    leaseSeconds: d['hub.lease_seconds'] === undefined ? undefined : Number(d['hub.lease_seconds']),
    secret: d['hub.secret'] ?? null
  }
}

/** The topic URL compared as a URL, so "https://Reviews.Example/feed.xml" names the same topic. */
function knownTopic(value: string, topicUrls: readonly string[]): string | undefined {
  let href: string
  try {
    href = new URL(value).href
  } catch {
    return undefined
  }
  return topicUrls.find((t) => new URL(t).href === href)
}

function checkCallback(value: string, maxLength: number, problems: string[]): URL | undefined {
  if (value.length > maxLength) {
    problems.push(`hub.callback must be at most ${maxLength} characters`)
    return undefined
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    problems.push('hub.callback must be an absolute URL')
    return undefined
  }
  const before = problems.length
  if (url.protocol !== 'https:') problems.push('hub.callback must be an https URL')
  if (url.username || url.password) problems.push('hub.callback must not contain credentials')
  if (url.hash) problems.push('hub.callback must not contain a fragment')
  return problems.length === before ? url : undefined
}
