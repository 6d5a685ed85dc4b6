/** What a result alert's exit did, in one transaction (close-trades.ts, partial-close-result.ts). */
export interface ExitOutcome {
  /** Trades without a broker position behind them, closed at the alert's price. */
  closedTradeIds: number[]
  /** Broker-backed trades asked to exit now (they close at the flatten's fill). */
  requestedTradeIds: number[]
  /** Users with a flatten to carry out (their trades, or a working entry, in the alert's contract). */
  flattenUsers: string[]
}
