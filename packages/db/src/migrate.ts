import { readdir } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import path from 'node:path'
import pg from 'pg'
import { Kysely, Migrator, PostgresDialect, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely'

// From source, the TypeScript folder beside src/; compiled (dist/migrate.js), the JavaScript the build
// wrote to dist/migrations/. A migration's name is its file name without the extension either way.
const COMPILED = import.meta.url.endsWith('.js')
export const MIGRATIONS_DIR = fileURLToPath(new URL(COMPILED ? './migrations/' : '../migrations/', import.meta.url))
const MIGRATION_FILE = COMPILED ? /^\d{14}_[a-z0-9_]+\.js$/ : /^\d{14}_[a-z0-9_]+\.ts$/

/** Loads every `YYYYMMDDHHMMSS_name.ts` (compiled: `.js`) file in the migrations folder, in name order. */
class FolderMigrationProvider implements MigrationProvider {
  constructor(private readonly folder: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(this.folder)).filter((file) => MIGRATION_FILE.test(file)).sort()
    const migrations: Record<string, Migration> = {}
    for (const file of files) {
      const module = (await import(pathToFileURL(path.join(this.folder, file)).href)) as Migration
      migrations[file.replace(/\.[jt]s$/, '')] = module
    }
    return migrations
  }
}

/**
 * Applies every pending migration. Safe to run twice and from several processes at once: Kysely holds an
 * advisory lock while it migrates and skips what is already applied.
 */
export async function migrateToLatest(connectionString: string): Promise<MigrationResultSet> {
  const pool = new pg.Pool({ connectionString, max: 1 })
  pool.on('error', () => undefined)
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })
  try {
    const migrator = new Migrator({ db, provider: new FolderMigrationProvider(MIGRATIONS_DIR) })
    return await migrator.migrateToLatest()
  } finally {
    await db.destroy()
  }
}

/**
 * Applies the migrations up to and including `name` (or undoes those after it): a database at an earlier
 * schema, so a migration's data move can be tested on rows written before it.
 */
export async function migrateTo(connectionString: string, name: string): Promise<MigrationResultSet> {
  const pool = new pg.Pool({ connectionString, max: 1 })
  pool.on('error', () => undefined)
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })
  try {
    return await new Migrator({ db, provider: new FolderMigrationProvider(MIGRATIONS_DIR) }).migrateTo(name)
  } finally {
    await db.destroy()
  }
}

/** Creates the database named in `connectionString` when it does not exist yet. */
export async function ensureDatabase(connectionString: string): Promise<void> {
  const target = new URL(connectionString)
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''))
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Database name ${JSON.stringify(name)} is not a plain identifier`)
  const admin = new URL(connectionString)
  admin.pathname = '/postgres'
  const client = new pg.Client({ connectionString: admin.toString() })
  client.on('error', () => undefined)
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name}"`)
      } catch (error) {
        // Another process created it between our check and our CREATE.
        if ((error as { code?: string }).code !== '42P04') throw error
      }
    }
  } finally {
    await client.end()
  }
}
