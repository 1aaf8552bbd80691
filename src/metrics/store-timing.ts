import type { Store } from '../store/index.js'
import type { Metrics } from './metrics.js'

/** The parts of a store whose methods are timed, and the prefix of their operation names. */
const PARTS = { '': null, subscriptions: 'subscriptions.', sessions: 'sessions.', rates: 'rates.' } as const

/**
 * The same store, with every asynchronous operation timed and its failures counted (`operation` is the method's
 * name, e.g. `subscriptions.claimDue`: a fixed set). Nothing else changes: callers cannot tell the difference.
 */
export function timedStore(store: Store, metrics: Metrics): Store {
  const parts = new Map<string, object>()
  for (const [part, prefix] of Object.entries(PARTS)) {
    if (prefix) parts.set(part, timed((store as unknown as Record<string, object>)[part]!, prefix, metrics))
  }
  return timed(store, '', metrics, parts) as Store
}

function timed<T extends object>(target: T, prefix: string, metrics: Metrics, parts = new Map<string, object>()): T {
  const wrapped = new Map<PropertyKey, unknown>()
  return new Proxy(target, {
    get(obj, key, receiver) {
      if (typeof key === 'string' && parts.has(key)) return parts.get(key)
      const value = Reflect.get(obj, key, receiver)
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'watch' || key === 'constructor') return value
      let fn = wrapped.get(key)
      if (!fn) wrapped.set(key, (fn = timeCalls(value.bind(obj), `${prefix}${key}`, metrics)))
      return fn
    }
  })
}

function timeCalls(fn: (...args: unknown[]) => unknown, operation: string, metrics: Metrics) {
  return (...args: unknown[]) => {
    const started = performance.now()
    const done = (failed: boolean) => metrics.storeOperation(operation, (performance.now() - started) / 1000, failed)
    const result = fn(...args)
    if (!(result instanceof Promise)) return result
    return result.then(
      (value) => {
        done(false)
        return value
      },
      (err: unknown) => {
        done(true)
        throw err
      }
    )
  }
}
