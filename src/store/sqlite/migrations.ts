import type { Database } from 'better-sqlite3'

interface Migration {
  id: number
  name: string
  sql: string
}

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
