import type { Kysely } from 'kysely'

// A partial close's (or a source's exit's) order that the broker accepted and then ended short of its fill:
// the brackets cut for it are put back (docs/decisions/targets-breakeven.md, "Stop 37's review", its MED done in stop 38). The
// connector may be away when the order ends, so the session's next open looks at the day's ended closes:
// put_back_at says the put-back was done (held under the contract's exit lock), so it is never done twice.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('flatten_requests').addColumn('put_back_at', 'timestamptz').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('flatten_requests').dropColumn('put_back_at').execute()
}
