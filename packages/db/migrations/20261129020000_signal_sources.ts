import { sql, type Kysely } from 'kysely'

// Issue 22 items 3-5 (docs/decisions/signal-sources.md). A signal source is a named webhook URL
// (`/webhook/s/<token>`): only the token's SHA-256 is kept. A trader's source has its owner; an operator
// source (made by an administrator) has none. Deleting a source or banning its owner revokes it (the row
// stays, so records keep naming their source).
//
// Ingest has no database: it reads the SIGNAL_SOURCES key-value bucket (token hash -> source). The trigger
// below queues every hash whose entry must be recomputed (created, rotated away, revoked); the settings
// service's relay writes or deletes the bucket's entry from the rows as they are at that moment.
//
// Subscriptions are per trader while a trader has one account; the multi-account work adds `account_id`
// (and moves the key to source + account).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signal_sources')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('owner_user_id', 'varchar(255)', (c) => c.references('users.user_id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('rotated_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute()
  await sql`CREATE INDEX signal_sources_owner_idx ON signal_sources (owner_user_id, created_at) WHERE revoked_at IS NULL`.execute(db)

  await db.schema
    .createTable('signal_source_subscriptions')
    .addColumn('source_id', 'uuid', (c) => c.notNull().references('signal_sources.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    // `account`: the account's own risk sizing; `multiplier`: the alert's quantity times `multiplier`.
    .addColumn('size_rule', 'varchar(16)', (c) => c.notNull().check(sql`size_rule IN ('account', 'multiplier')`))
    .addColumn('multiplier', 'numeric')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('signal_source_subscriptions_pkey', ['source_id', 'user_id'])
    .addCheckConstraint('signal_source_subscriptions_multiplier', sql`(size_rule = 'multiplier') = (multiplier IS NOT NULL AND multiplier > 0)`)
    .execute()
  await sql`CREATE INDEX signal_source_subscriptions_user_idx ON signal_source_subscriptions (user_id)`.execute(db)

  await db.schema
    .createTable('signal_source_key_changes')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('token_hash', 'char(64)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`
    CREATE FUNCTION signal_source_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN INSERT INTO signal_source_key_changes (token_hash) VALUES (OLD.token_hash); END IF;
      IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.token_hash <> OLD.token_hash) THEN
        INSERT INTO signal_source_key_changes (token_hash) VALUES (NEW.token_hash);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER signal_source_key_changed AFTER INSERT OR DELETE OR UPDATE OF token_hash, revoked_at ON signal_sources
    FOR EACH ROW EXECUTE FUNCTION signal_source_key_changed()`.execute(db)

  // The source an alert record came from (null: the spec's `POST /webhook/alert`).
  await db.schema.alterTable('alerts').addColumn('source_id', 'uuid', (c) => c.references('signal_sources.id').onDelete('set null')).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').dropColumn('source_id').execute()
  await db.schema.dropTable('signal_source_key_changes').execute()
  await sql`DROP FUNCTION signal_source_key_changed() CASCADE`.execute(db)
  await db.schema.dropTable('signal_source_subscriptions').execute()
  await db.schema.dropTable('signal_sources').execute()
}
