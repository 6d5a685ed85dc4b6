import { rootOf } from '@signals/instruments'
import type { NormalizedAlert } from '@signals/contracts'
import type { Routing } from '../repositories/alerts.ts'
import type { OpenTradeMatch } from '../repositories/trades.ts'

/**
 * The open trades a result alert reaches: its symbol's (or root's) trades on the side it closes, entered no
 * later than the alert; only its user's when routing is targeted (a targeted alert naming no user is
 * stopped before: `exitForResult`); only those its own source's entries opened (the spec's route: entries
 * from no source).
 */
export function resultAlertMatch(alert: NormalizedAlert & { symbol: string }, routing: Routing): OpenTradeMatch & { receivedBy: string } {
  const source = alert.sourceId ?? null
  return {
    symbol: alert.symbol,
    root: alert.root ?? rootOf(alert.symbol),
    // A signal source's reach is its own entries' trades, whatever the routing (issue 22 item 4).
    userId: source === null && routing === 'targeted' && alert.userId !== null ? alert.userId : undefined,
    sourceId: source,
    side: alert.closes,
    receivedBy: alert.receivedAt,
  }
}
