import { z } from 'zod'
import { ReviewInput, Timestamp, type StoredReview } from '../domain/index.js'
import { dayIn } from './dates.js'
import { originalText } from './google-text.js'
import { detectLanguage } from './language.js'
import type { InputFile } from './source.js'
import { counted } from './wording.js'

/**
 * Google Business Profile reviews as Google gives them: pages of the API's accounts.locations.reviews.list
 * ({ reviews: [Review], averageRating, totalReviewCount, nextPageToken }), and the reviews files of a Takeout export
 * of a Business Profile, whose entries are the same Review resource (reviewId may be absent there: it is the last
 * segment of `name`). Anything else is refused with the reason, never guessed at.
 */

export const GOOGLE = 'google'
/** What Google itself shows for a reviewer who is not named. */
export const ANONYMOUS_AUTHOR = 'A Google user'
/** Review ids are "google-" and Google's reviewId: stable across imports, and never equal to an id from elsewhere. */
export const GOOGLE_ID_PREFIX = 'google-'

const STARS = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 } as const

const StarRating = z.enum(Object.keys(STARS) as [keyof typeof STARS], {
  error: (issue) =>
    issue.input === undefined
      ? 'missing: a review without a star rating cannot be published'
      : issue.input === 'STAR_RATING_UNSPECIFIED'
        ? 'STAR_RATING_UNSPECIFIED: Google gave no star rating, and a review without one cannot be published'
        : `must be ONE, TWO, THREE, FOUR or FIVE, not ${JSON.stringify(issue.input)}`
})

const Reviewer = z.looseObject({ displayName: z.string().optional(), profilePhotoUrl: z.string().optional(), isAnonymous: z.boolean().optional() })
const Reply = z.looseObject({ comment: z.string(), updateTime: Timestamp })

/** The Review resource; fields we do not publish (reviewMediaItems, ...) are let through and ignored. */
const GoogleReview = z.looseObject({
  name: z.string().optional(),
  reviewId: z.string().optional(),
  reviewer: Reviewer.optional(),
  starRating: StarRating,
  comment: z.string().optional(),
  createTime: Timestamp,
  updateTime: Timestamp.optional(),
  reviewReply: Reply.optional()
})
type GoogleReview = z.output<typeof GoogleReview>

const Page = z.looseObject({
  reviews: z.array(z.unknown()).optional(),
  nextPageToken: z.string().optional(),
  totalReviewCount: z.number().optional()
})
type Page = z.output<typeof Page>

/** Our fields, named as the Google field they come from, so a problem points at what the user sees in the file. */
const GOOGLE_FIELD: Record<string, string> = {
  id: 'reviewId',
  author: 'reviewer.displayName',
  author_avatar_url: 'reviewer.profilePhotoUrl',
  rating: 'starRating',
  date: 'createTime',
  published_at: 'createTime',
  text: 'comment',
  owner_reply: 'reviewReply',
  'owner_reply.text': 'reviewReply.comment',
  'owner_reply.date': 'reviewReply.updateTime'
}

export interface GoogleImport {
  reviews: StoredReview[]
  problems: string[]
  notes: string[]
}

/** Every page, validated whole: all problems of all pages are listed together. */
export function parseGooglePages(files: readonly InputFile[], timeZone: string | null): GoogleImport {
  const reader = new PageReader(timeZone, files.length > 1)
  for (const file of files) reader.read(file)
  return reader.result()
}

class PageReader {
  private readonly tally = new Tally()
  private readonly problems: string[] = []
  private readonly pages: { name: string; page: Page }[] = []
  private readonly seen = new Map<string, { page: string; raw: string }>()
  private readonly reviews: StoredReview[] = []

  constructor(
    private readonly timeZone: string | null,
    /** With several pages, each problem names its page. */
    private readonly several: boolean
  ) {}

  read(file: InputFile): void {
    const prefix = this.several ? `${file.name}: ` : ''
    const page = readPage(file.text)
    if (typeof page === 'string') return void this.problems.push(`${prefix}${page}`)
    this.pages.push({ name: file.name, page })
    page.reviews?.forEach((raw, i) => this.review(raw, `${prefix}reviews[${i}]${describeId(raw)}`, file.name))
  }

  /**
   * Paging while reviews arrive repeats a review on the next page, and Takeout repeats a location under each account
   * that manages it: identical copies are one review. Copies that differ are two downloads mixed up.
   */
  private review(raw: unknown, where: string, page: string): void {
    const key = rawId(raw)
    const rawJson = JSON.stringify(raw)
    const twin = key === undefined ? undefined : this.seen.get(key)
    if (twin) {
      if (twin.raw !== rawJson) this.problems.push(`${where}: appears again with different content (first in ${twin.page}): pages of two different downloads?`)
      return
    }
    if (key !== undefined) this.seen.set(key, { page, raw: rawJson })
    const r = toReview(raw, this.timeZone, this.tally)
    if ('problems' in r) this.problems.push(...r.problems.map((p) => `${where}${p}`))
    else this.reviews.push(r.review)
  }

  result(): GoogleImport {
    return {
      reviews: this.reviews,
      problems: [...this.problems, ...chainProblems(this.pages)],
      notes: [...this.tally.notes(this.timeZone), ...countNote(this.pages, this.reviews.length)]
    }
  }
}

function readPage(text: string): Page | string {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    return `not valid JSON: ${(e as Error).message}`
  }
  const page = Page.safeParse(raw)
  if (!page.success || Array.isArray(raw)) return 'not a page of Google reviews: expected an object {"reviews": [...]} as the API and Takeout give it'
  return page.data
}

