import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { LRUCache } from 'lru-cache'

/**
 * Tool results of the current snapshot, kept as their JSON, as the HTTP API keeps search pages. A repeated call costs
 * a lookup, and the transport writes the kept JSON instead of serialising the result again: the SDK hands the
 * transport a validated copy of the result, but the text block is the very string made here, so it identifies the
 * result. A result is only ever `{content: [one text block], structuredContent}` whose text is the JSON of
 * structuredContent, so its JSON can be written from the text alone.
 */
export class ToolResultCache {
  private version = -1
  private readonly results = new LRUCache<string, CallToolResult>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (r, key) => 3 * textOf(r).length + key.length + 256 })
  /** Text block -> JSON of the whole result, as bytes ready for the socket. */
  private readonly serialized = new LRUCache<string, Buffer>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (json, text) => json.length + text.length })

  get(version: number, key: string, build: () => Record<string, unknown>): CallToolResult {
    if (version !== this.version) {
      this.results.clear()
      this.version = version
    }
    let result = this.results.get(key)
    if (!result) {
      const structured = build()
      const text = JSON.stringify(structured)
      result = { content: [{ type: 'text', text }], structuredContent: structured }
      this.results.set(key, result)
      this.serialized.set(text, Buffer.from(`{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`))
    }
    return result
  }

  /** The kept JSON of a result this cache made (or a copy of one), or undefined for any other result. */
  jsonOf(result: unknown): Buffer | undefined {
    const r = result as CallToolResult
    if (!r || typeof r !== 'object' || !Array.isArray(r.content) || r.content.length !== 1 || r.structuredContent === undefined) return undefined
    const keys = Object.keys(r)
    if (keys.length !== 2) return undefined
    const block = r.content[0] as { type?: string; text?: unknown }
    return block.type === 'text' && typeof block.text === 'string' ? this.serialized.get(block.text) : undefined
  }
}

function textOf(r: CallToolResult): string {
  return (r.content[0] as { text: string }).text
}
