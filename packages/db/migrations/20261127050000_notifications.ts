import { sql, type Kysely } from 'kysely'

// Notifications (issue 25 item 8, docs/decisions/notifications.md). A trader's channels (e-mail, Telegram,
// Discord, signed webhook), each with its secret sealed like broker credentials and its event filter; one
// delivery per channel and event, retried with backoff by the settings service's dispatcher.
//
// The events come from triggers on the tables the order path already writes: a refused or failed alert
// record, a trade opened by a broker fill, a closed trade, a risk halt or a daily-loss refusal. A trigger
// writes a `notification_events` row in the same transaction (only for a user who has an enabled
// channel, and only on the transitions named in the WHEN clauses, so the order path's other writes do not
// even call the function); settings publishes the rows on `notify.events` after commit. Nothing on the
// order path ever waits for a channel.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_channels')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind IN ('email', 'telegram', 'discord', 'webhook')`))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('events', sql`text[]`, (c) => c.notNull())
    // What may be shown (e-mail addresses, SMTP host, chat id, webhook URL); the secret part is sealed below.
    .addColumn('settings', 'jsonb', (c) => c.notNull())
    .addColumn('key_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('secret_iv', 'bytea', (c) => c.notNull())
    .addColumn('secret_tag', 'bytea', (c) => c.notNull())
    .addColumn('secret_ciphertext', 'bytea', (c) => c.notNull())
    .addColumn('last_sent_at', 'timestamptz')
    .addColumn('last_failed_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`CREATE INDEX notification_channels_user_idx ON notification_channels (user_id, created_at)`.execute(db)

  await db.schema
    .createTable('notification_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    // The event id on the bus: one row per happening however often the trigger fires for it.
    .addColumn('event_key', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published_at', 'timestamptz')
    .execute()
  await sql`CREATE INDEX notification_events_unpublished_idx ON notification_events (id) WHERE published_at IS NULL`.execute(db)

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('channel_id', 'uuid', (c) => c.notNull().references('notification_channels.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull().defaultTo('pending').check(sql`status IN ('pending', 'sent', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addUniqueConstraint('notification_deliveries_channel_event_key', ['channel_id', 'event_id'])
    .execute()
  await sql`CREATE INDEX notification_deliveries_due_idx ON notification_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(db)
  await sql`CREATE INDEX notification_deliveries_user_idx ON notification_deliveries (user_id, id DESC)`.execute(db)

  // The trading day ends at 17:00 Chicago: one daily-loss notice per user, day and limit.
  await sql`
    CREATE FUNCTION record_notification_event(p_user_id text, p_kind text, p_key text, p_details jsonb) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF p_user_id IS NULL OR NOT EXISTS (SELECT 1 FROM notification_channels WHERE user_id = p_user_id AND enabled) THEN
        RETURN;
      END IF;
      -- A notice must never fail the order path's write: any error here is a warning, and the write goes on.
      BEGIN
        INSERT INTO notification_events (user_id, kind, event_key, details) VALUES (p_user_id, p_kind, p_key, p_details)
        ON CONFLICT (event_key) DO NOTHING;
      EXCEPTION WHEN OTHERS THEN
        RAISE WARNING 'notification event % not recorded: %', p_key, SQLERRM;
      END;
    END $$`.execute(db)
  await sql`
    CREATE FUNCTION notification_trading_day() RETURNS text LANGUAGE sql STABLE AS $$
      SELECT to_char((now() AT TIME ZONE 'America/Chicago') + interval '7 hours', 'YYYY-MM-DD')
    $$`.execute(db)
  await sql`
    CREATE FUNCTION notification_event_of_alert() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      kind text := CASE NEW.status WHEN 'refused' THEN 'order_refused' ELSE 'order_failed' END;
      details jsonb := jsonb_build_object('alertRecordId', NEW.id, 'symbol', NEW.symbol, 'action', NEW.action,
        'reason', NEW.reason, 'refusalCode', NEW.refusal_code);
    BEGIN
      PERFORM record_notification_event(NEW.user_id, kind, kind || ':alert:' || NEW.id, details);
      IF NEW.refusal_code IN ('daily_loss_limit', 'daily_loss_limit_hard') THEN
        PERFORM record_notification_event(NEW.user_id, 'daily_loss',
          'daily_loss:' || md5(NEW.user_id) || ':' || notification_trading_day() || ':' || NEW.refusal_code, details);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER alerts_notification_event AFTER INSERT OR UPDATE OF status ON alerts FOR EACH ROW
    WHEN (NEW.user_id IS NOT NULL AND NEW.status IN ('refused', 'failed'))
    EXECUTE FUNCTION notification_event_of_alert()`.execute(db)
  await sql`
    CREATE FUNCTION notification_event_of_trade() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      details jsonb := jsonb_build_object('tradeId', NEW.id, 'symbol', NEW.symbol, 'contract', NEW.contract, 'side', NEW.side,
        'quantity', trim_scale(NEW.quantity)::text, 'entryPrice', trim_scale(NEW.entry_price)::text, 'exitPrice', trim_scale(NEW.exit_price)::text,
        'result', NEW.result, 'pnl', NEW.pnl::text, 'closeReason', NEW.close_reason);
    BEGIN
      IF NEW.status = 'closed' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'closed') THEN
        PERFORM record_notification_event(NEW.user_id, 'trade_closed', 'trade_closed:trade:' || NEW.id, details);
      ELSIF TG_OP = 'INSERT' AND NEW.status = 'open' AND NEW.broker IS NOT NULL THEN
        PERFORM record_notification_event(NEW.user_id, 'fill', 'fill:trade:' || NEW.id, details);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER trades_notification_event AFTER INSERT OR UPDATE OF status ON trades FOR EACH ROW
    WHEN (NEW.status IN ('open', 'closed'))
    EXECUTE FUNCTION notification_event_of_trade()`.execute(db)
  await sql`
    CREATE FUNCTION notification_event_of_risk_halt() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM record_notification_event(NEW.user_id, 'daily_loss',
        'daily_loss:' || md5(NEW.user_id) || ':' || notification_trading_day() || ':' || NEW.code,
        jsonb_build_object('code', NEW.code, 'reason', NEW.reason, 'openPnl', NEW.open_pnl::text));
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER risk_halts_notification_event AFTER INSERT ON risk_halts FOR EACH ROW EXECUTE FUNCTION notification_event_of_risk_halt()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS risk_halts_notification_event ON risk_halts`.execute(db)
  await sql`DROP TRIGGER IF EXISTS trades_notification_event ON trades`.execute(db)
  await sql`DROP TRIGGER IF EXISTS alerts_notification_event ON alerts`.execute(db)
  await sql`DROP FUNCTION IF EXISTS notification_event_of_risk_halt()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS notification_event_of_trade()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS notification_event_of_alert()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS notification_trading_day()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS record_notification_event(text, text, text, jsonb)`.execute(db)
  await db.schema.dropTable('notification_deliveries').ifExists().execute()
  await db.schema.dropTable('notification_events').ifExists().execute()
  await db.schema.dropTable('notification_channels').ifExists().execute()
}
