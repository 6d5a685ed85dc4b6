import { type Decimal, toFixed, tradingDayOf } from '@signals/instruments'
import type { RiskEngineConfig } from './config.ts'
import { decimal } from './money.ts'
import type { ClosedTradingDay } from './closed-days.ts'
import type { AccountState, OpenTradeState } from './sizing-types.ts'

/** What the caller knows about a user's account; `deriveAccountState` turns it into the engine's view. */
export interface TradeHistory {
  /** The broker's cash balance now; null when not known (then starting balance plus realized pnl). */
  brokerBalance: string | null
  /** The user's closed trades, one entry per trading day, in any order (`closedTradingDays`). */
  closedDays: readonly ClosedTradingDay[]
  openTrades: readonly OpenTradeState[]
  /** Set by the caller when a hard daily loss limit halted the current session. */
  haltedForSession?: boolean
  /** Why the session was halted, when the halt recorded it (a clause: the risk watchdog's breach). */
  haltReason?: string | null
  /**
   * The open pnl of the broker's positions, when the caller marked them (exact decimal text): it is the
   * account's open pnl. Without it, the sum of the open trades' `openPnl`.
   */
  openPnl?: string | null
  /** A peak the caller tracked itself in the configured mode (e.g. intraday equity highs); never lowers the peak. */
  recordedPeakBalance?: string | null
}

/**
 * Money as whole units of one shared scale (bigint): the days of a history are summed and compared for
 * every user of an alert fan-out, and one scale makes each step a plain bigint add.
 */
class Ledger {
  readonly scale: number
  constructor(values: readonly Decimal[]) {
    this.scale = Math.max(2, ...values.map((value) => value.scale))
  }
  units(value: Decimal): bigint {
    return value.units * 10n ** BigInt(this.scale - value.scale)
  }
  text(units: bigint): string {
    return toFixed({ units, scale: this.scale }, 2)
  }
}

const max = (values: readonly bigint[]) => values.reduce((high, next) => (next > high ? next : high))

/**
 * The engine's account state from the user's trading days, at an instant (`now` decides the trading day).
 * Pure: the caller reads the days and the broker's balance.
 */
export function deriveAccountState(config: RiskEngineConfig, history: TradeHistory, now: Date): AccountState {
  const today = tradingDayOf(now)
  const days = history.closedDays
    .map((day) => ({ day: day.day, pnl: decimal(day.pnl), highestRunningPnl: decimal(day.highestRunningPnl), results: day.results }))
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))
  const openPnls = history.openPnl !== null && history.openPnl !== undefined ? [decimal(history.openPnl)] : history.openTrades.flatMap((trade) => (trade.openPnl ? [decimal(trade.openPnl)] : []))
  const fixed = [config.account.startingBalance, history.brokerBalance, history.recordedPeakBalance].flatMap((value) => (value === null || value === undefined ? [] : [decimal(value)]))
  const ledger = new Ledger([...days.flatMap((day) => [day.pnl, day.highestRunningPnl]), ...openPnls, ...fixed])
  const start = ledger.units(decimal(config.account.startingBalance))
  const walk = walkDays(ledger, start, days, today)
  const balance = history.brokerBalance === null ? walk.realized : ledger.units(decimal(history.brokerBalance))
  const openPnl = openPnls.reduce((sum, pnl) => sum + ledger.units(pnl), 0n)
  const recorded = history.recordedPeakBalance ? [ledger.units(decimal(history.recordedPeakBalance))] : []
  const todays = days.find((day) => day.day === today)
  const mode = config.trailingDrawdown.mode
  const peak =
    mode === 'end_of_day'
      ? max([start, walk.endOfDayPeak, ...recorded])
      : max([start, walk.realizedPeak, balance, ...recorded, ...(mode === 'intraday_unrealized' ? [balance + openPnl] : [])])
  return {
    balance: ledger.text(balance),
    peakBalance: ledger.text(peak),
    todayRealizedPnl: ledger.text(todays ? ledger.units(todays.pnl) : 0n),
    openPnl: ledger.text(openPnl),
    openTrades: history.openTrades,
    closedResults: days.map((day) => day.results).join(''),
    haltedForSession: history.haltedForSession ?? false,
    ...(history.haltReason ? { haltReason: history.haltReason } : {}),
    dailyPnl: days.map((day) => ledger.text(ledger.units(day.pnl))).reverse(),
    tradingDays: days.length,
  }
}

interface DaysWalk {
  /** Starting balance plus every realized pnl. */
  realized: bigint
  /** Highest balance after any closed trade (intraday_realized). */
  realizedPeak: bigint
  /** Highest balance at the close of a finished session, before today (end_of_day). */
  endOfDayPeak: bigint
}

/** One pass over the trading days, oldest first. */
function walkDays(ledger: Ledger, start: bigint, days: readonly { day: string; pnl: Decimal; highestRunningPnl: Decimal }[], today: string): DaysWalk {
  let realized = start
  let realizedPeak = start
  let endOfDayPeak = start
  for (const day of days) {
    realized += ledger.units(day.pnl)
    const highest = start + ledger.units(day.highestRunningPnl)
    if (highest > realizedPeak) realizedPeak = highest
    if (day.day < today && realized > endOfDayPeak) endOfDayPeak = realized
  }
  return { realized, realizedPeak, endOfDayPeak }
}
