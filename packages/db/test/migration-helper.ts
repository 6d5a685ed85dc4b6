import type { Test } from 'tap'
import pg from 'pg'
import { readdir } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { TEST_SERVER_URL } from '@signals/test-support'
import { ensureDatabase, migrateTo, MIGRATIONS_DIR } from '../src/index.ts'

/** The migration just before `name`, by the files' order. */
export async function migrationBefore(name: string): Promise<string> {
  const names = (await readdir(MIGRATIONS_DIR)).map((file) => file.replace(/\.[jt]s$/, '')).filter((each) => /^\d{14}_/.test(each)).sort()
  const before = names.filter((each) => each < name).at(-1)
  if (!before) throw new Error(`no migration before ${name}`)
  return before
}

/**
 * A database of its own at the schema just before `migration` (dropped after the test), and a client on it:
 * a migration of existing rows is tested on rows written before it. `label` ends the database's name.
 */
export async function databaseBefore(t: Test, migration: string, label: string): Promise<{ client: pg.Client; url: string }> {
  const name = `signals_test_${Date.now()}_${randomBytes(3).toString('hex')}_${label}`
  const url = `${TEST_SERVER_URL}/${name}`
  await ensureDatabase(url)
  const client = new pg.Client({ connectionString: url })
  t.teardown(async () => {
    await client.end()
    const admin = new pg.Client({ connectionString: `${TEST_SERVER_URL}/postgres` })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await admin.end()
  })
  const before = await migrateTo(url, await migrationBefore(migration))
  t.error(before.error)
  t.notOk(before.results?.some((r) => r.migrationName === migration), 'the database is at the schema before the migration')
  await client.connect()
  return { client, url }
}
