import { exitSideOf } from '@signals/contracts'
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

/** What became of a lone stop sent: placed (its id), refused, its outcome unknown, or not sendable on this connection. */
type LoneStopSent = { kind: 'placed'; orderId: number } | { kind: 'refused' | 'unknown'; message: string } | { kind: 'cannot' }

/**
 * A GTC stop under `.sl` for contracts left without one, at the trade's stop price; once placed, its id is the
 * trade's stop (the whole-position stop: the keeper, breakeven, the trail, a modify alert and the next close
 * treat it as such). An unknown outcome may be working: it is found by its tag wherever the trade's stops are
 * looked for. Claiming, when needed, is the caller's.
 */
export async function sendLoneStop(context: TargetContext, { row, tag, quantity, stopPrice }: Uncovered): Promise<LoneStopSent> {
  if (!context.session.placeStopOrder) return { kind: 'cannot' }
  try {
    const { orderId } = await context.session.placeStopOrder({ tag, contract: { id: row.broker_contract_id!, name: row.contract! }, action: exitSideOf(row.side), quantity, stopPrice })
    await loneStopPlaced(context.db, row.trade_id, orderId)
    return { kind: 'placed', orderId }
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    return { kind: outcomeUnknown(error) ? 'unknown' : 'refused', message: error.message }
  }
}

/**
 * The whole-position stop was cancelled to make room for a pair the broker then refused: a lone stop takes
 * its contracts at the trade's stop price (docs/decisions/targets-breakeven.md, "The last pair"), claimed
 * first so it is sent once, its id stored as the trade's stop. Returns what the record is to say.
 */
export async function stopTheUncovered(context: TargetContext, uncovered: Uncovered): Promise<string> {
  const { row, tag, quantity, stopPrice } = uncovered
  const cancelled = `; the trade's stop was cancelled to make room for it`
  const none = `so ${quantity} contract(s) have NO stop at the broker`
  if (!context.session.placeStopOrder) return `${cancelled}, ${none} (this broker connection cannot place a lone stop)`
  if (!(await claimLoneStop(context.db, row.trade_id))) return `${cancelled}; a stop for them was already sent once (check the broker for ${tag}.sl)`
  const sent = await sendLoneStop(context, uncovered)
  if (sent.kind === 'placed') return `${cancelled}; a stop for ${quantity} contract(s) was placed in its place at ${stopPrice} (order ${sent.orderId})`
  if (sent.kind === 'unknown') return `${cancelled}; a stop for ${quantity} contract(s) was sent but its outcome is unknown (check the broker for ${tag}.sl): ${sent.message}`
  return `${cancelled} and a stop for them was refused (${sent.kind === 'refused' ? sent.message : 'no lone stop on this connection'}), ${none}`
}

/**
 * Contracts left without a stop once their exits were cut for a close the broker then did not carry out: a
 * stop at the trade's stop price takes them, under `.sl`, and becomes the trade's stop (a later close cuts it
 * first). Not claimed: it is sent once per close not carried out, by the one run carrying that close out.
 * Returns what the record is to say.
 */
export async function stopTheRest(context: TargetContext, uncovered: Uncovered): Promise<string> {
  const { tag, quantity, stopPrice } = uncovered
  const none = `, so ${quantity} contract(s) have NO stop at the broker`
  const sent = await sendLoneStop(context, uncovered)
  if (sent.kind === 'cannot') return `${none} (this broker connection cannot place a lone stop)`
  if (sent.kind === 'placed') return `; a stop for their ${quantity} contract(s) was placed at ${stopPrice} (order ${sent.orderId})`
  if (sent.kind === 'unknown') return `; a stop for their ${quantity} contract(s) was sent but its outcome is unknown (check the broker for ${tag}.sl): ${sent.message}`
  return `; a stop for them was refused (${sent.message})${none}`
}
