import { compare, parseDecimal, toFixed } from '@signals/instruments'
import { tradingDayOf, type AccountState } from '@signals/risk-engine'
import type { DayRealizedPnl } from '../../feeds/broker/broker-adapter.ts'

/**
 * Today's realized pnl as the risk gates count it: the lower of our closed trades' sum and the broker's own
 * figure for the day (its cash balance's `realizedPnL`). The broker's counts every close on the account,
 * those outside our trades too: a position the reconciliation flattened as unknown, a trade it ended
 * `cancelled` because the broker no longer held it (neither has a PnL of ours), a close by hand. So a loss
 * there counts toward the daily loss limit; a profit there never lifts ours (refusing rather than
 * guessing). A figure of another trading day (a cash balance not told again since the day changed) is not
 * today's and is left out. (docs/decisions/broker-connector.md, "What we promise about your money")
 */
export function countBrokerRealized(account: AccountState, broker: DayRealizedPnl | null, now: Date): AccountState {
  if (broker === null || broker.tradeDate !== tradingDayOf(now)) return account
  const theirs = parseDecimal(broker.pnl)
  if (compare(theirs, parseDecimal(account.todayRealizedPnl)) >= 0) return account
  return { ...account, todayRealizedPnl: toFixed(theirs, 2) }
}
