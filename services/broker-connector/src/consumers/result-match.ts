import { rootOf } from '@signals/instruments'
import type { NormalizedAlert } from '@signals/contracts'
import type { Routing } from '../repositories/alerts.ts'
import type { OpenTradeMatch } from '../repositories/trades.ts'

/**
 * The open trades a result alert reaches: its symbol's (or root's) trades on the side it closes, entered no
 * later than the alert; only its user's when routing is targeted (a targeted alert naming no user is
 * stopped before: `exitForResult`).
 */
export function resultAlertMatch(alert: NormalizedAlert & { symbol: string }, routing: Routing): OpenTradeMatch & { receivedBy: string } {
  return {
    symbol: alert.symbol,
    root: alert.root ?? rootOf(alert.symbol),
    userId: routing === 'targeted' && alert.userId !== null ? alert.userId : undefined,
    side: alert.closes,
    receivedBy: alert.receivedAt,
  }
}
