#!/usr/bin/env node
/** `reviews-service serve` and `reviews-service import <file> [--replace]`. */
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { ConfigError, loadConfig } from './config/index.js'
import { importFile, ImportFileError } from './ingest/index.js'
import { startService } from './main.js'
import { isWorker, reportServing, superviseWorkers } from './workers/index.js'
import { NoBusinessError, openStore } from './store/index.js'

const USAGE = `usage:
  reviews-service serve                      serve the API (PORT, HOST, BASE_URL, DATABASE_URL, LOG_LEVEL)
  reviews-service import <file> [--replace]  import a JSON (reviews.json shape) or CSV file into DATABASE_URL`

async function serve(): Promise<void> {
  const config = loadConfig()
  if (config.workers > 1 && !isWorker()) return superviseWorkers(config.workers, pino({ level: config.logLevel, base: { service: 'reviews-service', pid: process.pid, role: 'primary' } }))
  const service = await startService(config)
  reportServing(service.address.port)
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // `on`, not `once`: in a cluster a worker may get the signal twice (from the terminal and from the primary).
    process.on(signal, () => {
      service.log.info({ signal }, 'draining in-flight requests and stopping')
      service.stop().then(
        () => process.exit(0),
        (err: unknown) => {
          service.log.error({ err }, 'unclean stop')
          process.exit(1)
        }
      )
    })
  }
}

async function runImport(args: string[]): Promise<void> {
  const { positionals, values } = parseImportArgs(args)
  if (positionals.length !== 1) throw new UsageError('import takes exactly one file')
  const store = await openStore(loadConfig().databaseUrl)
  try {
    const r = await importFile(store, positionals[0]!, { replace: values.replace })
    const summary = `${r.added} added, ${r.updated} updated, ${r.removed} removed, ${r.unchanged} unchanged${r.businessChanged ? ', business updated' : ''}`
    console.log(r.changed ? `imported: ${summary}; data version is now ${r.version}` : `nothing published changed (${summary}); data version stays ${r.version}`)
  } finally {
    await store.close()
  }
}

class UsageError extends Error {}

function parseImportArgs(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, options: { replace: { type: 'boolean', default: false } } })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === 'serve' && rest.length === 0) return serve()
  if (command === 'import') return runImport(rest)
  throw new UsageError(command ? `unknown command "${command}"` : 'missing command')
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) console.error(`${err.message}\n${USAGE}`)
  else if (err instanceof ImportFileError || err instanceof ConfigError || err instanceof NoBusinessError) console.error(err.message)
  else console.error(err)
  process.exit(err instanceof UsageError ? 64 : 1)
})
