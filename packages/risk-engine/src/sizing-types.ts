import type { RiskEngineConfig } from './config.ts'

/**
 * What the risk engine is told. Money and prices are exact decimal text (never floats on the way in);
 * the engine does its arithmetic in exact decimals (`@signals/instruments`).
 */
export interface AccountState {
  /** The broker's cash balance, else starting balance plus realized pnl of every closed trade. */
  balance: string
  /**
   * The highest balance the trailing floor follows in the configured mode (end-of-day closes,
   * intraday realized, or intraday including open profit). At least the starting balance.
   */
  peakBalance: string
  /** Realized pnl of trades closed in the current trading session. */
  todayRealizedPnl: string
  /** Open pnl of the open trades now (0 when unknown). */
  openPnl: string
  /** Open trades of the user. */
  openTrades: number
  /** Open trades in the alert's contract root and direction (pyramiding counts them as levels). */
  openTradesSameDirection: number
  /** Closed trades, newest first, as W (pnl > 0) or L (pnl <= 0); as many as the configuration needs. */
  recentResults: readonly ('W' | 'L')[]
  /** The trading session's daily loss limit was hit with a hard limit: no trading until the next session. */
  haltedForSession: boolean
  /** Realized pnl per trading day (newest first), for the consistency rule. */
  dailyPnl: readonly string[]
  /** Distinct trading days with a closed trade (verification). */
  tradingDays: number
}

export interface EntryIntent {
  side: 'LONG' | 'SHORT'
  /** The entry price the alert gave (a market order is sized at it). */
  entryPrice: string | null
  stopPrice: string | null
  targetPrice: string | null
  /** The quantity the alert carried, for the `alert_quantity` mode. */
  quantity: number | null
}

export interface ContractTerms {
  /** Money per 1.0 point per contract. */
  pointValue: string
  tickSize: string
}

export interface SizingInput {
  config: RiskEngineConfig
  account: AccountState
  alert: EntryIntent
  contract: ContractTerms
}

/** Machine-readable reason a trade was refused (the record shows `reason` in words). */
export type RefusalCode =
  | 'no_stop'
  | 'no_entry_price'
  | 'stop_on_wrong_side'
  | 'target_on_wrong_side'
  | 'size_below_one'
  | 'daily_loss_limit'
  | 'daily_loss_limit_hard'
  | 'drawdown_floor'
  | 'max_open_trades'
  | 'pyramid_limit'
  | 'consistency'
  | 'no_quantity'

export type SizingDecision =
  | {
      kind: 'size'
      /** A whole number of contracts, at least 1. */
      quantity: number
      /** The budget the size was held to, exact decimal text (null for modes not sized by risk). */
      budget: string | null
      /** The loss at the stop for this quantity, exact decimal text (null without a stop). */
      riskAtStop: string | null
    }
  | {
      kind: 'refuse'
      code: RefusalCode
      /** One sentence for the trader, naming the figures. */
      reason: string
      /** A hard daily-loss breach: the caller flattens every position and stops for the session. */
      flatten: boolean
    }
