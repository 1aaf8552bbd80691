import type { ComponentChildren } from 'preact'
import { plural } from '../format.js'

/** The sections of the guide, in order: the table of contents and each heading come from here. */
export const SECTIONS = [
  { id: 'datasets', title: 'Datasets' },
  { id: 'feeds', title: 'Feeds' },
  { id: 'search', title: 'Search' },
  { id: 'since', title: 'Reviews since a day' },
  { id: 'mcp', title: 'MCP server for AI assistants' },
  { id: 'websub', title: 'WebSub: changes pushed to you' }
] as const
export type SectionId = (typeof SECTIONS)[number]['id']

export function Section({ id, children }: { id: SectionId; children: ComponentChildren }) {
  const title = SECTIONS.find((s) => s.id === id)!.title
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  )
}

/** A reference table: a header row of column names, then the rows given, whose first cell is a row header. */
export function DocsTable({ columns, children }: { columns: string[]; children: ComponentChildren }) {
  return (
    <table class="docs">
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col">{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  )
}

/** A code block; focusable, because a block wider than the screen scrolls and keyboard users must reach it. */
export function Code({ children }: { children: string }) {
  return (
    <pre tabindex={0}>
      <code>{children}</code>
    </pre>
  )
}

/** JSON with each key of the object, and each item of an array in it, on a line of its own: short and readable. */
export function jsonOneItemALine(value: Record<string, unknown>): string {
  const line = ([key, v]: [string, unknown]) =>
    Array.isArray(v) ? `  ${JSON.stringify(key)}: [\n${v.map((item) => `    ${JSON.stringify(item)}`).join(',\n')}\n  ]` : `  ${JSON.stringify(key)}: ${JSON.stringify(v)}`
  return `{\n${Object.entries(value).map(line).join(',\n')}\n}`
}


const UNITS = [
  { seconds: 86_400, name: 'day' },
  { seconds: 3600, name: 'hour' },
  { seconds: 60, name: 'minute' },
  { seconds: 1, name: 'second' }
]

/** 864000 -> "10 days", 90 -> "90 seconds": the largest unit that says it exactly. */
export function duration(seconds: number): string {
  const unit = UNITS.find((u) => seconds >= u.seconds && seconds % u.seconds === 0)
  return unit ? plural(seconds / unit.seconds, unit.name) : `${seconds.toLocaleString('en-US')} seconds`
}

/** One shell word: as is when it is plainly safe, otherwise single-quoted. */
export function shellArg(value: string): string {
  return /^[\w./:=@%+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}
