import type { Kysely } from 'kysely'

// Issue 24, item 4 (docs/decisions/targets-breakeven.md, "The last pair"): when the broker refuses the last
// target's pair after the whole-position stop was cancelled to make room for it, a lone stop is placed for
// the contracts left without one. Claimed here (committed) before it is sent, so it is sent once.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('trades').addColumn('lone_stop_claimed_at', 'timestamptz').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('trades').dropColumn('lone_stop_claimed_at').execute()
}
