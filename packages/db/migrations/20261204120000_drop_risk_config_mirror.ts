import { sql, type Kysely } from 'kysely'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): the first mirror goes. The settings
// service now reads and writes the primary account's `account_risk_configs` row for the spec's routes, and
// the connector has read that table since stage 3b, so nothing reads or writes `risk_engine_configs` any more.
// A user's row not yet in their primary's (none expected: the trigger mirrored every write) is moved first;
// where both exist the account's row stays, it is the one the connector trades by. Then the trigger, its
// function and the table go. `broker_primary_account` stays: the other mirrors and the users trigger use it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    INSERT INTO account_risk_configs (account_id, user_id, config, preset, updated_at)
    SELECT broker_primary_account(r.user_id), r.user_id, r.config, r.preset, r.updated_at FROM risk_engine_configs r
    ON CONFLICT (account_id) DO NOTHING`.execute(db)
  await sql`DROP TRIGGER broker_primary_risk_config ON risk_engine_configs`.execute(db)
  await sql`DROP FUNCTION broker_primary_risk_config()`.execute(db)
  await db.schema.dropTable('risk_engine_configs').execute()
}

/** The per-user table again, filled from each primary's row, and its mirror. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('risk_engine_configs')
    .addColumn('user_id', 'varchar(255)', (c) => c.primaryKey().references('users.user_id').onDelete('cascade'))
    .addColumn('config', 'jsonb', (c) => c.notNull().check(sql`jsonb_typeof(config) = 'object'`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('preset', 'jsonb')
    .execute()
  await sql`
    INSERT INTO risk_engine_configs (user_id, config, preset, updated_at)
    SELECT r.user_id, r.config, r.preset, r.updated_at FROM account_risk_configs r JOIN broker_accounts a ON a.id = r.account_id AND a.is_primary`.execute(db)
  await sql`
    CREATE FUNCTION broker_primary_risk_config() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        DELETE FROM account_risk_configs r USING broker_accounts a WHERE r.account_id = a.id AND a.user_id = OLD.user_id AND a.is_primary;
        RETURN NULL;
      END IF;
      INSERT INTO account_risk_configs (account_id, user_id, config, preset, updated_at)
      VALUES (broker_primary_account(NEW.user_id), NEW.user_id, NEW.config, NEW.preset, NEW.updated_at)
      ON CONFLICT (account_id) DO UPDATE SET config = EXCLUDED.config, preset = EXCLUDED.preset, updated_at = EXCLUDED.updated_at;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER broker_primary_risk_config AFTER INSERT OR UPDATE OR DELETE ON risk_engine_configs FOR EACH ROW EXECUTE FUNCTION broker_primary_risk_config()`.execute(db)
}
