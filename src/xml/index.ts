/**
 * Minimal XML writing for the Atom feed. Written here because the libraries tried mishandle user text: `feed` wraps
 * it in CDATA as type="html", and xmlbuilder2 leaves "&amp;"-like sequences unescaped, altering what reviewers wrote.
 */

/** Characters XML 1.0 forbids (C0 controls except tab/LF/CR, U+FFFE/FFFF, lone surrogates) are dropped. */
const ILLEGAL = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

export function escapeXml(value: string): string {
  return value.replace(ILLEGAL, '').replace(/[&<>"]/g, (c) => ESCAPES[c]!)
}

export type Attributes = Record<string, string>

function open(name: string, attrs: Attributes): string {
  return `<${name}${Object.entries(attrs).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('')}`
}

/** An element with text content (escaped) or, when `text` is undefined, an empty element. */
export function element(name: string, attrs: Attributes = {}, text?: string): string {
  return text === undefined ? `${open(name, attrs)}/>` : `${open(name, attrs)}>${escapeXml(text)}</${name}>`
}

/** An element whose children are already-serialised XML. */
export function container(name: string, attrs: Attributes, children: string[]): string {
  return `${open(name, attrs)}>${children.join('')}</${name}>`
}
