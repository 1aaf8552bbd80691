import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'
import {
  AspectLookup,
  AspectResult,
  BusinessResult,
  FaqResult,
  InsightsSummaryResult,
  NoParams,
  parseOrThrow,
  Review,
  ReviewLookup,
  SearchParams,
  SearchResult,
  ServiceError,
  ServiceLookup,
  ServiceResult,
  SincePageParams,
  SincePageResult,
  TechnicianLookup,
  TechnicianResult
} from '../domain/index.js'
import * as query from '../query/index.js'
import type { Snapshot } from '../snapshot/index.js'
import { jsonSchemaOf } from './json-schema.js'
import type { ToolResultCache } from './result-cache.js'
import { onRequest } from './handlers.js'

interface ToolDefinition {
  name: string
  title: string
  description: string
  input: z.ZodType
  output: z.ZodType
  /** Validates its own arguments (throwing a ServiceError) so MCP and HTTP report the same issues. */
  run(snapshot: Snapshot, args: unknown): unknown
}

const TOOLS: ToolDefinition[] = [
  {
    name: 'get_business',
    title: 'Business details and rating',
    description:
      'The business these reviews are about: name, category, address, phone, opening hours, staff (with roles and aliases), services (ids, names, aliases), service areas, and the aggregate star rating (mean to one decimal, count, per-star distribution). Call this first to learn staff names and service ids for the other tools. No arguments.',
    input: NoParams,
    output: BusinessResult,
    run: (s, args) => (noArguments(args), query.businessInfo(s))
  },
  {
    name: 'search_reviews',
    title: 'Search reviews',
    description:
      'Find verified reviews. Filters combine with AND: rating (exact stars 1-5), min_rating (1-5), since/until (YYYY-MM-DD, inclusive), query (case- and accent-insensitive substring of the text), mentions_technician (staff name, alias or first name), mentions_service (service id, name or alias). Results are newest first; limit is 1-100 (default 20), and offset pages further (next_offset is null on the last page). `matched` counts every hit. A name that matches no staff member or service gives no reviews, not an error. Same parameters and result as GET /api/reviews/search.',
    input: SearchParams,
    output: SearchResult,
    run: (s, args) => query.toSearchResult(s.index, query.searchReviews(s.index, args))
  },
  {
    name: 'get_reviews_since',
    title: 'Reviews since a day',
    description:
      'Reviews dated on or after a day (YYYY-MM-DD), newest first, for "what is new" questions. `count` is how many there are in all; limit (1-100, default 50) and offset page through them. A future day gives none.',
    input: SincePageParams,
    output: SincePageResult,
    run: query.reviewsSincePage
  },
  {
    name: 'get_review',
    title: 'One review',
    description: 'One review by its id (as cited in insights, FAQ answers and search results), with the owner reply and the staff, services and areas it names.',
    input: ReviewLookup,
    output: Review,
    run: query.reviewById
  },
  {
    name: 'get_aspect_sentiment',
    title: 'How reviewers judge one aspect',
    description:
      'How reviewers speak of one aspect of the service, by id or label (get_insights_summary lists this business\'s aspects). Gives the number of reviews mentioning it, how many are positive, neutral or mixed, and negative, positive_pct (0-100), score (-1 to 1), common phrases, and example reviews with the words that carry each judgement.',
    input: AspectLookup,
    output: AspectResult,
    run: query.aspectSentiment
  },
  {
    name: 'get_technician',
    title: 'One staff member',
    description:
      'One staff member by full name, alias, first name or a misspelling: role, how many reviews name them, the average star rating of those reviews, the share that speak of them warmly (positive_pct 0-100), the review ids, and the 5 newest of those reviews in full.',
    input: TechnicianLookup,
    output: TechnicianResult,
    run: query.technicianInsight
  },
  {
    name: 'get_service',
    title: 'One service',
    description:
      'One service by id, name or alias (get_business lists the services): its description, how many reviews name it, their average star rating, positive_pct (0-100), the review ids and the 5 newest of those reviews in full.',
    input: ServiceLookup,
    output: ServiceResult,
    run: query.serviceInsight
  },
  {
    name: 'get_faq',
    title: 'Questions customers ask, answered from the reviews',
    description:
      'Questions someone choosing this business would ask (one per aspect of its taxonomy that has a question and, where the taxonomy asks them, who the staff are and how long things take), each answered from the reviews with numbers and the review ids it rests on. No arguments.',
    input: NoParams,
    output: FaqResult,
    run: (s, args) => (noArguments(args), query.faqAnswers(s))
  },
  {
    name: 'get_insights_summary',
    title: 'Summary of what reviewers say',
    description:
      'An editorial summary of the reviews (each claim cites review ids in brackets), a pull quote, overall sentiment (score -1 to 1 and the share of positive, neutral and negative reviews), the trend of recent months, and every aspect with its mention count and positive share. Computed locally from the review text, deterministic. No arguments.',
    input: NoParams,
    output: InsightsSummaryResult,
    run: (s, args) => (noArguments(args), query.insightsSummary(s))
  }
]

function noArguments(args: unknown): void {
  parseOrThrow(NoParams, args, 'This tool takes no arguments.')
}

export interface ToolSummary {
  name: string
  title: string
  description: string
}

/** What each tool is, in the words tools/list gives a model: for documentation written for people. */
export function toolSummaries(): ToolSummary[] {
  return TOOLS.map(({ name, title, description }) => ({ name, title, description }))
}

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]))
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

/** The tool list is the same for every session: built once. */
const LISTING: Tool[] = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: jsonSchemaOf(t.input, 'input') as Tool['inputSchema'],
  outputSchema: jsonSchemaOf(t.output, 'output') as Tool['outputSchema'],
  annotations: { title: t.title, ...ANNOTATIONS }
}))

/** Told of every tool call: its tool (`unknown` for a name that is none, so the label set stays bounded), outcome and time. */
export type ToolCallObserver = (tool: string, ok: boolean, seconds: number) => void

export function registerTools(server: Server, current: () => Snapshot, results: ToolResultCache, observe?: ToolCallObserver): void {
  onRequest(server, ListToolsRequestSchema, () => ({ tools: LISTING }))
  const call = (name: string, args: unknown) => callTool(current(), results, name, args ?? {})
  // Unobserved (metrics off), a call is not timed either.
  onRequest(server, CallToolRequestSchema, ({ params }) => (observe ? observed(observe, params.name, () => call(params.name, params.arguments)) : call(params.name, params.arguments)))
}

function observed(observe: ToolCallObserver, name: string, call: () => CallToolResult): CallToolResult {
  const started = performance.now()
  let ok = false
  try {
    const result = call()
    ok = !result.isError
    return result
  } finally {
    observe(BY_NAME.has(name) ? name : 'unknown', ok, (performance.now() - started) / 1000)
  }
}

function callTool(snapshot: Snapshot, results: ToolResultCache, name: string, args: unknown): CallToolResult {
  const tool = BY_NAME.get(name)
  if (!tool) return errorResult(new ServiceError('not_found', `There is no tool "${name}". Tools: ${TOOLS.map((t) => t.name).join(', ')}.`))
  try {
    return results.get(snapshot.version, `${name}:${JSON.stringify(args)}`, () => tool.run(snapshot, args) as Record<string, unknown>)
  } catch (err) {
    if (err instanceof ServiceError) return errorResult(err)
    throw err
  }
}

/** A tool error is a result, not a protocol error: one text block with the same JSON body the HTTP API sends. */
function errorResult(err: ServiceError): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(err.toBody()) }], isError: true }
}
