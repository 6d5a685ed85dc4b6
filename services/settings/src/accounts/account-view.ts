import type { AccountRow } from '../repositories/broker-accounts.ts'
import type { AccountStatus, AccountView } from '../schemas/accounts.ts'
import type { BrokerConnection } from '../feed/feed-status-reader.ts'
import { liveIndicatorOf } from '../broker-indicator.ts'

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

const NOT_TRADING_YET: AccountStatus = {
  trading: false,
  indicator: 'gray',
  indicatorReason: 'Not trading yet: only your primary account trades until the broker connection trades by account.',
  brokerConnection: null,
}

/**
 * How the account stands. The primary's is the spec's live-trading status, from the same reading of the
 * trader's broker connection (`connection`: the feed, which is the primary's) and the same switches and
 * credentials (the primary's own switches and login, which those routes read). An additional account does not trade.
 */
export function accountStatusOf(row: AccountRow, connection: BrokerConnection, now: Date, feedDownGraceMs: number): AccountStatus {
  if (!row.is_primary) return NOT_TRADING_YET
  const flags = { liveTradingEnabled: row.live_trading, autoPlaceOrdersEnabled: row.auto_place, hasCredentials: row.login_id !== null }
  return { trading: true, ...liveIndicatorOf(flags, connection, now, feedDownGraceMs) }
}
