/**
 * MCP: the reviews for AI assistants over streamable HTTP (protocol 2025-06-18), on the official SDK's server.
 * Framework-free: the HTTP area routes raw Node requests here.
 */
export { McpEndpoint, type McpOptions, type McpStats } from './endpoint.js'
export type { McpObserver } from './session.js'
export { toolSummaries, type ToolSummary } from './tools.js'
