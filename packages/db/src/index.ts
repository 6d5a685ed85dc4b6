export * from './schema.ts'
export { createDb, isDatabaseReachable, type CreateDbOptions, type DbLogger } from './create-db.ts'
export { migrateToLatest, ensureDatabase, MIGRATIONS_DIR } from './migrate.ts'
export { sql, type Kysely, type Transaction } from 'kysely'
