/** What the page needs besides the data: facts about the running service, gathered by the HTTP area. */
export interface DeveloperDocsFacts {
  /** The MCP tools, as tools/list describes them. */
  tools: readonly { name: string; title: string; description: string }[]
  /** Reviews in each feed. */
  feedSize: number
  /** The WebSub topics with the headers a delivery of each carries. */
  topics: readonly { url: string; contentType: string; link: string }[]
  websub: WebSubSettings
  /** Sites allowed to frame the widget besides this one (EMBED_ALLOWED_ORIGINS); empty: any site. */
  embedAllowedOrigins: readonly string[]
}

export interface WebSubSettings {
  leaseDefaultS: number
  leaseMinS: number
  leaseMaxS: number
  retryDelaysMs: readonly number[]
  timeoutMs: number
  maxPerHost: number
  maxCallbackLength: number
  ratePerMinute: number
  maxRequestBytes: number
}
