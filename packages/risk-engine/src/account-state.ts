import { type Decimal, toFixed, tradingDayOf } from '@signals/instruments'
import type { RiskEngineConfig } from './config.ts'
import { decimal } from './money.ts'
import type { AccountState, OpenTradeState } from './sizing-types.ts'

export interface ClosedTradeRecord {
  pnl: string
  closedAt: Date
}

/** What the caller knows about a user's account; `deriveAccountState` turns it into the engine's view. */
export interface TradeHistory {
  /** The broker's cash balance now; null when not known (then starting balance plus realized pnl). */
  brokerBalance: string | null
  /** Every closed trade of the user, in any order. */
  closedTrades: readonly ClosedTradeRecord[]
  openTrades: readonly OpenTradeState[]
  /** Set by the caller when a hard daily loss limit halted the current session. */
  haltedForSession?: boolean
  /** A peak the caller tracked itself in the configured mode (e.g. intraday equity highs); never lowers the peak. */
  recordedPeakBalance?: string | null
}

/**
 * Money as whole units of one shared scale (bigint): a user's history is summed and compared thousands of
 * times per alert fan-out, and one scale makes each step a plain bigint add.
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
 * The engine's account state from the user's trades, at an instant (`now` decides the trading day).
 * Pure: the caller reads the rows and the broker's balance.
 */
export function deriveAccountState(config: RiskEngineConfig, history: TradeHistory, now: Date): AccountState {
  const today = tradingDayOf(now)
  const closed = history.closedTrades
    .map((trade) => ({ pnl: decimal(trade.pnl), time: trade.closedAt.getTime(), day: tradingDayOf(trade.closedAt) }))
    .sort((a, b) => a.time - b.time)
  const openPnls = history.openTrades.flatMap((trade) => (trade.openPnl ? [decimal(trade.openPnl)] : []))
  const fixed = [config.account.startingBalance, history.brokerBalance, history.recordedPeakBalance].flatMap((value) => (value === null || value === undefined ? [] : [decimal(value)]))
  const ledger = new Ledger([...closed.map((trade) => trade.pnl), ...openPnls, ...fixed])
  const start = ledger.units(decimal(config.account.startingBalance))
  const walk = walkHistory(ledger, start, closed, today)
  const balance = history.brokerBalance === null ? walk.realized : ledger.units(decimal(history.brokerBalance))
  const openPnl = openPnls.reduce((sum, pnl) => sum + ledger.units(pnl), 0n)
  const recorded = history.recordedPeakBalance ? [ledger.units(decimal(history.recordedPeakBalance))] : []
  const mode = config.trailingDrawdown.mode
  const peak =
    mode === 'end_of_day'
      ? max([start, walk.endOfDayPeak, ...recorded])
      : max([start, walk.realizedPeak, balance, ...recorded, ...(mode === 'intraday_unrealized' ? [balance + openPnl] : [])])
  return {
    balance: ledger.text(balance),
    peakBalance: ledger.text(peak),
    todayRealizedPnl: ledger.text(walk.perDay.get(today) ?? 0n),
    openPnl: ledger.text(openPnl),
    openTrades: history.openTrades,
    recentResults: closed.map((trade) => (trade.pnl.units > 0n ? 'W' : 'L') as 'W' | 'L').reverse(),
    haltedForSession: history.haltedForSession ?? false,
    dailyPnl: [...walk.perDay.entries()].sort(([a], [b]) => (a < b ? 1 : -1)).map(([, pnl]) => ledger.text(pnl)),
    tradingDays: walk.perDay.size,
  }
}

interface HistoryWalk {
  /** Starting balance plus every realized pnl. */
  realized: bigint
  /** Highest balance after any closed trade (intraday_realized). */
  realizedPeak: bigint
  /** Highest balance at the close of a finished session, before today (end_of_day). */
  endOfDayPeak: bigint
  /** Realized pnl per trading day. */
  perDay: Map<string, bigint>
}

/** One pass over the closed trades, oldest first. */
function walkHistory(ledger: Ledger, start: bigint, closed: readonly { pnl: Decimal; day: string }[], today: string): HistoryWalk {
  let realized = start
  let realizedPeak = start
  let endOfDayPeak = start
  const perDay = new Map<string, bigint>()
  closed.forEach((trade, index) => {
    const pnl = ledger.units(trade.pnl)
    realized += pnl
    if (realized > realizedPeak) realizedPeak = realized
    perDay.set(trade.day, (perDay.get(trade.day) ?? 0n) + pnl)
    const closesSession = closed[index + 1]?.day !== trade.day
    if (closesSession && trade.day < today && realized > endOfDayPeak) endOfDayPeak = realized
  })
  return { realized, realizedPeak, endOfDayPeak, perDay }
}
