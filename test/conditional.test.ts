import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { evaluatePreconditions, parseHttpDate, type ConditionalFields, type Outcome } from '../src/http/conditional.js'

/**
 * The evaluator as a pure unit, against a model of RFC 9110 section 13.2.2 written over the meaning of a request
 * (which tags it lists, which date it names) rather than its text: fast-check writes the text in every spelling the
 * grammar allows, and in spellings it does not.
 */

const OURS = '"k4V1hZcX9pQ2rT7wYb3nM8sD5fG0jL6a"'
const OTHER = '"k4V1hZcX9pQ2rT7wYb3nM8sD5fG0jL6a-gzip"'
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']
const isGetOrHead = (m: string) => m === 'GET' || m === 'HEAD'

type Member = 'ours' | 'ours-weak' | 'other' | 'other-weak' | 'garbage' | 'empty'
interface TagField {
  star: boolean
  members: Member[]
  text: string
}
interface DateField {
  /** ms since the epoch when the text is an HTTP-date, otherwise null. */
  time: number | null
  text: string
}
interface Request {
  method: string
  ifMatch?: TagField
  ifNoneMatch?: TagField
  ifModifiedSince?: DateField
  ifUnmodifiedSince?: DateField
}

/** 13.2.2, step by step, over the meaning of each field. */
function model(r: Request, lastModified: Date): Outcome {
  const modified = Math.floor(lastModified.getTime() / 1000) * 1000
  if (r.ifMatch) {
    if (!r.ifMatch.star && !r.ifMatch.members.includes('ours')) return 'failed'
  } else if (r.ifUnmodifiedSince?.time != null && modified > r.ifUnmodifiedSince.time) return 'failed'
  if (r.ifNoneMatch) {
    const match = r.ifNoneMatch.star || r.ifNoneMatch.members.includes('ours') || r.ifNoneMatch.members.includes('ours-weak')
    if (!match) return 'perform'
    return isGetOrHead(r.method) ? 'not-modified' : 'failed'
  }
  if (isGetOrHead(r.method) && r.ifModifiedSince?.time != null && modified <= r.ifModifiedSince.time) return 'not-modified'
  return 'perform'
}

function fields(r: Request): ConditionalFields {
  return {
    'if-match': r.ifMatch?.text,
    'if-none-match': r.ifNoneMatch?.text,
    'if-modified-since': r.ifModifiedSince?.text,
    'if-unmodified-since': r.ifUnmodifiedSince?.text
  }
}

const ows = fc.constantFrom('', ' ', '  ', '\t', ' \t')
/** Members that are not entity-tags; some hold our tag in a form that must not count. */
const garbage = fc.constantFrom('abc', `w/${OURS}`, 'W/', 'W/abc', '*', `${OTHER} ${OURS}`, `${OURS}${OTHER}`, `${OURS}x`, OURS.slice(1))
/** Each well-formed member as written; an empty one is allowed by the list syntax (RFC 9110 5.6.1). */
const memberText: Record<Exclude<Member, 'garbage'>, string> = { ours: OURS, 'ours-weak': `W/${OURS}`, other: OTHER, 'other-weak': `W/${OTHER}`, empty: '' }

const member = fc.oneof(
  fc.constantFrom('ours', 'ours-weak', 'other', 'other-weak', 'empty').map((m) => ({ m: m as Member, text: memberText[m] })),
  garbage.map((text) => ({ m: 'garbage' as Member, text }))
)

const tagField: fc.Arbitrary<TagField> = fc.oneof(
  fc.tuple(ows, ows).map(([a, b]) => ({ star: true, members: [], text: `${a}*${b}` })),
  fc.array(fc.tuple(member, ows, ows), { minLength: 1, maxLength: 5 }).map((list) => {
    const text = list.map(([x, a, b]) => `${a}${x.text}${b}`).join(',')
    // A lone garbage `*` is the field value `*`.
    return { star: /^[ \t]*\*[ \t]*$/.test(text), members: list.map(([x]) => x.m), text }
  }),
  // An unclosed quote can only end the list: before another member it would swallow it.
  fc.array(member, { maxLength: 3 }).map((list) => ({ star: false, members: list.map((x) => x.m), text: [...list.map((x) => x.text), '"unclosed'].join(', ') }))
)

