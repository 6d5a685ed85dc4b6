import { sql, type Database, type Kysely } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'

/** The user's open trades on the session's account and venue: which broker positions are ours. */
export function openTradesOnAccount(db: Kysely<Database>, userId: string, scope: BrokerScope) {
  return db
    .selectFrom('trades')
    .select(['id', 'contract', 'broker_contract_id', 'side', 'quantity'])
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .where('broker', '=', scope.broker)
    .where('environment', '=', scope.environment)
    .where('broker_account_id', '=', scope.accountId)
    .where('broker_contract_id', 'is not', null)
    .orderBy('id')
    .execute()
}

/**
 * The saved risk configuration (null: the defaults) of the user's primary account, the one their session
 * trades (stage 3: the session's account), which our computed balance starts from.
 */
export async function riskConfigOf(db: Kysely<Database>, userId: string): Promise<unknown> {
  const row = await db
    .selectFrom('account_risk_configs as r')
    .innerJoin('broker_accounts as acc', 'acc.id', 'r.account_id')
    .select('r.config')
    .where('acc.user_id', '=', userId)
    .where('acc.is_primary', '=', true)
    .executeTakeFirst()
  return row?.config ?? null
}

/**
 * The user's trades on the session's account with any of these fills (their entry's or one that closed
 * them), each with its whole family (a trade and its closed parts share the entry fills), and the exit
 * fills of those trades: what a commission per trade is reckoned from.
 */
export async function tradesOfFills(db: Kysely<Database>, userId: string, scope: BrokerScope, fillIds: readonly number[]) {
  if (fillIds.length === 0) return { trades: [], exits: [] }
  const ids = sql`${fillIds.map(String)}::bigint[]`
  const trades = await sql<{ id: number; parent_trade_id: number | null; contract: string | null; side: 'LONG' | 'SHORT'; quantity: string; status: string; pnl: string | null; entry_fill_ids: string[] }>`
    WITH hit AS (SELECT trade_id FROM trade_exit_fills WHERE user_id = ${userId} AND fill_id = ANY(${ids})),
    roots AS (
      SELECT t.id FROM trades t
      WHERE t.user_id = ${userId} AND t.parent_trade_id IS NULL AND t.broker = ${scope.broker} AND t.environment = ${scope.environment}
        AND t.broker_account_id = ${scope.accountId}
        AND (t.entry_fill_ids && ${ids} OR t.id IN (SELECT trade_id FROM hit)
             OR t.id IN (SELECT parent_trade_id FROM trades WHERE id IN (SELECT trade_id FROM hit)))
    )
    SELECT id, parent_trade_id, contract, side, quantity::text AS quantity, status, pnl::text AS pnl, entry_fill_ids::text[] AS entry_fill_ids FROM trades
    WHERE user_id = ${userId} AND (id IN (SELECT id FROM roots) OR parent_trade_id IN (SELECT id FROM roots))
    ORDER BY id DESC`.execute(db)
  const found = trades.rows.map((row) => ({ ...row, id: Number(row.id), parent_trade_id: row.parent_trade_id === null ? null : Number(row.parent_trade_id) }))
  if (found.length === 0) return { trades: [], exits: [] }
  const exits = await db
    .selectFrom('trade_exit_fills')
    .select(['trade_id', 'fill_id', 'quantity'])
    .where('user_id', '=', userId)
    .where('trade_id', 'in', found.map((trade) => trade.id))
    .execute()
  return { trades: found, exits: exits.map((exit) => ({ tradeId: Number(exit.trade_id), fillId: Number(exit.fill_id), quantity: Number(exit.quantity) })) }
}
