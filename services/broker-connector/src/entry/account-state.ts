import { deriveAccountState, type AccountState, type RiskEngineConfig } from '@signals/risk-engine'
import { sql, type Database, type Kysely } from '@signals/db'

/** The user's trades as the risk engine reads them (open ones, and closed ones for realized pnl and runs). */
export async function tradeHistory(db: Kysely<Database>, userId: string) {
  const result = await sql<{
    root: string | null
    symbol: string
    side: 'LONG' | 'SHORT'
    quantity: string
    entry_price: string
    status: 'open' | 'closed' | 'cancelled'
    pnl: string | null
    opened_at: Date
    closed_at: Date | null
  }>`
    SELECT root, symbol, side, quantity, entry_price, status, pnl, opened_at, closed_at
    FROM trades WHERE user_id = ${userId} AND status <> 'cancelled'
    ORDER BY id`.execute(db)
  return result.rows
}

/** The account state sizing reads: the user's trades, with the broker's cash balance when it told one. */
export async function accountStateOf(
  db: Kysely<Database>,
  userId: string,
  config: RiskEngineConfig,
  cashBalance: string | null,
  now: Date,
): Promise<AccountState> {
  const trades = await tradeHistory(db, userId)
  return deriveAccountState(config, { trades, cashBalance }, now)
}
