import type { AccountRow } from '../repositories/broker-accounts.ts'
import type { AccountView } from '../schemas/accounts.ts'

/** What the trader sees of an account: never a secret. */
export function accountViewOf(row: AccountRow): AccountView {
  return {
    id: row.id,
    name: row.name,
    isPrimary: row.is_primary,
    loginId: row.login_id,
    broker: row.broker,
    environment: row.environment,
    brokerAccountId: row.broker_account_ref,
    liveTrading: row.live_trading,
    autoPlaceOrders: row.auto_place,
    // The staged state (docs/decisions/accounts.md): the connector trades the primary only.
    liveTradingAvailable: row.is_primary,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}
