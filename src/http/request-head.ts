import type { ConditionalFields } from './conditional.js'

/**
 * The head of a request the fast path (fast-path.ts) may answer itself: a GET or HEAD over HTTP/1.1 that carries no
 * body, with only the fields a prebuilt representation depends on read out.
 */
export interface SimpleHead {
  method: 'GET' | 'HEAD'
  /** The request target as sent (the fast path answers only targets it knows exactly, so nothing is decoded). */
  target: string
  acceptEncoding: string | undefined
  conditional: ConditionalFields
  requestId: string | undefined
  /** Where the next request starts: just past the empty line that ends this head. */
  end: number
}

/**
 * A complete request head, in a strict form (RFC 9112): `GET|HEAD SP target SP HTTP/1.1 CRLF`, then fields of a
 * token name, a colon and a value of visible ASCII, spaces and tabs, each ended by CRLF, then an empty line. No bare
 * CR or LF, no line folding, no bytes past ASCII. The `y` flag anchors it where the previous request ended.
 */
const HEAD = /(GET|HEAD) (\/[!-~]*) HTTP\/1\.1\r\n(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t\x20-\x7e]*\r\n){0,100}\r\n/y

/** The longest head taken here; Node's own limit for a whole head is 16 KiB. */
const MAX_HEAD = 8192

/** Fields that frame a body, change the connection or ask for something else than a plain answer. */
const REFUSED = ['content-length', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer', 'http2-settings']

/**
 * The field names looked at (lower case), by length: every other field is passed over without copying its name or
 * value (a head is read on every request of the fast path).
 */
const KNOWN = new Map<number, string[]>()
for (const name of ['host', 'accept-encoding', 'if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'x-request-id', 'connection', ...REFUSED]) {
  KNOWN.set(name.length, [...(KNOWN.get(name.length) ?? []), name])
}

/**
 * Reads the request head that starts at `start` in `text` (bytes as latin1), or returns null when there is none the
 * fast path may take: incomplete, longer than MAX_HEAD, in any other form than the strict one above, without exactly
 * one Host, with a field that frames a body or is not keep-alive, or with one of the fields read here twice. Null is
 * never an error: node:http reads such a request from the same byte, so the two parsers never disagree on where a
 * request ends (no request smuggling between them), and every malformed request gets node:http's answer.
 */
export function readSimpleHead(text: string, start: number): SimpleHead | null {
  HEAD.lastIndex = start
  const m = HEAD.exec(text)
  if (!m || HEAD.lastIndex - start > MAX_HEAD) return null
  const head: SimpleHead = { method: m[1] as 'GET' | 'HEAD', target: m[2]!, acceptEncoding: undefined, conditional: {}, requestId: undefined, end: HEAD.lastIndex }
  // The fields run from after the request line ("GET /x HTTP/1.1\r\n") to the empty line.
  const last = head.end - 2
  let hosts = 0
  for (let at = start + m[1]!.length + m[2]!.length + 12; at < last; ) {
    const colon = text.indexOf(':', at)
    const eol = text.indexOf('\r\n', colon)
    const name = knownName(text, at, colon - at)
    at = eol + 2
    if (name === undefined) continue
    if (name === 'host') hosts++
    else if (!take(head, name, text.slice(colon + 1, eol).trim())) return null
  }
  return hosts === 1 ? head : null
}

/** The lower-case name of the field whose name is text[at, at + length), when it is one of KNOWN. */
function knownName(text: string, at: number, length: number): string | undefined {
  const candidates = KNOWN.get(length)
  if (candidates === undefined) return undefined
  next: for (const name of candidates) {
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(at + i)
      // ASCII upper case to lower case; the head's form allows nothing else that could change.
      if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== name.charCodeAt(i)) continue next
    }
    return name
  }
  return undefined
}

/** Records a known field in `head`; false when the request is not one for the fast path. */
function take(head: SimpleHead, name: string, value: string): boolean {
  switch (name) {
    case 'accept-encoding':
      if (head.acceptEncoding !== undefined) return false
      head.acceptEncoding = value
      return true
    case 'if-none-match':
    case 'if-modified-since':
    case 'if-match':
    case 'if-unmodified-since':
      if (head.conditional[name] !== undefined) return false
      head.conditional[name] = value
      return true
    case 'x-request-id':
      if (head.requestId !== undefined) return false
      head.requestId = value
      return true
    case 'connection':
      return value.toLowerCase() === 'keep-alive'
    default:
      return false
  }
}
