import type { Kysely } from 'kysely'

// Stop 35 review of the late-close naming (docs/decisions/projectx-adapter.md, "Its fill is the record's"). A
// late fill's close goes by `Position/partialCloseContract`, which takes no tag and answers without the order's
// id: its order is known by its shape (contract, side, size, Market) and its creation time. What was kept in
// process memory only was lost at a deploy before the order was seen, and its fill went first in, first out
// to another record's trade. Kept per close (a plan may close late contracts more than once):
// - sent_at: written (our clock) just before the close goes; the order taken for it is one created from then
//   on (a few seconds' skew allowed), so an older untagged order of the same shape is never taken;
// - size: the contracts it closes;
// - order_id: the order taken for it, once seen: every later list (and the next instance) names it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('own_leg_late_closes')
    .addColumn('tag', 'varchar(64)', (col) => col.notNull().references('own_leg_plans.tag').onDelete('cascade'))
    .addColumn('sent_at', 'timestamptz', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('order_id', 'bigint')
    .addPrimaryKeyConstraint('own_leg_late_closes_pkey', ['tag', 'sent_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('own_leg_late_closes').execute()
}
