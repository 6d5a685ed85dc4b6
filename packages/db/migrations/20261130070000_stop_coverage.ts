import { sql, type Kysely } from 'kysely'

// Issue 24, item 4 (docs/decisions/targets-breakeven.md, "The last pair" and "Stops against the position"):
// - when the broker refuses the last target's pair after the whole-position stop was cancelled to make room
//   for it, a lone stop is placed for the contracts left without one, claimed here (committed) before it is
//   sent, so it is sent once;
// - the reconciler tells the trader when a position's working stops close fewer or more contracts than are
//   held (`stops_differ`). The kind's check is found by its text and replaced.
const KINDS = ['untracked_position', 'broker_flat', 'quantity_differs', 'stray_order']

async function setKinds(db: Kysely<any>, kinds: readonly string[]): Promise<void> {
  const found = await sql<{ name: string }>`
    SELECT conname AS name FROM pg_constraint
    WHERE conrelid = 'position_discrepancies'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%(kind)::text = ANY%'`.execute(db)
  for (const { name } of found.rows) await sql`ALTER TABLE position_discrepancies DROP CONSTRAINT ${sql.ref(name)}`.execute(db)
  const list = sql.raw(kinds.map((kind) => `'${kind}'`).join(', '))
  await sql`ALTER TABLE position_discrepancies ADD CONSTRAINT position_discrepancies_kind_check CHECK (kind IN (${list}))`.execute(db)
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('trades').addColumn('lone_stop_claimed_at', 'timestamptz').execute()
  await setKinds(db, [...KINDS, 'stops_differ'])
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM position_discrepancies WHERE kind = 'stops_differ'`.execute(db)
  await setKinds(db, KINDS)
  await db.schema.alterTable('trades').dropColumn('lone_stop_claimed_at').execute()
}
