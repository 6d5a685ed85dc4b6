import { sql, type Kysely } from 'kysely'

// Issue 24 items 1-3 (docs/decisions/order-words.md).
// alerts.order_word: an entry that changes the open position (`reverse`, `add`), as ingest published it.
// flatten_requests.close_part: a partial close ({quantity, percent, remaining}, one set); null closes the
// whole position. Partial closes never merge with another request, so the one-pending-per-contract key
// covers whole flattens only; a partial close is kept once per alert. part_sent_at: its order was about to
// leave (committed first), so it is never sent twice, only looked for by its tag.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').addColumn('order_word', 'text').execute()
  await db.schema.alterTable('flatten_requests').addColumn('close_part', 'jsonb').addColumn('part_sent_at', 'timestamptz').execute()
  await sql`DROP INDEX flatten_requests_pending_key`.execute(db)
  await sql`CREATE UNIQUE INDEX flatten_requests_pending_key ON flatten_requests (user_id, contract) WHERE done_at IS NULL AND close_part IS NULL`.execute(db)
  await sql`CREATE UNIQUE INDEX flatten_requests_part_key ON flatten_requests (user_id, contract, alert_id) WHERE close_part IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS flatten_requests_part_key`.execute(db)
  await sql`DELETE FROM flatten_requests WHERE close_part IS NOT NULL`.execute(db)
  await sql`DROP INDEX IF EXISTS flatten_requests_pending_key`.execute(db)
  await sql`CREATE UNIQUE INDEX flatten_requests_pending_key ON flatten_requests (user_id, contract) WHERE done_at IS NULL`.execute(db)
  await sql`ALTER TABLE flatten_requests DROP COLUMN IF EXISTS close_part, DROP COLUMN IF EXISTS part_sent_at`.execute(db)
  await sql`ALTER TABLE alerts DROP COLUMN IF EXISTS order_word`.execute(db)
}
