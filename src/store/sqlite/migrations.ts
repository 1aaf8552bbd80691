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