const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number, width = 2) => String(n).padStart(width, '0')
const clock = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`

/** The three HTTP-date formats of RFC 9110 section 5.6.7. */
const FORMATS = {
  imf: (d: Date) => d.toUTCString(),
  rfc850: (d: Date) => `${LONG_DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${pad(d.getUTCFullYear() % 100)} ${clock(d)} GMT`,
  asctime: (d: Date) => `${LONG_DAYS[d.getUTCDay()]!.slice(0, 3)} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${clock(d)} ${d.getUTCFullYear()}`
}

/** Whole seconds within 40 years of now, so a two-digit rfc850 year is unambiguous (5.6.7). */
const YEAR_MS = 365.25 * 86400_000
const second = fc.integer({ min: Math.ceil((Date.now() - 40 * YEAR_MS) / 1000), max: Math.floor((Date.now() + 40 * YEAR_MS) / 1000) }).map((s) => s * 1000)

const NOT_DATES = [
  'not a date',
  '',
  '0',
  '1',
  '2024',
  '2024-03-01',
  '2024-03-01T00:00:00Z',
  'Fri, 01 Mar 2024 00:00:00 UTC',
  'fri, 01 mar 2024 00:00:00 gmt',
  'Fri, 1 Mar 2024 00:00:00 GMT',
  'Fri, 30 Feb 2024 00:00:00 GMT',
  'Fri, 01 Mar 2024 24:00:00 GMT',
  'Fri, 01 Mar 2024 00:60:00 GMT',
  'Fri, 01 Mar 24 00:00:00 GMT',
  'Fri, 01 Mar 2024 00:00:00 GMT, Sat, 02 Mar 2024 00:00:00 GMT',
  'Fri Mar 01 2024 00:00:00 GMT+0000 (Coordinated Universal Time)',
  '1709251200000'
]

/** A date relative to the representation's: the same second, before or after it, in any format; or no date at all. */
function dateField(lastModified: Date): fc.Arbitrary<DateField> {
  const lm = Math.floor(lastModified.getTime() / 1000) * 1000
  const at = fc.oneof(fc.constant(lm), fc.integer({ min: -3 * 86400, max: 3 * 86400 }).map((s) => lm + s * 1000), second)
  return fc.oneof(
    fc.tuple(at, fc.constantFrom<keyof typeof FORMATS>('imf', 'rfc850', 'asctime')).map(([time, f]) => ({ time, text: FORMATS[f](new Date(time)) })),
    fc.constantFrom(...NOT_DATES).map((text) => ({ time: null, text }))
  )
}

const lastModified = second.chain((s) => fc.integer({ min: 0, max: 999 }).map((ms) => new Date(s + ms)))

const requestFor = (lm: Date): fc.Arbitrary<Request> =>
  fc.record(
    {
      method: fc.constantFrom(...METHODS),
      ifMatch: tagField,
      ifNoneMatch: tagField,
      ifModifiedSince: dateField(lm),
      ifUnmodifiedSince: dateField(lm)
    },
    { requiredKeys: ['method'] }
  )

const cases = lastModified.chain((lm) => requestFor(lm).map((r) => ({ lm, r })))

describe('evaluatePreconditions against RFC 9110 13.2.2 (property-based)', () => {
  test('agrees with the model for any mix of preconditions, spellings and methods', () => {
    fc.assert(
      fc.property(cases, ({ lm, r }) => {
        assert.equal(evaluatePreconditions(r.method, fields(r), OURS, lm), model(r, lm), JSON.stringify(fields(r)))
      }),
      { numRuns: 20_000 }
    )
  })

  test('Cache-Control and Pragma never change the outcome', () => {
    const directives = fc.constantFrom('no-cache', 'max-age=0', 'no-store', 'no-cache, no-store, must-revalidate', 'only-if-cached')
    fc.assert(
      fc.property(cases, directives, ({ lm, r }, cc) => {
        const withCaching = { ...fields(r), 'cache-control': cc, pragma: 'no-cache' }
        assert.equal(evaluatePreconditions(r.method, withCaching, OURS, lm), evaluatePreconditions(r.method, fields(r), OURS, lm))
      })
    )
  })

  test('a request without preconditions is always performed', () => {
    fc.assert(fc.property(fc.constantFrom(...METHODS), lastModified, (m, lm) => assert.equal(evaluatePreconditions(m, {}, OURS, lm), 'perform')))
  })

  test('garbage in any field never throws', () => {
    const any = fc.option(fc.string({ unit: 'binary', maxLength: 60 }), { nil: undefined })
    fc.assert(
      fc.property(fc.constantFrom(...METHODS), any, any, any, any, lastModified, (m, a, b, c, d, lm) => {
        evaluatePreconditions(m, { 'if-match': a, 'if-none-match': b, 'if-modified-since': c, 'if-unmodified-since': d }, OURS, lm)
      })
    )
  })
})

describe('parseHttpDate (RFC 9110 5.6.7)', () => {
  test('reads all three formats back to the second', () => {
    fc.assert(
      fc.property(second, (t) => {
        for (const format of Object.values(FORMATS)) assert.equal(parseHttpDate(format(new Date(t))), t, format(new Date(t)))
      })
    )
  })

  test("the RFC's own examples are one instant", () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37)
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), t)
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), t)
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), t)
  })

  test('anything else is no date', () => {
    for (const text of NOT_DATES) assert.ok(Number.isNaN(parseHttpDate(text)), text)
  })

  test('a two-digit year more than 50 years ahead is in the past century', () => {
    const year = new Date().getUTCFullYear()
    const ahead = (year + 51) % 100
    assert.equal(new Date(parseHttpDate(`Monday, 01-Jan-${pad(ahead)} 00:00:00 GMT`)).getUTCFullYear(), year + 51 - 100)
  })
})

describe('evaluatePreconditions: the cases by name', () => {
  const lm = new Date('2024-03-01T12:00:00.750Z')
  const sent = lm.toUTCString()
  const before = new Date(lm.getTime() - 1000).toUTCString()
  const run = (f: ConditionalFields, method = 'GET') => evaluatePreconditions(method, f, OURS, lm)

  test('If-None-Match: our tag, weak, in a list with spaces, or * gives 304 to GET and HEAD, 412 to others', () => {
    for (const inm of [OURS, `W/${OURS}`, `"a", ${OURS}`, `"a" ,\t${OURS} , "b"`, '*']) {
      assert.equal(run({ 'if-none-match': inm }), 'not-modified', inm)
      assert.equal(run({ 'if-none-match': inm }, 'HEAD'), 'not-modified', inm)
      assert.equal(run({ 'if-none-match': inm }, 'POST'), 'failed', inm)
    }
    for (const inm of [OTHER, `w/${OURS}`, `"a" ${OURS}`, '*, "a"', '', 'garbage']) assert.equal(run({ 'if-none-match': inm }), 'perform', inm)
  })

  test('If-Modified-Since: 304 when the date is the Last-Modified sent or later, even ahead of our clock', () => {
    assert.equal(run({ 'if-modified-since': sent }), 'not-modified')
    assert.equal(run({ 'if-modified-since': new Date(Date.now() + 86400_000).toUTCString() }), 'not-modified')
    assert.equal(run({ 'if-modified-since': before }), 'perform')
    assert.equal(run({ 'if-modified-since': 'yesterday' }), 'perform')
    assert.equal(run({ 'if-modified-since': sent }, 'POST'), 'perform', 'only GET and HEAD')
  })

  test('If-None-Match wins over If-Modified-Since, both ways', () => {
    assert.equal(run({ 'if-none-match': OTHER, 'if-modified-since': sent }), 'perform')
    assert.equal(run({ 'if-none-match': OURS, 'if-modified-since': before }), 'not-modified')
  })

  test('If-Match compares strongly and comes first; If-Unmodified-Since only counts without it', () => {
    assert.equal(run({ 'if-match': OURS }), 'perform')
    assert.equal(run({ 'if-match': '*' }), 'perform')
    assert.equal(run({ 'if-match': `W/${OURS}` }), 'failed')
    assert.equal(run({ 'if-match': OTHER, 'if-none-match': OURS }), 'failed')
    assert.equal(run({ 'if-match': OURS, 'if-none-match': OURS }), 'not-modified')
    assert.equal(run({ 'if-unmodified-since': before }), 'failed')
    assert.equal(run({ 'if-unmodified-since': sent }), 'perform')
    assert.equal(run({ 'if-unmodified-since': 'garbage' }), 'perform')
    assert.equal(run({ 'if-match': OURS, 'if-unmodified-since': before }), 'perform')
  })
})
