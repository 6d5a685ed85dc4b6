import { sql, type Kysely } from 'kysely'

// Session rules (issue 24 item 8, docs/decisions/risk-engine.md "Session rules"). `news_events` is the
// administrator's calendar of news (time, name, minutes before and after): entries are refused in
// [at - before, at + after] for traders whose configuration asks for news blackouts. `daily_flattens`
// records the daily flatten done for a user and CME trading day, so a restarted connector neither flattens
// twice nor misses one (claimed before the flatten, marked done after it;
// a claim never marked done is taken again).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('news_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('minutes_before', 'integer', (c) => c.notNull().check(sql`minutes_before BETWEEN 0 AND 1440`))
    .addColumn('minutes_after', 'integer', (c) => c.notNull().check(sql`minutes_after BETWEEN 0 AND 1440`))
    .addColumn('created_by', 'varchar(255)')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`CREATE INDEX news_events_at_idx ON news_events (at)`.execute(db)

  await db.schema
    .createTable('daily_flattens')
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('trading_day', 'date', (c) => c.notNull())
    .addColumn('flatten_at', 'varchar(5)', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Null while the flatten is under way: a claim left so (the instance died mid-flatten) is taken again after a minute.
    .addColumn('done_at', 'timestamptz')
    .addPrimaryKeyConstraint('daily_flattens_pkey', ['user_id', 'trading_day'])
    .execute()

  // A trader's flatten at the start of a news event's blackout (flattenBeforeNews), once per event.
  await db.schema
    .createTable('news_flattens')
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('news_event_id', 'bigint', (c) => c.notNull().references('news_events.id').onDelete('cascade'))
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('done_at', 'timestamptz')
    .addPrimaryKeyConstraint('news_flattens_pkey', ['user_id', 'news_event_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('news_flattens').ifExists().execute()
  await db.schema.dropTable('daily_flattens').ifExists().execute()
  await db.schema.dropTable('news_events').ifExists().execute()
}
