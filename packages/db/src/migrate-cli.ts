import { Env, loadConfigOrExit, Type } from '@signals/config'
import { ensureDatabase, migrateToLatest } from './migrate.ts'

const config = loadConfigOrExit('migrate', Type.Object({ DATABASE_URL: Env.DATABASE_URL }))
await ensureDatabase(config.DATABASE_URL)
const { error, results } = await migrateToLatest(config.DATABASE_URL)
for (const result of results ?? []) {
  process.stdout.write(`migration ${result.migrationName}: ${result.status}\n`)
}
if (error) {
  process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
if ((results ?? []).length === 0) process.stdout.write('migrations: database is up to date\n')
