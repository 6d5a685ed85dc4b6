import { sql, type Kysely } from 'kysely'

// Issue 23, item 4 (docs/decisions/projectx-adapter.md): the database takes broker 'projectx' wherever it
// checks the broker's name (broker-registry.md: a migration cannot read the registry, so the list is kept
// here). Each table's old check is found by its text and replaced by one naming the three brokers.

const TABLES = ['broker_credentials', 'trades', 'broker_events_set_aside', 'position_discrepancies'] as const

async function setBrokers(db: Kysely<any>, brokers: readonly string[]): Promise<void> {
  const list = sql.raw(brokers.map((broker) => `'${broker}'`).join(', '))
  for (const table of TABLES) {
    const found = await sql<{ name: string }>`
      SELECT conname AS name FROM pg_constraint
      WHERE conrelid = ${table}::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%(broker)::text = ANY%'`.execute(db)
    for (const { name } of found.rows) await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.ref(name)}`.execute(db)
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.ref(`${table}_broker_check`)} CHECK (broker IN (${list}))`.execute(db)
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await setBrokers(db, ['paper', 'tradovate', 'projectx'])
}

export async function down(db: Kysely<any>): Promise<void> {
  await setBrokers(db, ['paper', 'tradovate'])
}
