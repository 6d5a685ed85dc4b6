import type { Kysely } from 'kysely'

// Issue 21 item 5 (docs/decisions/observability.md, "Admin replays"): the W3C traceparent of the webhook's
// request span at ingest, while tracing was on, so an administrator's replay links the original trace.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('intake_log').addColumn('traceparent', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('intake_log').dropColumn('traceparent').execute()
}
