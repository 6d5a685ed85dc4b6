import { add, compare, type Decimal, maximum, toFixed, tradingDayOf } from '@signals/instruments'
import type { RiskEngineConfig } from './config.ts'
import { decimal, moneyText, ZERO } from './money.ts'
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

interface BalanceStep {
  day: string
  balance: Decimal
}

/**
 * The engine's account state from the user's trades, at an instant (`now` decides the trading day).
 * Pure: the caller reads the rows and the broker's balance.
 */
export function deriveAccountState(config: RiskEngineConfig, history: TradeHistory, now: Date): AccountState {
  const today = tradingDayOf(now)
  const start = decimal(config.account.startingBalance)
  const closed = [...history.closedTrades].sort((a, b) => a.closedAt.getTime() - b.closedAt.getTime())
  const steps = balanceSteps(start, closed)
  const realizedBalance = steps.at(-1)?.balance ?? start
  const balance = history.brokerBalance === null ? realizedBalance : decimal(history.brokerBalance)
  const openPnl = history.openTrades.reduce<Decimal>((sum, trade) => (trade.openPnl ? add(sum, decimal(trade.openPnl)) : sum), ZERO)
  const perDay = pnlPerDay(steps, closed)
  const peak = peakBalance(config, { start, steps, balance, equity: add(balance, openPnl), today, recorded: history.recordedPeakBalance ?? null })
  return {
    balance: moneyText(balance),
    peakBalance: moneyText(peak),
    todayRealizedPnl: moneyText(perDay.get(today) ?? ZERO),
    openPnl: moneyText(openPnl),
    openTrades: history.openTrades,
    recentResults: closed.map((trade) => (compare(decimal(trade.pnl), ZERO) > 0 ? 'W' : 'L') as 'W' | 'L').reverse(),
    haltedForSession: history.haltedForSession ?? false,
    dailyPnl: [...perDay.entries()].sort(([a], [b]) => (a < b ? 1 : -1)).map(([, pnl]) => toFixed(pnl, 2)),
    tradingDays: perDay.size,
  }
}

/** The realized balance after each closed trade, oldest first, with the trade's trading day. */
function balanceSteps(start: Decimal, closed: readonly ClosedTradeRecord[]): BalanceStep[] {
  let running = start
  return closed.map((trade) => {
    running = add(running, decimal(trade.pnl))
    return { day: tradingDayOf(trade.closedAt), balance: running }
  })
}

function pnlPerDay(steps: readonly BalanceStep[], closed: readonly ClosedTradeRecord[]): Map<string, Decimal> {
  const perDay = new Map<string, Decimal>()
  steps.forEach((step, index) => perDay.set(step.day, add(perDay.get(step.day) ?? ZERO, decimal(closed[index]?.pnl ?? '0'))))
  return perDay
}

interface PeakInputs {
  start: Decimal
  steps: readonly BalanceStep[]
  balance: Decimal
  equity: Decimal
  today: string
  recorded: string | null
}

/**
 * end_of_day: the highest balance at the close of a finished session (today's is not closed yet);
 * intraday_realized: the highest balance after any closed trade, and the balance now;
 * intraday_unrealized: that, and the equity (balance plus open profit) now.
 */
function peakBalance(config: RiskEngineConfig, inputs: PeakInputs): Decimal {
  const { start, steps, balance, equity, today, recorded } = inputs
  const mode = config.trailingDrawdown.mode
  const candidates: Decimal[] = [start]
  if (recorded !== null) candidates.push(decimal(recorded))
  if (mode === 'end_of_day') {
    steps.forEach((step, index) => {
      const closesSession = steps[index + 1]?.day !== step.day
      if (closesSession && step.day < today) candidates.push(step.balance)
    })
    return maximum(start, ...candidates)
  }
  candidates.push(...steps.map((step) => step.balance), balance)
  if (mode === 'intraday_unrealized') candidates.push(equity)
  return maximum(start, ...candidates)
}
