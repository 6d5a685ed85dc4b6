import { sql, type Kysely } from 'kysely'

// Broker ids are unique per broker, environment and account, never across them (issue 20, item 5): the
// paper broker and Tradovate, Tradovate demo and live, each number their own orders and accounts, so one
// trader's order id colliding with another's no longer refuses (and, replayed, wedged) a trade. A trade
// records where its broker ids live. A broker event the connector cannot apply is set aside here with the
// reason, for support to see, instead of stopping the trader's session.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('trades')
    .addColumn('broker', 'varchar(20)', (c) => c.check(sql`broker IN ('paper', 'tradovate')`))
    .addColumn('environment', 'varchar(10)', (c) => c.check(sql`environment IN ('demo', 'live')`))
    .execute()
  // Trades opened from a fill before now: the venue of their owner's saved credentials, the best known.
  await sql`UPDATE trades t SET broker = c.broker, environment = c.environment
    FROM broker_credentials c WHERE c.user_id = t.user_id AND t.entry_order_id IS NOT NULL`.execute(db)
  await sql`DROP INDEX trades_entry_order_key`.execute(db)
  // NULLS NOT DISTINCT: a trade whose venue is unknown (no credentials left) keeps its order id unique among those.
  await sql`CREATE UNIQUE INDEX trades_entry_order_key ON trades (broker, environment, broker_account_id, entry_order_id)
    NULLS NOT DISTINCT WHERE entry_order_id IS NOT NULL`.execute(db)

  await db.schema
    .createTable('broker_events_set_aside')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('broker', 'varchar(20)', (c) => c.notNull().check(sql`broker IN ('paper', 'tradovate')`))
    .addColumn('environment', 'varchar(10)', (c) => c.notNull().check(sql`environment IN ('demo', 'live')`))
    .addColumn('broker_account_id', 'bigint', (c) => c.notNull())
    .addColumn('entity_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('entity_id', 'bigint', (c) => c.notNull())
    .addColumn('order_id', 'bigint')
    .addColumn('event', 'jsonb', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('times', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
  // One row per event however often a snapshot replays it.
  await sql`CREATE UNIQUE INDEX broker_events_set_aside_event_key
    ON broker_events_set_aside (user_id, broker, environment, broker_account_id, entity_type, entity_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('broker_events_set_aside').ifExists().execute()
  await sql`DROP INDEX IF EXISTS trades_entry_order_key`.execute(db)
  await sql`CREATE UNIQUE INDEX trades_entry_order_key ON trades (entry_order_id) WHERE entry_order_id IS NOT NULL`.execute(db)
  await db.schema.alterTable('trades').dropColumn('broker').dropColumn('environment').execute()
}
