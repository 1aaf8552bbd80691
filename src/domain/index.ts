/** Domain: the zod schemas every other area takes its shapes, validation and documentation from. */
export * from './primitives.js'
export * from './business.js'
export * from './review.js'
export * from './documents.js'
export * from './search.js'
export * from './errors.js'
export * from './feed.js'
export * from './insights.js'
