import type { Database } from 'better-sqlite3'
import type { Migration } from '../types.js'

/** Append only: a migration, once released, never changes. */
const MIGRATIONS: Migration[] = [
  {
    id: 1,
    name: 'reviews, business and the data version',
    sql: `
      CREATE TABLE data_version (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL,
        changed_at TEXT NOT NULL
      );
      INSERT INTO data_version (id, version, changed_at) VALUES (1, 0, '1970-01-01T00:00:00.000Z');
      CREATE TABLE business (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        doc TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE reviews (
        id TEXT PRIMARY KEY,
        doc TEXT NOT NULL,
        verified INTEGER NOT NULL,
        date TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX reviews_verified ON reviews (verified);
    `
  },
  {
    id: 2,
    name: 'WebSub subscriptions and verification intents',
    sql: `
      CREATE TABLE websub_subscriptions (
        topic TEXT NOT NULL,
        callback TEXT NOT NULL,
        callback_host TEXT NOT NULL,
        secret TEXT,
        lease_seconds INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        delivered_version INTEGER NOT NULL,
        failures INTEGER NOT NULL,
        next_attempt_at INTEGER,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (topic, callback)
      ) WITHOUT ROWID;
      CREATE INDEX websub_subscriptions_host ON websub_subscriptions (callback_host, expires_at);
      -- In a WITHOUT ROWID table an index ends with the primary key: this one is in the order the outbox reads.
      CREATE INDEX websub_subscriptions_owed ON websub_subscriptions (delivered_version);
      CREATE TABLE websub_intents (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
        topic TEXT NOT NULL,
        callback TEXT NOT NULL,
        secret TEXT,
        lease_seconds INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
    `
  },
  {
    id: 3,
    name: 'many nodes: claims, cluster-wide hub counters, MCP sessions, rate windows, first-seen times',
    sql: `
      ALTER TABLE websub_subscriptions ADD COLUMN claimed_by TEXT;
      ALTER TABLE websub_subscriptions ADD COLUMN claim_until INTEGER;
      ALTER TABLE websub_intents ADD COLUMN claimed_by TEXT;
      ALTER TABLE websub_intents ADD COLUMN claim_until INTEGER;
      CREATE INDEX websub_intents_key ON websub_intents (topic, callback, id);
      CREATE TABLE websub_counters (
        topic TEXT PRIMARY KEY,
        verifications_succeeded INTEGER NOT NULL DEFAULT 0,
        verifications_failed INTEGER NOT NULL DEFAULT 0,
        deliveries INTEGER NOT NULL DEFAULT 0,
        delivery_failures INTEGER NOT NULL DEFAULT 0,
        removed_failures INTEGER NOT NULL DEFAULT 0,
        removed_gone INTEGER NOT NULL DEFAULT 0,
        removed_expired INTEGER NOT NULL DEFAULT 0,
        removed_unsubscribed INTEGER NOT NULL DEFAULT 0,
        last_delivery_at INTEGER,
        delivered_version INTEGER
      ) WITHOUT ROWID;
      CREATE TABLE store_meta (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        created_at INTEGER NOT NULL
      );
      INSERT INTO store_meta (id, created_at) VALUES (1, CAST(unixepoch('subsec') * 1000 AS INTEGER));
      CREATE TABLE first_seen (
        key TEXT PRIMARY KEY,
        at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE mcp_sessions (
        id TEXT PRIMARY KEY,
        protocol_version TEXT NOT NULL,
        client_info TEXT NOT NULL,
        client_capabilities TEXT NOT NULL,
        log_level TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_seen INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX mcp_sessions_last_seen ON mcp_sessions (last_seen);
      CREATE TABLE mcp_session_subscriptions (
        session_id TEXT NOT NULL,
        uri TEXT NOT NULL,
        PRIMARY KEY (session_id, uri)
      ) WITHOUT ROWID;
      CREATE TABLE rate_limits (
        key TEXT PRIMARY KEY,
        window_start INTEGER NOT NULL,
        count INTEGER NOT NULL
      ) WITHOUT ROWID;
    `
  },
  {
    id: 4,
    name: 'import runs, counted for the metrics',
    sql: `
      CREATE TABLE import_runs (
        outcome TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        last_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `
  }
]

export function migrate(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)')
  const applied = new Set(db.prepare('SELECT id FROM schema_migrations').pluck().all() as number[])
  const record = db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)')
  for (const m of MIGRATIONS) {
    if (applied.has(m.id)) continue
    db.transaction(() => {
      // Re-check inside the write lock: another process may have migrated meanwhile.
      if (db.prepare('SELECT 1 FROM schema_migrations WHERE id = ?').get(m.id)) return
      db.exec(m.sql)
      record.run(m.id, m.name, new Date().toISOString())
    }).immediate()
  }
}
