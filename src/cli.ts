#!/usr/bin/env node
/** `reviews-service serve | import | export | migrate`: see USAGE. */
import { writeFile } from 'node:fs/promises'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { pino } from 'pino'
import { ConfigError, loadConfig } from './config/index.js'
import { exportDocument, importFile, ImportFileError, ImportOptionError, IMPORT_FORMATS, type ImportFormat, type ImportOptions } from './ingest/index.js'
import type { Service } from './main.js'
import { NoBusinessError, NotEmptyError, openStore } from './store/index.js'

const USAGE = `usage:
  reviews-service serve                      serve the API (PORT, HOST, BASE_URL, DATABASE_URL, WORKERS, LOG_LEVEL, ...)
  reviews-service import <path> [--replace] [--format json|csv|google]
                                             import into DATABASE_URL: a JSON (reviews.json shape) or CSV file, or
                                             Google Business Profile reviews (an API page, a folder of pages, or a
                                             Takeout export); with --replace, remove stored reviews absent from it
                                             (for Google and mapped CSVs: only those of the same source)
  reviews-service import <file.csv> --map "author=Name,rating=Stars,date=Date,text=Review" --source <name>
                    [--date-format MM/DD/YYYY] [--rating-scale 10] [--verified] [--replace]
                                             import any CSV export through a column mapping
  reviews-service export [<file>]            write every review of DATABASE_URL (unverified too) and the business as
                                             an importable JSON file (to standard output without <file>)
  reviews-service migrate --from <url> --to <url> [--replace]
                                             copy everything (business, every review, subscriptions, owed deliveries
                                             and verifications, the data version) from one database to another, in one
                                             transaction; a target that holds data is refused unless --replace`

/** A signal during start: give the start this long to finish (then drain), else leave at once. */
const START_THEN_STOP_MS = 5000

async function serve(): Promise<void> {
  const config = loadConfig()
  // Loaded here, not at the top: the server (HTTP, MCP, WebSub, the insights model) takes seconds to load, which an
  // import, an export or a migration would wait for and never use; nor does the primary of WORKERS > 1, which only
  // supervises its workers.
  const { isWorker, reportServing, superviseWorkers } = await import('./workers/index.js')
  if (config.workers > 1 && !isWorker()) {
    return superviseWorkers(config.workers, config.metrics, pino({ level: config.logLevel, base: { service: 'reviews-service', pid: process.pid, role: 'primary' } }))
  }
  const { startService } = await import('./main.js')
  let started = false
  const starting = startService(config)
  // Listening before the start ends: a signal that comes meanwhile still gets a graceful stop, not the default death.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // `on`, not `once`: in a cluster a worker may get the signal twice (from the terminal and from the primary).
    process.on(signal, () => {
      if (!started) setTimeout(() => process.exit(0), START_THEN_STOP_MS).unref()
      starting.then((service) => stopOn(service, signal), () => process.exit(1))
    })
  }
  const service = await starting
  started = true
  reportServing(service.address.port)
}

function stopOn(service: Service, signal: NodeJS.Signals): void {
  service.log.info({ signal }, 'draining in-flight requests and stopping')
  service.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      service.log.error({ err }, 'unclean stop')
      process.exit(1)
    }
  )
}

async function runImport(args: string[]): Promise<void> {
  const { positionals, values } = parse(args, {
    replace: { type: 'boolean', default: false },
    format: { type: 'string' },
    map: { type: 'string' },
    source: { type: 'string' },
    'date-format': { type: 'string' },
    'rating-scale': { type: 'string' },
    verified: { type: 'boolean', default: false }
  })
  if (positionals.length !== 1) throw new UsageError('import takes exactly one file or folder')
  const options = importOptions(values)
  const config = loadConfig()
  const store = await openStore(config.databaseUrl, config.store)
  try {
    const r = await importFile(store, positionals[0]!, options).catch(async (err: unknown) => {
      await store.recordImport('failed')
      throw err
    })
    await store.recordImport(r.changed ? 'changed' : 'unchanged')
    const summary = `${r.added} added, ${r.updated} updated, ${r.removed} removed, ${r.unchanged} unchanged${r.businessChanged ? ', business updated' : ''}`
    console.log(r.changed ? `imported: ${summary}; data version is now ${r.version}` : `nothing published changed (${summary}); data version stays ${r.version}`)
    for (const note of r.notes) console.log(`  ${note}`)
  } finally {
    await store.close()
  }
}

