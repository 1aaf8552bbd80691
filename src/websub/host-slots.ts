/** A request waited longer than its queue bound for a connection to its callback host; it was never sent. */
export class QueueExpired extends Error {
  constructor(host: string, ms: number) {
    super(`waited ${ms} ms for a connection to ${host} without getting one`)
  }
}

interface Waiter {
  grant(): void
  timer: NodeJS.Timeout
}

interface HostState {
  active: number
  waiting: Waiter[]
}

/**
 * Requests under way per callback host, at most as many as the connections kept to it, so a request only starts its
 * timeout once it has a connection (the HTTP client's own queue would count its waiting against the timeout). A
 * request that cannot get a connection within the queue bound fails with QueueExpired: not sent, so not a failure of
 * the subscriber. Nothing is kept for a host with no request under way or waiting.
 */
export class HostSlots {
  private readonly hosts = new Map<string, HostState>()

  constructor(
    private readonly perHost: number,
    private readonly queueMs: number
  ) {}

  /** Hosts where a new request would have to wait. */
  fullHosts(): string[] {
    return [...this.hosts].filter(([, state]) => state.active >= this.perHost).map(([host]) => host)
  }

  /** True when a new request to this host would have to wait. */
  full(host: string): boolean {
    return (this.hosts.get(host)?.active ?? 0) >= this.perHost
  }

  /** Waits for a free connection to `host`; call the returned function once the exchange is over. */
  async acquire(host: string): Promise<() => void> {
    const state = this.stateOf(host)
    if (state.active < this.perHost) {
      state.active++
    } else {
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          grant: resolve,
          timer: setTimeout(() => {
            state.waiting.splice(state.waiting.indexOf(waiter), 1)
            this.forgetIfIdle(host, state)
            reject(new QueueExpired(host, this.queueMs))
          }, this.queueMs)
        }
        state.waiting.push(waiter)
      })
    }
    let released = false
    return () => {
      if (released) return
      released = true
      this.release(host, state)
    }
  }

  private release(host: string, state: HostState): void {
    const next = state.waiting.shift()
    if (next) {
      // The slot passes straight to the next request: `active` stays the same.
      clearTimeout(next.timer)
      next.grant()
      return
    }
    state.active--
    this.forgetIfIdle(host, state)
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host)
    if (!state) this.hosts.set(host, (state = { active: 0, waiting: [] }))
    return state
  }

  private forgetIfIdle(host: string, state: HostState): void {
    if (state.active === 0 && state.waiting.length === 0) this.hosts.delete(host)
  }
}
