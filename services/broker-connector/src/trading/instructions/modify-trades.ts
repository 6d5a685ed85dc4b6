import { compare, contractSpec, parseDecimal, rootOf } from '@signals/instruments'
import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { modifiableTrades, type ModifiableTrade } from '../../repositories/instruction-records.ts'
import { roundToTick } from '../entry/order-plan.ts'
import { decimalText } from '../../shared/decimal-text.ts'
import type { InstructionOutcome } from './instruction-outcome.ts'
import { workingStops } from '../targets/find-targets.ts'

export interface ModifyRequest {
  userId: string
  /** The alert's source (`id` null: the spec route): only the trades its entries opened are moved. */
  source: { id: string | null }
  symbol: string
  root: string | null
  side: 'LONG' | 'SHORT' | null
  sl: number | null
  tp: number | null
}

/**
 * A new stop and/or target for the user's open trades in the symbol (`update_sl`, `update_tp`, `modify`):
 * each trade's working stop and target legs are moved at the broker (`order/modifyorder`). On the tick grid
 * toward the entry (a stop never further than asked). A stop further from the entry than the one the trade
 * was sized with is refused: the trade would then risk more than the trader's limits allowed when it was
 * placed. Nothing is placed: a trade without the leg named is said so. Only the trades the alert's source
 * opened are reached (issue 22 item 4): another source's keep their stop and target.
 */
export async function modifyTrades(db: Kysely<Database>, session: BrokerSession, scope: BrokerScope, request: ModifyRequest): Promise<InstructionOutcome> {
  if (!session.repriceOrder) return { kind: 'refused', code: 'not_supported', reason: 'this broker connection cannot move a working order, so the stop and target were not moved' }
  const reprice = session.repriceOrder.bind(session)
  const root = request.root ?? rootOf(request.symbol)
  const spec = root === null ? undefined : contractSpec(root)
  if (root === null || !spec) return { kind: 'refused', code: 'unknown_contract', reason: `no futures contract is known for the symbol ${request.symbol}` }
  const trades = await modifiableTrades(db, { userId: request.userId, source: request.source, root, side: request.side }, scope)
  const sideWords = request.side === null ? '' : ` ${request.side.toLowerCase()}`
  const ofSource = request.source.id === null ? '' : ' of this signal source'
  if (trades.length === 0) return { kind: 'refused', code: 'no_open_trade', reason: `nothing to modify: no open${sideWords} trade${ofSource} in ${request.symbol} on account ${session.snapshot.account.name}` }

  // Every trade is checked before anything moves: one refused widening refuses the alert as a whole.
  for (const trade of trades) {
    const refusal = widening(trade, request.sl, spec.tickSize)
    if (refusal !== null) return { kind: 'refused', code: 'stop_widened', reason: refusal }
  }
  const done: string[] = []
  const problems: string[] = []
  for (const trade of trades) {
    const towardEntry = { stop: trade.side === 'LONG' ? 'up' : 'down', target: trade.side === 'LONG' ? 'down' : 'up' } as const
    // Every stop of the trade moves: the whole-position stop and each target's paired stop (all working ones).
    const stops = request.sl === null ? [] : trade.alert_record_id === null ? [trade.stop_order_id].filter((id) => id !== null) : await workingStops(session, trade.alert_record_id, trade.stop_order_id)
    const legs: [string, number | null, number[], 'stopPrice' | 'price', 'up' | 'down'][] = [
      ['stop', request.sl, stops, 'stopPrice', towardEntry.stop],
      ['target', request.tp, [trade.target_order_id].filter((id) => id !== null), 'price', towardEntry.target],
    ]
    for (const [leg, wanted, orderIds, field, direction] of legs) {
      if (wanted === null) continue
      if (orderIds.length === 0) {
        problems.push(`trade ${trade.id} has no ${leg} order to move`)
        continue
      }
      const price = roundToTick(decimalText(wanted), spec.tickSize, direction)
      for (const [index, orderId] of orderIds.entries()) {
        const which = orderIds.length === 1 ? leg : `${leg} ${index + 1} of ${orderIds.length}`
        try {
          await reprice(orderId, { [field]: price })
          done.push(`${which} of trade ${trade.id} moved to ${price}`)
        } catch (error) {
          if (!(error instanceof BrokerError)) throw error
          if (error.kind === 'rate_limited' || error.kind === 'unavailable') return { kind: 'retry', note: `waiting for the broker: ${error.message}`, done }
          problems.push(`${which} of trade ${trade.id} not moved: ${error.message}`)
        }
      }
    }
  }
  const sentence = `${done.length === 0 ? 'nothing moved' : done.join(', ')}${problems.length === 0 ? '' : `; not done: ${problems.join('; ')}`}`
  return done.length > 0 && problems.length === 0 ? { kind: 'done', reason: sentence } : { kind: 'failed', reason: sentence }
}

/** Why a new stop is refused: further from the entry than the stop the trade was sized with. */
function widening(trade: ModifiableTrade, sl: number | null, tickSize: string): string | null {
  if (sl === null || trade.sized_stop === null) return null
  const wanted = parseDecimal(roundToTick(decimalText(sl), tickSize, trade.side === 'LONG' ? 'up' : 'down'))
  const sized = parseDecimal(trade.sized_stop)
  const further = trade.side === 'LONG' ? compare(wanted, sized) < 0 : compare(wanted, sized) > 0
  if (!further) return null
  return `the new stop (${sl}) is further from the entry than the stop trade ${trade.id} was sized with (${trade.sized_stop}): it would risk more than your limits allowed when it was placed, so nothing was moved`
}
