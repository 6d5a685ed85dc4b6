import type { Kysely } from 'kysely'

// Issue 23, own legs on resting entries (docs/decisions/projectx-adapter.md, "Our legs"). A resting entry
// filled in parts may see its own stop or target close the trade while it still works; what it fills after
// that had no stop. Kept per plan, so whichever instance holds the session acts on it after a restart:
// - closed_at: written before the entry's rest is cancelled (the legs closed the trade, or were found done
//   while the entry filled again); from then on the entry's working rest is cancelled wherever it is found;
// - closed_filled: the entry's contracts the legs stood for then; any fill past it is late, without a stop;
// - flattened: the late contracts closed at the market by us, claimed before each closing order goes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('own_leg_plans')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_filled', 'integer')
    .addColumn('flattened', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('own_leg_plans').dropColumn('flattened').dropColumn('closed_filled').dropColumn('closed_at').execute()
}
