import { sql, type Kysely } from 'kysely'

// A partial close's (or a source's exit's) order that the broker accepted and then ended short of its fill:
// the brackets cut for it are put back (docs/decisions/targets-breakeven.md, "Stop 37's review", its MED done in stop 38). The
// connector may be away when the order ends, so the session's next open looks at the day's ended closes:
// put_back_orders: the close's orders (broker ids) whose put-back was done, under the contract's exit lock, so
// none is done twice. Per order, not per request: a close refused with an order id (listed Rejected under its
// tag) is sent again under the same tag, and that order may end unfilled too.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE flatten_requests ADD COLUMN put_back_orders bigint[] NOT NULL DEFAULT '{}'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('flatten_requests').dropColumn('put_back_orders').execute()
}
