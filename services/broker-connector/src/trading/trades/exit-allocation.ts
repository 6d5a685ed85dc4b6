import { computePnl } from '@signals/instruments'
import type { Database, Kysely, Side, TradeResult } from '@signals/db'
import type { BrokerFill } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { pointValueOf } from './point-value.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { allocatedOf, closePart, closeWhole, lockOpenTradesOf, lockRecordTrade, type ExitTrade } from '../../repositories/trade-exits.ts'

/** How much of a fill went to a trade, and whether that closed it. */
export interface Allocation {
  trade: ExitTrade
  quantity: number
  closed: boolean
}

/**
 * A fill that is its record's: a bracket leg's closes the record's trade with the leg's result (SL or TP); a
 * late close's (result null: the trade's exit alert's, else Session End) the contracts the entry filled after
 * its legs were done, which are the record's trade's only while it is open, and no other trade's.
 */
export interface LegFill {
  recordId: number
  result: TradeResult | null
}

/**
 * Allocates a closing fill to trades by quantity, in one transaction: a bracket leg's fill (or a late
 * close's) to its record's trade, and to no other; a fill without our tag (our flatten, a trader's own order) first in, first out across the user's
 * open trades of that contract on the fill's account and venue, on the side it closes. Each trade it reaches is closed in full, or in part
 * (a closed part splits off and the trade keeps the rest open). A trade an exit alert asked to close takes
 * that alert's result from its flatten's fill. What was allocated before (a fill replayed from a snapshot)
 * is not allocated again; what is left over (more than our trades hold) is logged.
 */
export async function allocateExitFill(
  trx: Kysely<Database>,
  owner: { userId: string; scope: BrokerScope },
  fill: BrokerFill,
  leg: LegFill | null,
  logger: Logger,
): Promise<Allocation[]> {
  const { userId, scope } = owner
  const side: Side = fill.action === 'Sell' ? 'LONG' : 'SHORT'
  const trades = leg
    ? [await lockRecordTrade(trx, leg.recordId, userId)].filter((trade): trade is ExitTrade => trade?.status === 'open' && trade.side === side)
    : await lockOpenTradesOf(trx, { userId, scope, contractId: fill.contractId, side, at: fill.timestamp })
  if (trades.length === 0) return []
  let left = fill.quantity - (await allocatedOf(trx, owner, fill.id))
  const allocations: Allocation[] = []
  const exitFill = { id: fill.id, orderId: fill.orderId, price: fill.price, at: fill.timestamp }
  for (const trade of trades) {
    if (left <= 0) break
    const open = Number(trade.quantity)
    const quantity = Math.min(left, open)
    const result = leg?.result ?? trade.exit_result ?? 'Session End'
    const pnl = computePnl({ side: trade.side, entryPrice: trade.entry_price, exitPrice: fill.price, quantity: String(quantity), pointValue: pointValueOf(trade, logger) })
    if (quantity === open) await closeWhole(trx, trade, exitFill, result, pnl)
    else await closePart(trx, trade, exitFill, quantity, result, pnl)
    allocations.push({ trade, quantity, closed: quantity === open })
    logger.info({ userId, tradeId: trade.id, fillId: fill.id, quantity, price: fill.price, pnl, result, closed: quantity === open }, 'trade closed by a broker fill')
    left -= quantity
  }
  if (left > 0) logger.warn({ userId, fillId: fill.id, contractId: fill.contractId, left }, 'a closing fill is larger than our open trades in the contract; the rest is not ours')
  return allocations
}
