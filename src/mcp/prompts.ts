import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'
import { IsoDate, ShortText } from '../domain/index.js'
import type { Snapshot } from '../snapshot/index.js'
import { onRequest } from './handlers.js'

interface PromptArgument {
  name: string
  description: string
  required: boolean
  /** Checked before the value is put into the prompt text. */
  schema: z.ZodType<string>
}

interface PromptDefinition extends Omit<Prompt, 'arguments'> {
  arguments: PromptArgument[]
  text(s: Snapshot, args: Record<string, string>): string
}

const GROUNDING =
  'Answer only from what the tools return; quote reviewers sparingly and cite the review ids you rely on. Say plainly when ' +
  'reviews are mixed or critical, and when the reviews do not say. These are reviews, not advice: do not promise prices or dates.'

const PROMPTS: PromptDefinition[] = [
  {
    name: 'answer_family_question',
    title: 'Answer a family\'s question from the reviews',
    description: 'Answer a question a grieving family asks about this business (kindness, prices, how long things take, staff), grounded in the reviews.',
    arguments: [{ name: 'question', description: 'The family\'s question, in their words.', required: true, schema: ShortText }],
    text: (s, a) =>
      `A family is choosing a provider and asks about ${s.business.name}: "${a.question}"\n\n` +
      'Start with get_faq and get_insights_summary; use get_aspect_sentiment for the aspect the question is about, and ' +
      'search_reviews (query, mentions_technician, mentions_service, min_rating) to find the reviews that speak to it. ' +
      `Answer gently and briefly, with numbers where the tools give them. ${GROUNDING}`
  },
  {
    name: 'staff_member_profile',
    title: 'What reviewers say about one staff member',
    description: 'Summarise how reviewers describe one staff member, with their role and examples.',
    arguments: [{ name: 'name', description: 'Full name, first name or alias of the staff member.', required: true, schema: ShortText }],
    text: (s, a) =>
      `Describe what reviewers of ${s.business.name} say about the staff member "${a.name}". Call get_technician with that ` +
      'name (if it is unknown, call get_business for the staff list and ask which person is meant), then read the reviews it ' +
      `returns. Give their role, how often and how warmly they are mentioned, and two or three specific examples. ${GROUNDING}`
  },
  {
    name: 'whats_new',
    title: 'What recent reviewers say',
    description: 'Digest of the reviews since a day: ratings, praise, complaints and any owner replies.',
    arguments: [
      { name: 'since', description: 'First day to include, YYYY-MM-DD (default: 90 days before the newest review).', required: false, schema: IsoDate }
    ],
    text: (s, a) =>
      `Summarise the reviews of ${s.business.name} dated on or after ${a.since ?? ninetyDaysBefore(s)} with get_reviews_since ` +
      '(page with offset if next_offset is not null): how many, their average stars, what is praised, what is criticised, and ' +
      `whether the owner replied. ${GROUNDING}`
  }
]

const LISTING: Prompt[] = PROMPTS.map(({ text: _t, arguments: args, ...p }) => ({ ...p, arguments: args.map(({ schema: _s, ...a }) => a) }))

export function registerPrompts(server: Server, current: () => Snapshot): void {
  onRequest(server, ListPromptsRequestSchema, () => ({ prompts: LISTING }))
  onRequest(server, GetPromptRequestSchema, ({ params }) => getPrompt(current(), params.name, params.arguments ?? {}))
}

function getPrompt(s: Snapshot, name: string, args: Record<string, string>): GetPromptResult {
  const prompt = PROMPTS.find((p) => p.name === name)
  if (!prompt) throw new McpError(ErrorCode.InvalidParams, `There is no prompt "${name}". Prompts: ${PROMPTS.map((p) => p.name).join(', ')}.`)
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name)
  if (missing.length) throw new McpError(ErrorCode.InvalidParams, `Prompt "${name}" needs the argument(s): ${missing.join(', ')}.`)
  const unknown = Object.keys(args).filter((k) => !prompt.arguments.some((a) => a.name === k))
  if (unknown.length) throw new McpError(ErrorCode.InvalidParams, `Prompt "${name}" has no argument(s): ${unknown.join(', ')}.`)
  for (const a of prompt.arguments) {
    const problem = args[a.name] === undefined ? undefined : a.schema.safeParse(args[a.name]).error?.issues[0]?.message
    if (problem) throw new McpError(ErrorCode.InvalidParams, `Argument "${a.name}" of prompt "${name}" ${problem}.`)
  }
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(s, args) } }] }
}

function ninetyDaysBefore(s: Snapshot): string {
  const newest = s.index.dates[0] ?? s.changedAt.toISOString().slice(0, 10)
  return new Date(Date.parse(newest) - 90 * 86_400_000).toISOString().slice(0, 10)
}
