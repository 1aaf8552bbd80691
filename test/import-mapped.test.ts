import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, beforeEach, describe, test } from 'node:test'
import { openStore } from '../src/store/index.js'
import { testDatabaseUrl } from './helpers/database.js'
import { business, dataset, review, writeJson } from './helpers/fixtures.js'
import { runCli } from './helpers/processes.js'

/** CSV exports of other sites, in their own shapes, read through --map by the real CLI. Every fixture is made here. */

let dir: string
let env: Record<string, string>
let n = 0

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'reviews-mapped-'))
})
after(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(async () => {
  env = { DATABASE_URL: await testDatabaseUrl(dir, `db-${++n}`) }
  const r = runCli(['import', writeJson(dir, `business-${n}.json`, dataset([review({ id: 'g-1', source: 'google', text: 'From Google.' })], business({ time_zone: 'Europe/Berlin' })))], env)
  assert.equal(r.status, 0, r.stderr)
})

async function reviews() {
  const store = await openStore(env.DATABASE_URL!)
  try {
    const dump = await store.dump()
    return { version: dump.version, byId: new Map(dump.reviews.map((r) => [r.review.id, r.review])) }
  } finally {
    await store.close()
  }
}

function csv(name: string, lines: string[]): string {
  const file = join(dir, name)
  writeFileSync(file, `${lines.join('\r\n')}\r\n`)
  return file
}

/** A Yelp-style export: US dates, bare stars, and columns nobody asked for. */
const YELP = ['Reviewer name,Stars,Date,Review,Business location,Useful votes', 'Jo B.,4,03/05/2024,"Kind staff, fair price.",Main St,3', 'Kim L.,5,12/31/2023,"Evie was wonderful.\n\nThank you.",Main St,0']
const YELP_MAP = ['--map', 'author=Reviewer name,rating=Stars,date=Date,text=Review', '--source', 'yelp', '--date-format', 'MM/DD/YYYY']

describe('CSV exports read through --map', () => {
  test('a Yelp-style export: ids made from source, author and date; stable across imports; unverified unless --verified', async () => {
    const file = csv('yelp.csv', YELP)
    const first = runCli(['import', file, ...YELP_MAP], env)
    assert.equal(first.status, 0, first.stderr)
    assert.match(first.stdout, /nothing published changed \(2 added/)
    assert.match(first.stdout, /columns not imported: "Business location", "Useful votes"/)
    assert.match(first.stdout, /warning: 2 reviews not marked verified: stored, not published \(pass --verified/)
    const verified = runCli(['import', file, ...YELP_MAP, '--verified'], env)
    assert.match(verified.stdout, /imported: 0 added, 2 updated, 0 removed, 0 unchanged; data version is now 2/)
    const again = runCli(['import', file, ...YELP_MAP, '--verified'], env)
    assert.match(again.stdout, /nothing published changed \(0 added, 0 updated, 0 removed, 2 unchanged\)/)
    const { byId } = await reviews()
    const jo = [...byId.values()].find((r) => r.author === 'Jo B.')!
    assert.match(jo.id, /^yelp-[0-9a-f]{16}$/)
    assert.deepEqual([jo.rating, jo.date, jo.text, jo.source, jo.verified, jo.published_at], [4, '2024-03-05', 'Kind staff, fair price.', 'yelp', true, null])
    assert.equal([...byId.values()].find((r) => r.author === 'Kim L.')!.text, 'Evie was wonderful.\n\nThank you.')
  })

  test('a Trustpilot-style export: its review ids, ISO timestamps dated in the business time zone, title and text joined, replies', async () => {
    const file = csv('trustpilot.csv', [
      'Review ID,Review Created (UTC),Review Consumer User Name,Review Title,Review Content,Review Stars,Reply,Reply Date,Location',
      '5f1a,2024-06-01T22:30:00Z,Ana Pérez,Calm and kind,"They explained every cost before we signed.",5,Thank you Ana.,2024-06-03,Fairview',
      '5f1b,2024-06-02T08:00:00Z,Bo Lindqvist,,Die Mitarbeiter waren sehr freundlich und haben uns sehr geholfen.,4,,,Fairview'
    ])
    const r = runCli(
      [
        'import',
        file,
        '--map',
        'id=Review ID,author=Review Consumer User Name,rating=Review Stars,date=Review Created (UTC),text=Review Title+Review Content,owner_reply_text=Reply,owner_reply_date=Reply Date',
        '--source',
        'trustpilot',
        '--verified'
      ],
      env
    )
    assert.equal(r.status, 0, r.stderr)
    const { byId } = await reviews()
    const ana = byId.get('trustpilot-5f1a')!
    // 22:30 UTC on 1 June is half past midnight on the 2nd in Berlin.
    assert.deepEqual([ana.date, ana.published_at, ana.rating], ['2024-06-02', '2024-06-01T22:30:00Z', 5])
    assert.equal(ana.text, 'Calm and kind\n\nThey explained every cost before we signed.')
    assert.deepEqual(ana.owner_reply, { text: 'Thank you Ana.', date: '2024-06-03' })
    assert.equal(ana.language, 'en')
    const bo = byId.get('trustpilot-5f1b')!
    assert.deepEqual([bo.owner_reply, bo.language, bo.rating], [null, 'de', 4])
  })

  test('a spreadsheet saved with semicolons: day-first dates, ratings out of 10 and "8/10", a yes/no verified column; --replace keeps other sources', async () => {
    const file = csv('sheet.csv', ['Name;Bewertung;Datum;Kommentar;Geprüft', 'Hans;8/10;05.03.2024;Sehr gut betreut;ja', 'Eva;9;06.03.2024;;yes', 'Otto;4/5;07.03.2024;Gut;no'])
    const map = ['--map', 'author=Name,rating=Bewertung,date=Datum,text=Kommentar,verified=Geprüft', '--source', 'spreadsheet', '--date-format', 'DD.MM.YYYY', '--rating-scale', '10']
    const bad = runCli(['import', file, ...map], env)
    assert.equal(bad.status, 1, 'ja is not a yes/no value this importer knows')
    assert.match(bad.stderr, /row 2, field verified \(column "Geprüft"\)/)
    writeFileSync(file, ['Name;Bewertung;Datum;Kommentar;Geprüft', 'Hans;8/10;05.03.2024;Sehr gut betreut;yes', 'Eva;9;06.03.2024;;yes', 'Otto;4/5;07.03.2024;Gut;no'].join('\n'))
    const r = runCli(['import', file, ...map, '--replace'], env)
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /bare ratings read on a scale of 10 and rounded to whole stars/)
    assert.match(r.stdout, /1 review from other sources left as they were/)
    const { byId } = await reviews()
    const rows = [...byId.values()].filter((x) => x.source === 'spreadsheet').sort((a, b) => a.date.localeCompare(b.date))
    assert.deepEqual(
      rows.map((x) => [x.author, x.rating, x.date, x.text, x.verified]),
      [
        ['Hans', 4, '2024-03-05', 'Sehr gut betreut', true],
        ['Eva', 5, '2024-03-06', null, true],
        ['Otto', 4, '2024-03-07', 'Gut', false]
      ]
    )
    assert.ok(byId.has('g-1'), 'the Google review is not removed by a spreadsheet --replace')
  })

  test('a bad export: every bad row, field and column is listed and nothing is written; bad options are usage errors', async () => {
    const before = await reviews()
    const file = csv('bad.csv', [
      'Reviewer name,Stars,Date,Review',
      'Fine,5,03/05/2024,ok',
      ',6,02/30/2024,x',
      'Eve,0/5,2024-03-05,x',
      'Sam,great,03/05/2024,x'
    ])
    const r = runCli(['import', file, ...YELP_MAP], env)
    assert.equal(r.status, 1)
    for (const expected of [
      /bad\.csv: 6 problems, nothing was imported/,
      /row 3, field rating \(column "Stars"\): "6" is above the top of its scale \(5\)/,
      /row 3, field date \(column "Date"\): "02\/30\/2024" is not a real calendar date/,
      /row 3, field author \(column "Reviewer name"\)/,
      /row 4, field rating \(column "Stars"\): "0\/5" is below one star/,
      /row 4, field date \(column "Date"\): "2024-03-05" does not have the form of --date-format/,
      /row 5, field rating \(column "Stars"\): "great" is not a rating/
    ]) {
      assert.match(r.stderr, expected)
    }
    assert.doesNotMatch(r.stderr, /row 2/)
    assert.match(runCli(['import', csv('cols.csv', ['Name,Stars,Date', 'A,5,03/05/2024']), ...YELP_MAP], env).stderr, /header: no column "Reviewer name" for author \(columns: "Name", "Stars", "Date"\)/)
    for (const [args, message] of [
      [['--map', 'author=A,ratng=B,date=C', '--source', 'x'], /unknown field "ratng".*map rating to a column: it is required/],
      [['--map', 'author=A,rating=B,date=C'], /say where these reviews come from: --source/],
      [['--map', 'author=A,rating=B,date=C', '--source', 'x', '--date-format', 'QQ/YYYY'], /"Q" is not a pattern letter/],
      [['--map', 'author=A,rating=B,date=C', '--source', 'x', '--rating-scale', '1'], /--rating-scale must be a whole number from 2 to 100/],
      [['--source', 'x'], /go with --map/]
    ] as const) {
      const usage = runCli(['import', file, ...args], env)
      assert.equal(usage.status, 64, usage.stderr)
      assert.match(usage.stderr, message)
    }
    assert.deepEqual(await reviews(), before)
  })
})
