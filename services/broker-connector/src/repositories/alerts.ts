import { prepared, sql, storableJson, type Database, type Kysely } from '@signals/db'
import type { NormalizedAlert } from '@signals/contracts'
import { decimalText } from '../shared/decimal-text.ts'
import { unsettledEntryRecords } from './entry-records.ts'

/** A live alert record as the entry flow receives it. */
export interface NewAlertRecordRef {
  id: number
  userId: string
}

/**
 * raw_data holds the original payload; when parsing failed it carries `_raw: true` (intake rule 10)
 * even if ingest sent the raw text bare. Text jsonb cannot hold (a NUL) is escaped (storableJson).
 */
export function rawDataOf(alert: NormalizedAlert): string {
  const raw = storableJson(alert.raw)
  if (!alert.parseFailed) return JSON.stringify(raw ?? null)
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as Record<string, unknown>)._raw === true) {
    return JSON.stringify(raw)
  }
  return JSON.stringify({ _raw: true, raw })
}

/** The alert's own columns, the same for every record made from it (prices as exact decimal text). */
function alertColumns(alert: NormalizedAlert) {
  return {
    alertId: alert.alertId,
    owner: alert.userId,
    symbol: alert.symbol,
    root: alert.root,
    action: alert.action,
    entryPrice: decimalText(alert.entryPrice),
    sl: decimalText(alert.sl),
    tp: decimalText(alert.tp),
    indicator: alert.indicator,
    leverage: decimalText(alert.leverage),
    rawData: rawDataOf(alert),
    receivedAt: alert.receivedAt,
    quantity: decimalText(alert.quantity),
    orderWord: alert.orderWord ?? null,
    entryOrder: alert.entryOrder === undefined ? null : JSON.stringify(alert.entryOrder),
    instruction: alert.instruction === undefined ? null : JSON.stringify(alert.instruction),
    strategyPosition: alert.strategyPosition === undefined ? null : JSON.stringify(alert.strategyPosition),
    sourceId: alert.sourceId ?? null,
    exitPlan: alert.exitPlan === undefined ? null : JSON.stringify(alert.exitPlan),
    trailingStop: alert.trailingStop === undefined ? null : JSON.stringify(alert.trailingStop),
  }
}

export type Routing = 'fanout' | 'targeted'

/** What an entry alert's statement left: the records it created, else the live records it had already. */
export interface EntryAlertRecords {
  /** Records this call created (RETURNING: a redelivery creates none). */
  created: NewAlertRecordRef[]
  /** When it created none: this alert's records the entry flow has not settled (a crash's, or handed back). */
  unsettled: NewAlertRecordRef[]
}

/**
 * Intake rule 8 in one statement: one record per user whose live trading is enabled, read from
 * their primary account's switch (the partial index `broker_accounts_live_primary_idx` is exactly this set), or only the payload's user when routing is
 * targeted; never a trader who opted out of the spec's route (the default operator source). Approved,
 * unbanned users only (DESIGN decision 19): an account that cannot use the API gets no records. A signal source's alert goes to the source's subscribers (its owner alone for a trader's source)
 * and keeps its source on each record (`source_id`). The alert's own quantity is kept on each record (`alert_quantity`), with the subscription's multiplier of it when it sizes so (`size_multiplier`). Records already
 * written for this alert (a redelivery, another instance) are skipped by the unique key; RETURNING gives
 * only the rows this call created. Rows go in user order, so two instances writing the same alert take
 * the unique-key locks in the same order and never deadlock.
 *
 * When it creates nothing, the same statement reads the alert's unsettled records (a redelivery hands them
 * over), so an alert for no live user costs one round trip, not two (docs/benchmarks/platform.md). Its
 * snapshot predates any row the insert waited on (another delivery of the alert writing at that moment),
 * so when users were found but every row already existed, the unsettled records are read again in a
 * statement of their own, which sees that delivery's rows.
 */
