import { z } from 'zod'
import { Mentions, OwnerReply } from './review.js'

const Author = z.object({ name: z.string(), url: z.string().optional(), avatar: z.string().optional() })

/** JSON Feed 1.1 item (https://jsonfeed.org/version/1.1); absent optional keys are omitted, as the format expects. */
export const JsonFeedItem = z.object({
  id: z.string().describe('Stable forever: the review permalink.'),
  url: z.string(),
  title: z.string(),
  content_text: z.string(),
  content_html: z.string(),
  date_published: z.string(),
  date_modified: z.string(),
  authors: z.array(Author),
  tags: z.array(z.string()).optional(),
  language: z.string().optional(),
  _review: z
    .object({
      rating: z.int(),
      source: z.string(),
      source_url: z.string().nullable(),
      verified: z.boolean(),
      owner_reply: OwnerReply.nullable(),
      mentions: Mentions
    })
    .describe('Extension: the structured review behind this item.')
})

export const JsonFeed = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.string(),
    feed_url: z.string(),
    description: z.string().optional(),
    language: z.string().optional(),
    authors: z.array(Author),
    hubs: z.array(z.object({ type: z.literal('WebSub'), url: z.string() })),
    items: z.array(JsonFeedItem).max(50)
  })
  .meta({ id: 'JsonFeed', description: 'JSON Feed 1.1 of the 50 newest reviews.' })
export type JsonFeed = z.output<typeof JsonFeed>
export type JsonFeedItem = z.output<typeof JsonFeedItem>
