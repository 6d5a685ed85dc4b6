import { sql, type Kysely } from 'kysely'

// Issue 20 (money safety): exactly one order per record. `sent_at` is when a record's send was marked
// (just before the order left), on Postgres' clock: a record left `placing` is settled by its tag at the
// broker or, once `ENTRY_OUTCOME_GRACE_MS` has passed since then, failed "outcome unknown" (never sent
// again). Records the old code marked have no `sent_at`; their alert's time stands in. The partial
// index serves the connector's sweep of records left `received` or `placing`.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').addColumn('sent_at', 'timestamptz').execute()
  await sql`UPDATE alerts SET sent_at = received_at WHERE status = 'placing'`.execute(db)
  await sql`CREATE INDEX alerts_unsettled_idx ON alerts (id) WHERE status IN ('received', 'placing')`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS alerts_unsettled_idx`.execute(db)
  await db.schema.alterTable('alerts').dropColumn('sent_at').execute()
}
