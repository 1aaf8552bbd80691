import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'
import { importFile } from '../../src/ingest/index.js'
import { startService, type Service } from '../../src/main.js'
import { openStore } from '../../src/store/index.js'
import { testDatabaseUrl } from './database.js'
import { writeJson } from './fixtures.js'

export interface TestService {
  /** Where the test talks to the server: http://127.0.0.1:<port> */
  url: string
  /** The configured public base URL, used in Link headers and feed URLs. */
  baseUrl: string
  dir: string
  databaseUrl: string
  service: Service
  stop(): Promise<void>
}

export interface TestServiceOptions {
  /** A reviews.json-shaped document imported before start; without it the demo data is seeded. */
  data?: unknown
  env?: Record<string, string>
}

/** Starts the real service on an ephemeral loopback port with a database of its own (see testDatabaseUrl). */
export async function startTestService(o: TestServiceOptions = {}): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'reviews-test-'))
  const databaseUrl = await testDatabaseUrl(dir)
  if (o.data) {
    const store = await openStore(databaseUrl)
    await importFile(store, writeJson(dir, 'seed.json', o.data), { replace: false })
    await store.close()
  }
  const baseUrl = o.env?.BASE_URL ?? 'https://reviews.test'
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', BASE_URL: baseUrl, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', POLL_INTERVAL_MS: '100', METRICS_PORT: '0', ...o.env })
  const service = await startService(config)
  return {
    url: `http://127.0.0.1:${service.address.port}`,
    baseUrl,
    dir,
    databaseUrl,
    service,
    async stop() {
      await service.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
