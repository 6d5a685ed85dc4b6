import { sql, type Kysely } from 'kysely'

// Issue 23 follow-up, "own legs persisted" (docs/decisions/projectx-adapter.md, "Our legs"). A ProjectX account
// that refuses brackets gets its entry without them and the stop and target from the connector at each fill.
// The plan waited in process memory, so only market entries were taken. Kept here per record, written before
// the entry is sent, so whichever instance holds the session after a restart places or grows the legs on the
// fills it sees (live, or in the snapshot at session open):
// - own_leg_plans: the entry's tag (its record's `sig-<id>`, or a remainder's `sig-<id>.m`), account, contract, the legs' side, and the fills counted so far (`filled`);
// - own_legs: each leg (`sl`, `tp`) with its price, its order once answered or found by tag, the fills it was
//   sized for (`covered`), `sent_at` written before its Order/place goes (sent once; a lost answer is looked
//   for by the leg's tag), `resent_at` when that lookup found nothing and it was sent once more (ProjectX refuses a
//   used customTag: never two legs), and `outcome` when ProjectX refused it (not sent again);
// - own_leg_fills: each entry fill counted once (by ProjectX's trade id), whichever instance saw it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('own_leg_plans')
    .addColumn('tag', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('record_id', 'bigint', (col) => col.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('broker_account_id', 'bigint', (col) => col.notNull())
    .addColumn('contract_id', 'text', (col) => col.notNull())
    .addColumn('side', 'smallint', (col) => col.notNull())
    .addColumn('filled', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('own_leg_plans_record').on('own_leg_plans').column('record_id').execute()
  await db.schema
    .createTable('own_legs')
    .addColumn('tag', 'varchar(64)', (col) => col.notNull().references('own_leg_plans.tag').onDelete('cascade'))
    .addColumn('leg', 'text', (col) => col.notNull().check(sql`leg IN ('sl', 'tp')`))
    .addColumn('price', 'numeric', (col) => col.notNull())
    .addColumn('order_id', 'bigint')
    .addColumn('covered', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('resent_at', 'timestamptz')
    .addColumn('outcome', 'text')
    .addPrimaryKeyConstraint('own_legs_pkey', ['tag', 'leg'])
    .execute()
  await db.schema
    .createTable('own_leg_fills')
    .addColumn('tag', 'varchar(64)', (col) => col.notNull().references('own_leg_plans.tag').onDelete('cascade'))
    .addColumn('trade_id', 'bigint', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('counted_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('own_leg_fills_pkey', ['tag', 'trade_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('own_leg_fills').execute()
  await db.schema.dropTable('own_legs').execute()
  await db.schema.dropTable('own_leg_plans').execute()
}
