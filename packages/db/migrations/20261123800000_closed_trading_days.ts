import { sql, type Kysely } from 'kysely'

// Deciding an entry needs a user's closed trades summed per CME trading day (balance, peaks, daily pnl,
// trading days), not the trades themselves: Postgres sums them, so the connector reads one row per
// day traded however long the history. `cme_trading_day` is the SQL twin of `tradingDayOf` in
// @signals/instruments (the session rolls at 17:00 America/Chicago; Saturday and Sunday belong to
// Monday), and a test holds the two to the same answers. The index serves the per-user walk in close
// order without a sort of the table.
export async function up(db: Kysely<any>): Promise<void> {
  // Two one-expression SQL functions, so the planner inlines them: a function with a FROM clause is called
  // row by row and cost four times as much over a long history.
  await sql`
    CREATE FUNCTION monday_if_weekend(day date) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT day + CASE ((day - DATE '2000-01-03') % 7 + 7) % 7 WHEN 5 THEN 2 WHEN 6 THEN 1 ELSE 0 END
    $$`.execute(db)
  await sql`
    CREATE FUNCTION cme_trading_day(at timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT monday_if_weekend(((at AT TIME ZONE 'America/Chicago') + interval '7 hours')::date)
    $$`.execute(db)
  await sql`CREATE INDEX trades_user_closed_idx ON trades (user_id, closed_at, id) INCLUDE (pnl) WHERE status = 'closed'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS trades_user_closed_idx`.execute(db)
  await sql`DROP FUNCTION IF EXISTS cme_trading_day(timestamptz)`.execute(db)
  await sql`DROP FUNCTION IF EXISTS monday_if_weekend(date)`.execute(db)
}
