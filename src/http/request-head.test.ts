import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readSimpleHead } from './request-head.js'

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`
const GET = 'GET /reviews.json HTTP/1.1'

test('a plain GET or HEAD head gives its method, target, the fields the answer depends on and where it ends', () => {
  const text = head([GET, 'Host: example.test', 'Accept-Encoding:  gzip, br ', 'If-None-Match: "a"', 'If-Modified-Since: Tue, 24 Nov 2026 10:00:00 GMT', 'X-Request-Id: abc', 'User-Agent: wrk', 'Connection: Keep-Alive'])
  const h = readSimpleHead(text, 0)
  assert.deepEqual(h, {
    method: 'GET',
    target: '/reviews.json',
    acceptEncoding: 'gzip, br',
    conditional: { 'if-none-match': '"a"', 'if-modified-since': 'Tue, 24 Nov 2026 10:00:00 GMT' },
    requestId: 'abc',
    end: text.length
  })
  assert.equal(readSimpleHead(head(['HEAD /feed.xml HTTP/1.1', 'host: x']), 0)?.method, 'HEAD')
})

test('heads are read one after another from where the previous one ended (pipelining)', () => {
  const one = head([GET, 'Host: x'])
  const two = head(['GET /feed.xml HTTP/1.1', 'Host: x', 'If-Match: *'])
  const first = readSimpleHead(one + two, 0)!
  assert.equal(first.end, one.length)
  const second = readSimpleHead(one + two, first.end)!
  assert.equal(second.target, '/feed.xml')
  assert.deepEqual(second.conditional, { 'if-match': '*' })
  assert.equal(second.end, one.length + two.length)
})

test('anything but a complete head in the strict form is left to node:http (null)', () => {
  const refused: Record<string, string> = {
    'incomplete': `${GET}\r\nHost: x\r\n`,
    'HTTP/1.0': head(['GET /reviews.json HTTP/1.0', 'Host: x']),
    'another method': head(['POST /reviews.json HTTP/1.1', 'Host: x']),
    'a lower-case method': head(['get /reviews.json HTTP/1.1', 'Host: x']),
    'an absolute target': head(['GET http://x/reviews.json HTTP/1.1', 'Host: x']),
    'a space in the target': head(['GET /reviews .json HTTP/1.1', 'Host: x']),
    'two spaces': head(['GET  /reviews.json HTTP/1.1', 'Host: x']),
    'no Host': head([GET, 'Accept: */*']),
    'two Hosts': head([GET, 'Host: x', 'Host: y']),
    'a body length': head([GET, 'Host: x', 'Content-Length: 0']),
    'chunked': head([GET, 'Host: x', 'Transfer-Encoding: chunked']),
    'an upgrade': head([GET, 'Host: x', 'Upgrade: h2c']),
    'an expectation': head([GET, 'Host: x', 'Expect: 100-continue']),
    'Connection: close': head([GET, 'Host: x', 'Connection: close']),
    'two If-None-Match': head([GET, 'Host: x', 'If-None-Match: "a"', 'If-None-Match: "b"']),
    'two Accept-Encoding': head([GET, 'Host: x', 'Accept-Encoding: gzip', 'accept-encoding: br']),
    'two request ids': head([GET, 'Host: x', 'X-Request-Id: a', 'X-Request-Id: b']),
    'a bare LF': `${GET}\nHost: x\r\n\r\n`,
    'a bare CR in a value': head([GET, 'Host: x', 'User-Agent: a\rb']),
    'a folded line': head([GET, 'Host: x', 'User-Agent: a', ' b']),
    'a space before the colon': head([GET, 'Host : x']),
    'a byte past ASCII': head([GET, 'Host: x', 'User-Agent: caf\u00e9']),
    'a NUL': head([GET, 'Host: x', 'User-Agent: a\u0000b']),
    'more than 100 fields': head([GET, 'Host: x', ...Array.from({ length: 100 }, (_, i) => `X-F${i}: 1`)]),
    'a head over 8 KiB': head([GET, 'Host: x', `Cookie: ${'a'.repeat(8200)}`])
  }
  for (const [why, text] of Object.entries(refused)) assert.equal(readSimpleHead(text, 0), null, why)
})

test('a head that starts elsewhere than where the reading starts is not taken', () => {
  assert.equal(readSimpleHead(`x${head([GET, 'Host: x'])}`, 0), null)
})
