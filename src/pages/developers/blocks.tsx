import type { ComponentChildren } from 'preact'
import { z } from 'zod'
import { plural } from '../format.js'

/** The sections of the guide, in order: the table of contents and each heading come from here. */
export const SECTIONS = [
  { id: 'datasets', title: 'Datasets' },
  { id: 'feeds', title: 'Feeds' },
  { id: 'search', title: 'Search' },
  { id: 'since', title: 'Reviews since a day' },
  { id: 'mcp', title: 'MCP server for AI assistants' },
  { id: 'websub', title: 'WebSub: changes pushed to you' },
  { id: 'website', title: 'On your website' },
  { id: 'import', title: 'Import formats' }
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

interface JsonSchemaProperty {
  type?: string
  format?: string
  enum?: unknown[]
  description?: string
  default?: unknown
  minimum?: number
  maximum?: number
  maxLength?: number
}

/** The query parameters of a schema as the validator knows them, so the table cannot drift from what the service accepts. */
export function ParameterTable({ schema }: { schema: z.ZodType }) {
  const { properties } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as { properties: Record<string, JsonSchemaProperty> }
  return (
    <DocsTable columns={['Parameter', 'Value', 'Meaning']}>
      {Object.entries(properties).map(([name, p]) => (
        <tr>
          <th scope="row">
            <code>{name}</code>
          </th>
          <td>{kindOf(p)}</td>
          <td>{p.description ?? ''}</td>
        </tr>
      ))}
    </DocsTable>
  )
}

function kindOf(p: JsonSchemaProperty): string {
  const range = p.minimum !== undefined && p.maximum !== undefined ? ` from ${p.minimum.toLocaleString('en-US')} to ${p.maximum.toLocaleString('en-US')}` : ''
  const kind = p.enum
    ? `one of ${p.enum.join(', ')}`
    : p.format === 'date'
      ? 'date, YYYY-MM-DD'
      : p.type === 'string'
        ? `text, up to ${p.maxLength} characters`
        : `${p.type}${range}`
  return p.default === undefined ? kind : `${kind}; default ${p.default}`
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