function toReview(raw: unknown, timeZone: string | null, tally: Tally): { review: StoredReview } | { problems: string[] } {
  const g = GoogleReview.safeParse(raw)
  if (!g.success) return { problems: g.error.issues.map((i) => `, field ${i.path.join('.') || '(review)'}: ${i.message}`) }
  const id = reviewIdOf(g.data)
  if (typeof id !== 'string') return { problems: [`, field reviewId: ${id.problem}`] }
  const mapped = ReviewInput.safeParse(fields(g.data, id, timeZone, tally))
  if (!mapped.success) return { problems: mapped.error.issues.map((i) => `, field ${GOOGLE_FIELD[i.path.join('.')] ?? i.path.join('.')}: ${i.message}`) }
  return { review: mapped.data }
}

/** reviewId, or the last segment of `name` (accounts/{a}/locations/{l}/reviews/{reviewId}); both must agree. */
function reviewIdOf(g: GoogleReview): string | { problem: string } {
  const fromName = /\/reviews\/([^/]+)$/.exec(g.name ?? '')?.[1]
  if (g.reviewId && fromName && g.reviewId !== fromName) return { problem: `"${g.reviewId}" differs from the one in name ("${fromName}")` }
  const id = g.reviewId || fromName
  return id ? `${GOOGLE_ID_PREFIX}${id}` : { problem: 'missing, and there is no name (accounts/.../reviews/{reviewId}) to take it from' }
}

function fields(g: GoogleReview, id: string, timeZone: string | null, tally: Tally): Record<string, unknown> {
  const anonymous = g.reviewer?.isAnonymous === true || !g.reviewer?.displayName?.trim()
  const comment = tally.text(originalText(g.comment), id)
  const reply = g.reviewReply ? tally.text(originalText(g.reviewReply.comment), id) : null
  if (anonymous) tally.anonymous++
  return {
    id,
    author: anonymous ? ANONYMOUS_AUTHOR : g.reviewer!.displayName,
    author_avatar_url: anonymous ? null : absoluteUrl(g.reviewer?.profilePhotoUrl),
    rating: STARS[g.starRating],
    date: dayIn(g.createTime, timeZone),
    published_at: g.createTime,
    text: comment,
    source: GOOGLE,
    source_url: null,
    owner_reply: reply ? { text: reply, date: dayIn(g.reviewReply!.updateTime, timeZone) } : null,
    verified: true,
    language: detectLanguage(comment)
  }
}

/** Google has given photo links without a scheme ("//lh3.googleusercontent.com/..."). */
function absoluteUrl(url: string | undefined): string | null {
  return url ? url.replace(/^\/\//, 'https://') : null
}

/** The reviewId as written, before validation: for naming a review in a problem and for spotting repeats. */
function rawId(raw: unknown): string | undefined {
  const r = raw as { reviewId?: unknown; name?: unknown } | null
  return typeof r?.reviewId === 'string' ? r.reviewId : typeof r?.name === 'string' ? r.name.split('/').pop() : undefined
}

function describeId(raw: unknown): string {
  const id = rawId(raw)
  return id ? ` (reviewId ${JSON.stringify(id)})` : ''
}

/**
 * Saved API pages: every page but the last carries a nextPageToken. Without a page that has none, the list was cut
 * short, and importing it with --replace would remove reviews that are still on Google, so it is an error. Takeout
 * files carry no tokens and are not checked.
 */
function chainProblems(pages: { name: string; page: Page }[]): string[] {
  if (!pages.some((p) => p.page.nextPageToken)) return []
  const ends = pages.filter((p) => !p.page.nextPageToken)
  if (ends.length === 1) return []
  if (ends.length === 0) {
    return [
      pages.length === 1
        ? 'has a nextPageToken: Google has more pages of reviews; save every page into one folder and import the folder'
        : 'every page has a nextPageToken, so Google has more after them: a page is missing (save every page, up to the one without a nextPageToken)'
    ]
  }
  return [`${ends.map((p) => p.name).join(', ')} each end a list (no nextPageToken): these are pages of more than one download`]
}

/** Pages may carry Google's own count; fewer reviews than it says means a page is likely missing. */
function countNote(pages: { page: Page }[], found: number): string[] {
  const counted = Math.max(0, ...pages.map((p) => p.page.totalReviewCount ?? 0))
  return counted > found ? [`warning: Google's totalReviewCount is ${counted}, but the pages hold ${found} reviews: is a page missing?`] : []
}

/** What the summary says about a Google import, counted while mapping. */
class Tally {
  anonymous = 0
  translated = 0
  private readonly withoutOriginal: string[] = []

  text(t: ReturnType<typeof originalText>, id: string): string | null {
    if (t.translated) this.translated++
    if (t.originalMissing) this.withoutOriginal.push(id)
    return t.text
  }

  notes(timeZone: string | null): string[] {
    const missing = this.withoutOriginal.length
    return [
      timeZone
        ? `dates: the day each review was written in ${timeZone}, the business's time zone`
        : 'dates: the day each review was written in UTC, because the business states no time_zone; add one (e.g. "America/Chicago") to the business file so evening reviews are dated the day they were written',
      ...(this.anonymous ? [`${counted(this.anonymous, 'anonymous reviewer')} shown as "${ANONYMOUS_AUTHOR}"`] : []),
      ...(this.translated ? [`${counted(this.translated, 'text')} carried Google's translation: the original words were kept, the translation left out`] : []),
      ...(missing ? [`warning: ${counted(missing, 'text')} held only Google's translation, without the original, and ${missing === 1 ? 'was' : 'were'} left out (${this.withoutOriginal.join(', ')})`] : [])
    ]
  }
}
