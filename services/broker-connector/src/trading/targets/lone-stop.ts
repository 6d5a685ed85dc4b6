import { BrokerError, outcomeUnknown } from '../../feeds/broker/broker-adapter.ts'
import { claimLoneStop, loneStopPlaced, type TargetPlanRow } from '../../repositories/trade-targets.ts'
import type { TargetContext } from './target-context.ts'

/** Contracts left without a stop: a refused pair's once the whole-position stop was cancelled for it, or a refused close's. */
export interface Uncovered {
  row: TargetPlanRow
  tag: string
  quantity: number
  /** The trade's stop price as the cancelled stop had it. */
  stopPrice: string
}

/**
 * The whole-position stop was cancelled to make room for a pair the broker then refused: a lone stop takes
 * its contracts at the trade's stop price (docs/decisions/targets-breakeven.md, "The last pair"), claimed
 * first so it is sent once, its id stored as the trade's stop. Returns what the record is to say.
 */
export async function stopTheUncovered(context: TargetContext, { row, tag, quantity, stopPrice }: Uncovered): Promise<string> {
  const cancelled = `; the trade's stop was cancelled to make room for it`
  const none = `so ${quantity} contract(s) have NO stop at the broker`
  if (!context.session.placeStopOrder) return `${cancelled}, ${none} (this broker connection cannot place a lone stop)`
  if (!(await claimLoneStop(context.db, row.trade_id))) return `${cancelled}; a stop for them was already sent once (check the broker for ${tag}.sl)`
  try {
    const action = row.side === 'LONG' ? 'Sell' : 'Buy'
    const { orderId } = await context.session.placeStopOrder({ tag, contract: { id: row.broker_contract_id!, name: row.contract! }, action, quantity, stopPrice })
    await loneStopPlaced(context.db, row.trade_id, orderId)
    return `${cancelled}; a stop for ${quantity} contract(s) was placed in its place at ${stopPrice} (order ${orderId})`
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    // Unknown: it may be working; it is found by its tag (.sl) wherever the trade's stops are looked for.
    if (outcomeUnknown(error)) return `${cancelled}; a stop for ${quantity} contract(s) was sent but its outcome is unknown (check the broker for ${tag}.sl): ${error.message}`
    return `${cancelled} and a stop for them was refused (${error.message}), ${none}`
  }
}

/**
 * Contracts left without a stop once their exits were cut for a close the broker then did not carry out: a
 * stop at the trade's stop price takes them, under `.sl`, and becomes the trade's stop (a later close cuts it
 * first). Not claimed: it is sent once per refused close, by the one run carrying that close out. Returns
 * what the record is to say.
 */
export async function stopTheRest(context: TargetContext, { row, tag, quantity, stopPrice }: Uncovered): Promise<string> {
  const none = `, so ${quantity} contract(s) have NO stop at the broker`
  if (!context.session.placeStopOrder) return `${none} (this broker connection cannot place a lone stop)`
  try {
    const action = row.side === 'LONG' ? 'Sell' : 'Buy'
    const { orderId } = await context.session.placeStopOrder({ tag, contract: { id: row.broker_contract_id!, name: row.contract! }, action, quantity, stopPrice })
    await loneStopPlaced(context.db, row.trade_id, orderId)
    return `; a stop for their ${quantity} contract(s) was placed at ${stopPrice} (order ${orderId})`
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    if (outcomeUnknown(error)) return `; a stop for their ${quantity} contract(s) was sent but its outcome is unknown (check the broker for ${tag}.sl): ${error.message}`
    return `; a stop for them was refused (${error.message})${none}`
  }
}
