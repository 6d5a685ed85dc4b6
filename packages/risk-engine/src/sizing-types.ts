import type { RiskEngineConfig } from './config.ts'

/** One open trade of the user, as the engine needs it (the connector's trade rows, `deriveAccountState`). */
export interface OpenTradeState {
  /** Contract root (`NQ`), so an entry in the same contract can be told apart. */
  root: string
  side: 'LONG' | 'SHORT'
  quantity: string | number
  entryPrice: string
  /** Open pnl now, exact decimal text; null when the broker has not told it. */
  openPnl?: string | null
  /** An entry whose send's outcome is unknown (never confirmed): not known to be open, but its order may still land. */
  unconfirmed?: boolean
}

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
  /** The user's open trades (their count is held to limits.maxOpenTrades; same-contract ones to pyramiding). */
  openTrades: readonly OpenTradeState[]
  /** Every closed trade as W (pnl > 0) or L (pnl <= 0), oldest first: the run anti-martingale walks. */
  closedResults: string
  /** The trading session's daily loss limit was hit with a hard limit: no trading until the next session. */
  haltedForSession: boolean
  /** Why the session was halted, when that was recorded (a clause, e.g. the risk watchdog's breach). */
  haltReason?: string
  /** Realized pnl per trading day (newest first), for the status page (the engine reads today from todayRealizedPnl). */
  dailyPnl: readonly string[]
  /** Distinct trading days with a closed trade (verification). */
  tradingDays: number
}

export interface EntryIntent {
  side: 'LONG' | 'SHORT'
  /** `market` fills at the broker's price (`SizingInput.market`); `limit` at `entryPrice`, the limit price. */
  orderType: 'market' | 'limit'
  /** The entry price the alert gave: the limit price of a limit entry; for a market entry only a reference. */
  entryPrice: string | null
  stopPrice: string | null
  targetPrice: string | null
  /** The quantity the alert carried, for the `alert_quantity` mode (and a subscription's multiplier). */
  quantity: number | null
  /**
   * A signal-source subscription's size rule `multiplier` (issue 22): the entry is sized as the alert's
   * quantity times it, whole contracts, in place of the account's risk mode; the limits still hold.
   */
  quantityMultiplier?: string | null
  /**
   * A stop or stop-limit entry's trigger (it is sized as a limit, at `entryPrice`): the market must not have
   * passed it, or the order would fill at once beyond the price it was sized at.
   */
  stopTrigger?: string | null
}

export interface ContractTerms {
  /** Contract root (`NQ`): open trades in it decide pyramiding and opposite positions. */
  root: string
  /** Money per 1.0 point per contract. */
  pointValue: string
  tickSize: string
}

/**
 * The broker's current price of the contract for this entry's side (the price a market order fills at), as
 * exact decimal text on the tick; or, when there is none the caller trusts (no quote yet, a stale one, the
 * market-data connection down), why not: a clause without a full stop.
 */
export type MarketView = { price: string } | { price: null; reason: string }

/** Contract caps that are not part of the configuration. */
export interface OrderCaps {
  /** The platform's ceiling on one order (an operator setting). */
  platformMaxContracts: number
  /** The trader's "Maximum contracts" (the legacy risk strategy's `maxContracts`), or null when not set. */
  maxContracts: number | null
}

export interface SizingInput {
  config: RiskEngineConfig
  account: AccountState
  alert: EntryIntent
  contract: ContractTerms
  market: MarketView
  caps: OrderCaps
}

/** Machine-readable reason a trade was refused (the record shows `reason` in words). */
export type RefusalCode =
  | 'no_stop'
  | 'no_entry_price'
  | 'invalid_price'
  | 'stop_on_wrong_side'
  | 'target_on_wrong_side'
  | 'size_below_one'
  | 'daily_loss_limit'
  | 'daily_loss_limit_hard'
  | 'daily_loss_at_stop'
  | 'drawdown_floor'
  | 'max_open_trades'
  | 'pyramid_limit'
  | 'opposite_position'
  | 'consistency'
  | 'evaluation_passed'
  | 'profit_target_protection'
  | 'no_quantity'
  | 'invalid_quantity'
  | 'no_market_price'
  | 'market_past_stop'
  | 'stop_entry_passed'
  | 'market_past_target'
  | 'market_too_far'
  | 'stop_too_close'
  | 'insufficient_margin'

export type SizingDecision =
  | {
      kind: 'size'
      /** A whole number of contracts, at least 1. */
      quantity: number
      /** The budget the size was held to, exact decimal text (null for modes not sized by risk). */
      budget: string | null
      /** The loss at the stop for this quantity, exact decimal text (null without a stop). */
      riskAtStop: string | null
      /** One sentence when the size was cut below what the mode asked for (a contract cap, the margin, alert quantity capped, one contract after the target); else null. */
      note: string | null
    }
  | {
      kind: 'refuse'
      code: RefusalCode
      /** One sentence for the trader, naming the figures. */
      reason: string
      /**
       * A hard daily-loss breach: the caller flattens every position (cancelling working orders) and
       * records the session as halted (`haltedForSession`) until the next trading day.
       */
      flatten: boolean
    }