/** The import options from the command line; the mapping options mean something only with --map. */
function importOptions(values: { replace: boolean; verified: boolean; format?: string; map?: string; source?: string; 'date-format'?: string; 'rating-scale'?: string }): ImportOptions {
  const { replace, verified, format, map, source, 'date-format': dateFormat, 'rating-scale': scale } = values
  if (format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be ${IMPORT_FORMATS.join(', ')}`)
  if (!map) {
    if (source !== undefined || dateFormat !== undefined || scale !== undefined || verified) throw new UsageError('--source, --date-format, --rating-scale and --verified go with --map')
    return { replace, format: format as ImportFormat | undefined }
  }
  if (scale !== undefined && !/^(?:[2-9]|[1-9]\d|100)$/.test(scale)) throw new UsageError('--rating-scale must be a whole number from 2 to 100')
  return { replace, format: format as ImportFormat | undefined, mapping: { map, source, dateFormat, ratingScale: scale === undefined ? undefined : Number(scale), verified } }
}

async function runExport(args: string[]): Promise<void> {
  const { positionals } = parse(args, {})
  if (positionals.length > 1) throw new UsageError('export takes at most one file')
  const config = loadConfig()
  const store = await openStore(config.databaseUrl, config.store)
  try {
    const doc = await exportDocument(store)
    const json = `${JSON.stringify(doc, null, 2)}\n`
    if (positionals[0] === undefined) process.stdout.write(json)
    else {
      await writeFile(positionals[0], json)
      console.error(`exported the business and ${doc.reviews.length} reviews to ${positionals[0]}`)
    }
  } finally {
    await store.close()
  }
}

async function runMigrate(args: string[]): Promise<void> {
  const { positionals, values } = parse(args, { from: { type: 'string' }, to: { type: 'string' }, replace: { type: 'boolean', default: false } })
  if (positionals.length || !values.from || !values.to) throw new UsageError('migrate takes --from <url> and --to <url>')
  if (values.from === values.to) throw new UsageError('migrate needs two different databases')
  const from = await openStore(checkedUrl(values.from, '--from'))
  try {
    const to = await openStore(checkedUrl(values.to, '--to'))
    try {
      const dump = await from.dump()
      await to.restore(dump, { replace: values.replace })
      console.log(
        `migrated: the business, ${dump.reviews.length} reviews, ${dump.subscriptions.length} subscriptions and ${dump.intents.length} pending verifications; data version ${dump.version}`
      )
    } finally {
      await to.close()
    }
  } finally {
    await from.close()
  }
}

/** A database URL checked like DATABASE_URL is. */
function checkedUrl(url: string, option: string): string {
  try {
    return loadConfig({ DATABASE_URL: url }).databaseUrl
  } catch {
    throw new UsageError(`${option} must be sqlite:<path> or postgres://...`)
  }
}

class UsageError extends Error {}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, allowPositionals: true, strict: true, options })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === 'serve' && rest.length === 0) return serve()
  if (command === 'import') return runImport(rest)
  if (command === 'export') return runExport(rest)
  if (command === 'migrate') return runMigrate(rest)
  throw new UsageError(command ? `unknown command "${command}"` : 'missing command')
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || err instanceof ImportOptionError) console.error(`${err.message}\n${USAGE}`)
  else if (err instanceof ImportFileError || err instanceof ConfigError || err instanceof NoBusinessError || err instanceof NotEmptyError) console.error(err.message)
  else console.error(err)
  process.exit(err instanceof UsageError || err instanceof ImportOptionError ? 64 : 1)
})