export async function recordEntryAlert(db: Kysely<Database>, alert: NormalizedAlert, routing: Routing): Promise<EntryAlertRecords> {
  const c = alertColumns(alert)
  if (routing === 'targeted' && c.owner === null) return { created: [], unsettled: await unsettledEntryRecords(db, c.alertId) }
  const onlyOwner = routing === 'targeted' ? sql`AND acc.user_id = ${c.owner}` : sql``
  // A signal source's alert (issue 22) reaches its subscribers instead: the owner alone for a trader's
  // source, every subscribed trader for an operator source; nobody once the source is revoked.
  // The spec's route is the default operator source: every live trader but those who opted out of it
  // (an anti-join on the opt-out's primary key; the statement stays one set-based INSERT ... SELECT).
  const optedIn = alert.sourceId === undefined ? sql`AND NOT EXISTS (SELECT 1 FROM default_source_opt_outs o WHERE o.user_id = acc.user_id)` : sql``
  // A subscription sizing by a multiplier of the alert's quantity writes it on the record (the spec's route: none).
  const multiplier = alert.sourceId === undefined ? sql`NULL::numeric` : sql`CASE WHEN sub.size_rule = 'multiplier' THEN sub.multiplier END`
  const recipients =
    alert.sourceId === undefined
      ? sql`FROM broker_accounts acc`
      : sql`FROM signal_source_subscriptions sub
    JOIN signal_sources src ON src.id = sub.source_id AND src.revoked_at IS NULL AND (src.owner_user_id IS NULL OR src.owner_user_id = sub.user_id)
    JOIN broker_accounts acc ON acc.user_id = sub.user_id AND sub.source_id = ${alert.sourceId}::uuid`
  // Each recipient's record names the account it is for (issue 22 item 1): the trader's primary, the only one
  // that trades until the connector is keyed by account, and whose switch is the spec's live_trading setting.
  // Stage 3's fan-out per subscribed live account changes the account condition (and the unique key to the
  // account); the rest of the statement stays.
  const result = await sql<{ id: number | null; user_id: string | null; kind: 'created' | 'unsettled' | 'conflicted' }>`${prepared}
    WITH recipients AS MATERIALIZED (
      SELECT acc.user_id, acc.id AS account_id, ${multiplier} AS size_multiplier
      ${recipients}
      JOIN users u ON u.user_id = acc.user_id AND u.approved
      WHERE acc.is_primary AND acc.live_trading ${onlyOwner} ${optedIn}
        AND NOT EXISTS (SELECT 1 FROM banned_emails b WHERE b.email = lower(u.email))
    ), created AS (
      INSERT INTO alerts (alert_id, user_id, account_id, owner_user_id, symbol, root, action, entry_price, sl, tp, indicator, leverage, raw_data,
                          received_at, alert_quantity, size_multiplier, order_word, entry_order, instruction, strategy_position, source_id, exit_plan, trailing_stop)
      SELECT ${c.alertId}, r.user_id, r.account_id, ${c.owner}, ${c.symbol}, ${c.root}, ${c.action}, ${c.entryPrice}::numeric, ${c.sl}::numeric,
             ${c.tp}::numeric, ${c.indicator}, ${c.leverage}::numeric, ${c.rawData}::jsonb, ${c.receivedAt}::timestamptz,
             ${c.quantity}::numeric, r.size_multiplier, ${c.orderWord}, ${c.entryOrder}::jsonb, ${c.instruction}::jsonb, ${c.strategyPosition}::jsonb, ${c.sourceId}::uuid, ${c.exitPlan}::jsonb, ${c.trailingStop}::jsonb
      FROM recipients r
      ORDER BY r.user_id
      ON CONFLICT (alert_id, user_id) DO NOTHING
      RETURNING id, user_id
    )
    SELECT id::int AS id, user_id, 'created' AS kind FROM created
    UNION ALL
    SELECT id::int, user_id, 'unsettled' FROM alerts
    WHERE alert_id = ${c.alertId} AND NOT is_test AND status IN ('received', 'placing') AND NOT EXISTS (SELECT 1 FROM created)
    UNION ALL
    SELECT NULL, NULL, 'conflicted' WHERE EXISTS (SELECT 1 FROM recipients) AND NOT EXISTS (SELECT 1 FROM created)
    ORDER BY id`.execute(db)
  const refs = (kind: string) =>
    result.rows.filter((row) => row.kind === kind).map((row) => ({ id: row.id as number, userId: row.user_id as string }))
  const created = refs('created')
  if (created.length > 0) return { created, unsettled: [] }
  const conflicted = result.rows.some((row) => row.kind === 'conflicted')
  return { created, unsettled: conflicted ? await unsettledEntryRecords(db, c.alertId) : refs('unsettled') }
}

/** A test alert: one record of its own, owned by the payload's user, belonging to no live trader. */
export async function insertTestRecord(db: Kysely<Database>, alert: NormalizedAlert): Promise<boolean> {
  const c = alertColumns(alert)
  const result = await sql`
    INSERT INTO alerts (alert_id, user_id, owner_user_id, symbol, root, action, entry_price, sl, tp, indicator, leverage, raw_data, received_at, is_test, status)
    VALUES (${c.alertId}, NULL, ${c.owner}, ${c.symbol}, ${c.root}, ${c.action}, ${c.entryPrice}::numeric, ${c.sl}::numeric,
            ${c.tp}::numeric, ${c.indicator}, ${c.leverage}::numeric, ${c.rawData}::jsonb, ${c.receivedAt}::timestamptz, true, 'test')
    ON CONFLICT (alert_id, user_id) DO NOTHING`.execute(db)
  return (result.numAffectedRows ?? 0n) > 0n
}

export interface AlertPage {
  userId: string
  limit: number
  /** Only records older than this id (the previous page's cursor). */
  beforeId?: number
  /** Only records of this broker account of the user's. */
  accountId?: string
}

/** The user's own live records, newest first, optionally of one of their accounts. */
export async function listUserAlerts(db: Kysely<Database>, page: AlertPage) {
  let query = db
    .selectFrom('alerts')
    .select([
      'id', 'alert_id', 'account_id', 'owner_user_id', 'symbol', 'root', 'action', 'entry_price', 'sl', 'tp', 'indicator', 'leverage', 'raw_data',
      'status', 'received_at', 'created_at', 'reason', 'refusal_code', 'alert_quantity', 'order_quantity', 'order_tag', 'contract',
      'entry_order_id', 'stop_order_id', 'target_order_id', 'placed_at',
    ])
    .where('user_id', '=', page.userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId)
  if (page.accountId !== undefined) query = query.where('account_id', '=', page.accountId)
  return query.execute()
}
