import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { MIGRATIONS_DIR, migrateToLatest } from '@signals/db'

/** The shared server tests run against (DESIGN.md defaults), overridable for a private one. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432'

const TEST_DB_PREFIX = 'signals_test_'

async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` })
  client.on('error', () => undefined)
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A name that changes whenever a migration file changes, so every worktree and branch gets its own template. */
async function templateName(): Promise<string> {
  const hash = createHash('sha256')
  for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(file)
    hash.update(await readFile(path.join(MIGRATIONS_DIR, file)))
  }
  return `signals_template_${hash.digest('hex').slice(0, 12)}`
}

/**
 * Creates (once) a migrated template database. Concurrent callers serialise on an advisory lock, so the
 * template is built by exactly one of them.
 */
export async function ensureTemplateDatabase(serverUrl = TEST_SERVER_URL): Promise<string> {
  const name = await templateName()
  await withAdminClient(serverUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock(7401)')
    try {
      const { rows } = await client.query<{ datname: string; datistemplate: boolean }>(
        'SELECT datname, datistemplate FROM pg_database WHERE datname = $1',
        [name],
      )
      if (rows[0]?.datistemplate) return
      if (rows[0]) await client.query(`DROP DATABASE "${name}"`)
      const building = `${name}_building`
      await client.query(`DROP DATABASE IF EXISTS "${building}"`)
      await client.query(`CREATE DATABASE "${building}"`)
      const { error } = await migrateToLatest(`${serverUrl}/${building}`)
      if (error) throw error
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`)
      await client.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true`)
    } finally {
      await client.query('SELECT pg_advisory_unlock(7401)')
    }
  })
  return name
}

export interface TestDatabase {
  name: string
  url: string
  drop(): Promise<void>
}

/** A fresh, migrated database of its own for one test file, cloned from the template in milliseconds. */
export async function createTestDatabase(serverUrl = TEST_SERVER_URL): Promise<TestDatabase> {
  const template = await ensureTemplateDatabase(serverUrl)
  const name = `${TEST_DB_PREFIX}${Date.now()}_${randomBytes(4).toString('hex')}`
  await withAdminClient(serverUrl, async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)
        return
      } catch (error) {
        // Another clone was reading the template at that instant (55006): try again shortly.
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
      }
    }
  })
  return {
    name,
    url: `${serverUrl}/${name}`,
    drop: () =>
      withAdminClient(serverUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      }),
  }
}

/** Drops test databases left behind by runs that crashed more than `olderThanMs` ago. */
export async function dropStaleTestDatabases(olderThanMs = 2 * 60 * 60 * 1000, serverUrl = TEST_SERVER_URL): Promise<number> {
  return withAdminClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${TEST_DB_PREFIX}%`,
    ])
    let dropped = 0
    for (const { datname } of rows) {
      const createdAt = Number(datname.slice(TEST_DB_PREFIX.length).split('_')[0])
      if (Number.isFinite(createdAt) && Date.now() - createdAt > olderThanMs) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
        dropped++
      }
    }
    return dropped
  })
}
