import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, beforeEach, describe, test } from 'node:test'
import { openStore } from '../src/store/index.js'
import { testDatabaseUrl } from './helpers/database.js'
import { business, dataset, review, writeJson } from './helpers/fixtures.js'
import { runCli } from './helpers/processes.js'

/**
 * Google Business Profile reviews as Google gives them, imported by the real CLI: pages of the API's reviews.list
 * (one file, or a folder of every page) and the reviews files of a Takeout export. Every fixture is made here.
 */

let dir: string
let env: Record<string, string>
let n = 0

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'reviews-google-'))
})
after(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(async () => {
  env = { DATABASE_URL: await testDatabaseUrl(dir, `db-${++n}`) }
})

/** Every stored review (unverified too) by id, and the data version. */
async function state() {
  const store = await openStore(env.DATABASE_URL!)
  try {
    const dump = await store.dump()
    return { version: dump.version, business: dump.business, byId: new Map(dump.reviews.map((r) => [r.review.id, { ...r.review, updatedAt: r.updatedAt }])) }
  } finally {
    await store.close()
  }
}

function importBusiness(tz: string | null = 'America/Chicago', reviews: Record<string, unknown>[] = []) {
  const r = runCli(['import', writeJson(dir, `business-${n}.json`, dataset(reviews, business({ time_zone: tz })))], env)
  assert.equal(r.status, 0, r.stderr)
}

/** A Review resource as the Business Profile API returns it. */
function gReview(id: string, o: Record<string, unknown> = {}) {
  return {
    name: `accounts/104/locations/2001/reviews/${id}`,
    reviewId: id,
    reviewer: { displayName: `Reviewer ${id}`, profilePhotoUrl: `https://lh3.googleusercontent.com/a/${id}`, isAnonymous: false },
    starRating: 'FIVE',
    comment: `Thank you for everything, review ${id} of ours.`,
    createTime: '2024-03-10T16:00:00Z',
    updateTime: '2024-03-10T16:00:00Z',
    ...o
  }
}

const SPANISH = 'Nos trataron con mucho cariño y respeto en el peor momento de nuestra vida.'
const GERMAN = 'Die Mitarbeiter waren sehr freundlich und haben uns in dieser schweren Zeit sehr geholfen.'
const SPANISH_TRANSLATION = 'They treated us with great affection and respect at the worst moment of our lives.'
const GERMAN_TRANSLATION = 'The staff were very friendly and helped us a lot in this difficult time.'

interface ApiPage {
  reviews: Record<string, unknown>[]
  averageRating: number
  totalReviewCount: number
  nextPageToken?: string
}

/** Three pages of a reviews.list run, chained by nextPageToken as the API chains them. */
function apiPages(): ApiPage[] {
  return [
    {
      reviews: [
        gReview('AbFvOq1', {
          comment: 'Evie guided us through every step and we were never rushed.',
          reviewReply: { comment: 'Thank you, we were honoured to help.', updateTime: '2024-03-12T02:00:00Z' },
          reviewMediaItems: [{ googleUrl: 'https://lh3.googleusercontent.com/p/1' }]
        }),
        // 04:30 UTC on the 2nd is 22:30 on the 1st in Chicago: dated the 1st.
        gReview('AbFvOq2', { reviewer: { displayName: 'A Google User', isAnonymous: true }, starRating: 'FOUR', comment: undefined, createTime: '2024-03-02T04:30:00.123456789Z' })
      ],
      averageRating: 4.6,
      totalReviewCount: 5,
      nextPageToken: 'page-2-token'
    },
    {
      reviews: [
        gReview('AbFvOq3', { comment: `(Translated by Google) ${SPANISH_TRANSLATION}\n\n(Original)\n${SPANISH}`, starRating: 'FIVE' }),
        // The reverse order some exports use, and a reply translated the same way.
        gReview('AbFvOq4', {
          comment: `${GERMAN}\n\n(Translated by Google)\n${GERMAN_TRANSLATION}`,
          starRating: 'FOUR',
          reviewReply: { comment: '(Translated by Google) Thank you very much.\n\n(Original)\nVielen herzlichen Dank.', updateTime: '2024-03-20T12:00:00Z' }
        }),
        // Paging while a review arrives repeats one at the top of the next page: the same review, once.
        gReview('AbFvOq2', { reviewer: { displayName: 'A Google User', isAnonymous: true }, starRating: 'FOUR', comment: undefined, createTime: '2024-03-02T04:30:00.123456789Z' })
      ],
      averageRating: 4.6,
      totalReviewCount: 5,
      nextPageToken: 'page-3-token'
    },
    { reviews: [gReview('AbFvOq5', { starRating: 'THREE', comment: 'Fine.' })], averageRating: 4.6, totalReviewCount: 5 }
  ]
}

function writePages(name: string, pages: unknown[]): string {
  const folder = join(dir, name)
  mkdirSync(folder, { recursive: true })
  pages.forEach((p, i) => writeFileSync(join(folder, `page-${i + 1}.json`), JSON.stringify(p)))
  return folder
}

describe('Google Business Profile API pages', () => {
  test('a folder of pages: every field mapped, translations left out, dates in the business time zone', async () => {
    importBusiness('America/Chicago', [review({ id: 'fb-1', source: 'facebook', text: 'From Facebook.' })])
    const r = runCli(['import', writePages('pages', apiPages()), '--format', 'google'], env)
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /imported: 5 added, 0 updated, 0 removed, 0 unchanged; data version is now 2/)
    assert.match(r.stdout, /dates: the day each review was written in America\/Chicago, the business's time zone/)
    assert.match(r.stdout, /1 anonymous reviewer shown as "A Google user"/)
    assert.match(r.stdout, /3 texts carried Google's translation: the original words were kept/)
    const { byId } = await state()
    const first = byId.get('google-AbFvOq1')!
    assert.deepEqual(
      { ...first, updatedAt: undefined },
      {
        id: 'google-AbFvOq1',
        author: 'Reviewer AbFvOq1',
        author_avatar_url: 'https://lh3.googleusercontent.com/a/AbFvOq1',
        rating: 5,
        date: '2024-03-10',
        published_at: '2024-03-10T16:00:00Z',
        text: 'Evie guided us through every step and we were never rushed.',
        source: 'google',
        source_url: null,
        // The reply's updateTime is 02:00 UTC on the 12th: the 11th in Chicago.
        owner_reply: { text: 'Thank you, we were honoured to help.', date: '2024-03-11' },
        verified: true,
        language: 'en',
        updatedAt: undefined
      }
    )
    const anonymous = byId.get('google-AbFvOq2')!
    assert.deepEqual([anonymous.author, anonymous.author_avatar_url, anonymous.text, anonymous.rating, anonymous.date], ['A Google user', null, null, 4, '2024-03-01'])
    assert.equal(anonymous.published_at, '2024-03-02T04:30:00.123456789Z')
    const spanish = byId.get('google-AbFvOq3')!
    assert.deepEqual([spanish.text, spanish.language], [SPANISH, 'es'])
    const german = byId.get('google-AbFvOq4')!
    assert.deepEqual([german.text, german.language, german.owner_reply], [GERMAN, 'de', { text: 'Vielen herzlichen Dank.', date: '2024-03-20' }])
    const everything = JSON.stringify([...byId.values()])
    for (const machine of [SPANISH_TRANSLATION, GERMAN_TRANSLATION, 'Thank you very much', 'Translated by Google', '(Original)']) {
      assert.ok(!everything.includes(machine), `Google's translation "${machine}" is never stored as anyone's words`)
    }
    assert.ok(byId.has('fb-1'), 'the review from elsewhere is untouched')
  })

  test('re-importing: unchanged pages change nothing; an edited review updates, and with --replace a review gone from Google goes (only Google ones)', async () => {
    importBusiness('America/Chicago', [review({ id: 'fb-1', source: 'facebook', text: 'From Facebook.' })])
    const folder = writePages('again', apiPages())
    assert.equal(runCli(['import', folder], env).status, 0, 'a folder is Google pages without --format')
    const before = await state()
    const same = runCli(['import', folder, '--replace'], env)
    assert.match(same.stdout, /nothing published changed \(0 added, 0 updated, 0 removed, 5 unchanged\); data version stays 2/)
    assert.deepEqual((await state()).byId, before.byId)

    const pages = apiPages()
    pages[0]!.reviews[0] = gReview('AbFvOq1', { comment: 'Evie guided us through every step. Edited: and Teddy too.', updateTime: '2024-04-01T10:00:00Z' })
    pages[2]!.reviews = [] // AbFvOq5 was removed on Google
    const edited = runCli(['import', writePages('edited', pages), '--replace'], env)
    assert.equal(edited.status, 0, edited.stderr)
    assert.match(edited.stdout, /imported: 0 added, 1 updated, 1 removed, 3 unchanged; data version is now 3/)
    assert.match(edited.stdout, /--replace removes only google reviews absent from the file; 1 review from other sources left as they were/)
    const after = await state()
    assert.equal(after.byId.get('google-AbFvOq1')!.text, 'Evie guided us through every step. Edited: and Teddy too.')
    assert.notEqual(after.byId.get('google-AbFvOq1')!.updatedAt, before.byId.get('google-AbFvOq1')!.updatedAt)
    assert.equal(after.byId.get('google-AbFvOq3')!.updatedAt, before.byId.get('google-AbFvOq3')!.updatedAt, 'an unchanged review keeps its updated_at')
    assert.ok(!after.byId.has('google-AbFvOq5'))
    assert.ok(after.byId.has('fb-1'), 'a review from another source is not removed by a Google --replace')
  })

  test('one page file is detected by its shape; without a time_zone days are UTC and the summary says so', async () => {
    importBusiness(null)
    const [first] = apiPages()
    const file = writeJson(dir, 'one-page.json', { ...first, nextPageToken: undefined })
    const r = runCli(['import', file], env)
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /dates: the day each review was written in UTC, because the business states no time_zone/)
    assert.equal((await state()).byId.get('google-AbFvOq2')!.date, '2024-03-02')
    assert.match(r.stdout, /warning: Google's totalReviewCount is 5, but the pages hold 2 reviews: is a page missing\?/)
  })

  test('bad pages: every bad review and field is listed with its page, and nothing is written', async () => {
    importBusiness()
    const before = await state()
    const pages = apiPages()
    pages[0]!.reviews.push(
      gReview('Bad1', { starRating: 'STAR_RATING_UNSPECIFIED' }),
      gReview('Bad2', { starRating: undefined, createTime: 'yesterday' }),
      { comment: 'no id at all', starRating: 'FIVE', createTime: '2024-03-01T00:00:00Z' },
      gReview('Bad4', { reviewReply: { comment: 'Thanks' } })
    )
    pages[1]!.reviews.push(gReview('AbFvOq1', { comment: 'A different text under the same id.' }))
    const r = runCli(['import', writePages('bad', pages)], env)
    assert.equal(r.status, 1)
    for (const expected of [
      /bad: 6 problems, nothing was imported/,
      /page-1\.json: reviews\[2\] \(reviewId "Bad1"\), field starRating: STAR_RATING_UNSPECIFIED: Google gave no star rating/,
      /page-1\.json: reviews\[3\] \(reviewId "Bad2"\), field starRating: missing/,
      /page-1\.json: reviews\[3\] \(reviewId "Bad2"\), field createTime: must be an RFC 3339 date-time/,
      /page-1\.json: reviews\[4\], field reviewId: missing, and there is no name/,
      /page-1\.json: reviews\[5\] \(reviewId "Bad4"\), field reviewReply\.updateTime/,
      /page-2\.json: reviews\[3\] \(reviewId "AbFvOq1"\): appears again with different content \(first in page-1\.json\)/
    ]) {
      assert.match(r.stderr, expected)
    }
    assert.deepEqual(await state(), before)
  })

  test('a missing last page, a lone page that says more follow, and files that are not Google pages are refused', async () => {
    importBusiness()
    const before = await state()
    const [p1, p2] = apiPages()
    assert.match(runCli(['import', writePages('cut', [p1, p2])], env).stderr, /every page has a nextPageToken, so Google has more after them: a page is missing/)
    assert.match(runCli(['import', writeJson(dir, 'lone.json', p1)], env).stderr, /has a nextPageToken: Google has more pages of reviews; save every page into one folder/)
    const twoEnds = runCli(['import', writePages('two-ends', [p1, { ...p2, nextPageToken: undefined }, apiPages()[2]])], env)
    assert.match(twoEnds.stderr, /page-2\.json, page-3\.json each end a list \(no nextPageToken\)/)
    assert.match(runCli(['import', writeJson(dir, 'array.json', [gReview('x')]), '--format', 'google'], env).stderr, /not a page of Google reviews: expected an object \{"reviews": \[\.\.\.\]\}/)
    assert.match(runCli(['import', writeJson(dir, 'vague.json', { reviews: [] })], env).stderr, /cannot tell whether this holds reviews in the reviews\.json shape or Google reviews: pass --format json or --format google/)
    const usage = runCli(['import', writeJson(dir, 'fmt.json', p1), '--format', 'yelp'], env)
    assert.equal(usage.status, 64)
    assert.deepEqual(await state(), before)
  })

  test('into a database without a business: refused, since the business says which time zone dates are in; so is a zone no one has', async () => {
    const r = runCli(['import', writeJson(dir, 'early.json', apiPages()[2])], env)
    assert.equal(r.status, 1)
    assert.match(r.stderr, /holds no business yet/)
    for (const zone of ['Mars/Olympus_Mons', '+01:00']) {
      const bad = runCli(['import', writeJson(dir, 'zone.json', dataset([], business({ time_zone: zone })))], env)
      assert.match(bad.stderr, /business\.time_zone: must be an IANA time zone name such as "America\/Chicago"/, zone)
    }
  })
})

describe('a Google Takeout export of a Business Profile', () => {
  /** Takeout/Google Business Profile/account-N/location-M/reviews*.json, beside other files of the export. */
  function takeout(name: string, locations: { account: string; location: string; files: Record<string, unknown> }[]): string {
    const root = join(dir, name)
    for (const l of locations) {
      const folder = join(root, 'Takeout', 'Google Business Profile', l.account, l.location)
      mkdirSync(folder, { recursive: true })
      for (const [file, content] of Object.entries(l.files)) writeFileSync(join(folder, file), JSON.stringify(content))
    }
    mkdirSync(join(root, 'Takeout'), { recursive: true })
    writeFileSync(join(root, 'Takeout', 'archive_browser.html'), '<html></html>')
    return root
  }
  /** Takeout's entries: the API's Review resource, with the id only in `name`. */
  const entry = (id: string, o: Record<string, unknown> = {}) => {
    const { reviewId: _id, ...rest } = gReview(id, o)
    return { ...rest, name: `accounts/104/locations/2001/reviews/${id}` }
  }

  test('the export folder: the one location is found, its pages read, a repeat under a second account merged', async () => {
    importBusiness()
    const pages = {
      'reviews.json': { reviews: [entry('T1'), entry('T2', { comment: `(Translated by Google) ${GERMAN_TRANSLATION}\n\n(Original)\n${GERMAN}` })] },
      'reviews-2.json': { reviews: [entry('T3', { starRating: 'TWO', comment: 'The paperwork took weeks.' })] },
      'additionalData.json': { title: 'Quiet Oak Funeral Home' }
    }
    const root = takeout('takeout', [
      { account: 'account-104', location: 'location-2001', files: pages },
      { account: 'account-777', location: 'location-2001', files: { 'reviews.json': pages['reviews.json'] } }
    ])
    const r = runCli(['import', root], env)
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /imported: 3 added/)
    const { byId } = await state()
    assert.deepEqual([...byId.keys()].filter((k) => k.startsWith('google-')).sort(), ['google-T1', 'google-T2', 'google-T3'])
    assert.deepEqual([byId.get('google-T2')!.text, byId.get('google-T2')!.language], [GERMAN, 'de'])
  })

  test('two locations are refused, naming them; a folder with nothing Google in it is a clear error', async () => {
    importBusiness()
    const root = takeout('two', [
      { account: 'account-1', location: 'location-1', files: { 'reviews.json': { reviews: [entry('A')] } } },
      { account: 'account-1', location: 'location-2', files: { 'reviews.json': { reviews: [entry('B')] } } }
    ])
    assert.match(runCli(['import', root], env).stderr, /holds the reviews of 2 Google locations \(location-1, location-2\): import the folder of the one/)
    const empty = join(dir, 'empty')
    mkdirSync(join(empty, 'Takeout'), { recursive: true })
    assert.match(runCli(['import', empty], env).stderr, /holds no JSON files, and no Google Takeout location folder/)
  })
})
