import { deriveAccountState, tradingDayOf, type AccountState, type OpenTradeState, type RiskEngineConfig } from '@signals/risk-engine'
import { rootOf } from '@signals/instruments'
import type { AccountRows } from '../../repositories/account-rows.ts'

/**
 * An entry this batch is about to send counts as open for the account's next entry in the same batch, as
 * a later batch would count it once marked (`loadOpenTrades`' second half).
 */
export function countAsOpen(rows: AccountRows, record: { user_id: string; root: string | null; symbol: string | null; action: 'LONG' | 'SHORT' | null; entry_price: string | null }, quantity: number): void {
  if (record.action === null) return
  const symbol = record.symbol ?? ''
  const trade: OpenTradeState = { root: record.root ?? rootOf(symbol) ?? symbol, side: record.action, quantity, entryPrice: record.entry_price ?? '0' }
  rows.openTrades.set(record.user_id, [...(rows.openTrades.get(record.user_id) ?? []), trade])
  const counts = rows.session.counts.get(record.user_id) ?? { entries: 0, executions: 0 }
  rows.session.counts.set(record.user_id, { ...counts, entries: counts.entries + 1 })
}

/**
 * The engine's account state of one user, with the broker's cash balance when the session told one and the
 * open pnl of the broker's positions when they were marked (`markOpenPnl`).
 */
export function accountStateOf(rows: AccountRows, userId: string, config: RiskEngineConfig, cashBalance: string | null, now: Date, openPnl: string | null = null): AccountState {
  const lastHalt = rows.lastHalt.get(userId)
  const halted = lastHalt !== undefined && tradingDayOf(lastHalt.at) === tradingDayOf(now)
  return deriveAccountState(
    config,
    {
      brokerBalance: cashBalance,
      closedDays: rows.closedDays.get(userId) ?? [],
      openTrades: rows.openTrades.get(userId) ?? [],
      haltedForSession: halted,
      haltReason: halted ? lastHalt.reason : null,
      openPnl,
      recordedPeakBalance: config.trailingDrawdown.mode === 'intraday_unrealized' ? (rows.equityPeak.get(userId) ?? null) : null,
    },
    now,
  )
}
