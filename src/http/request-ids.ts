import { randomBytes } from 'node:crypto'

/** An X-Request-Id a client or proxy sent is kept when it looks like an id (UUIDs, trace ids); otherwise one is made. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Request ids: a random prefix per process and a counter, unique across nodes and cheap on the hot path. */
export class RequestIds {
  private readonly prefix = randomBytes(6).toString('hex')
  private made = 0

  /** The id the client sent when it looks like one, else a new one. */
  for(sent: string | string[] | undefined): string {
    return typeof sent === 'string' && CLIENT_ID.test(sent) ? sent : `${this.prefix}-${(++this.made).toString(36)}`
  }
}
