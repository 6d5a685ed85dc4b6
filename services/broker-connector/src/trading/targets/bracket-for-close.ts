import type { Database, Kysely, Side } from '@signals/db'
import { BrokerError, isDone, type BrokerOrder, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { filledOnTrade, noteTrade } from '../../repositories/trade-exits.ts'
import { roomAtBroker } from './room-at-broker.ts'

/** A trade whose bracket (one stop and one target for the whole trade, no target pairs) a close reaches. */
export interface BracketTrade {
  id: number
  side: Side
  stop_order_id: number | null
  target_order_id: number | null
}

/** The trade's bracket legs still working at the broker (`listed`: its orders as listed now). */
const workingLegs = (trade: BracketTrade, listed: readonly BrokerOrder[]) =>
  [trade.stop_order_id, trade.target_order_id].filter((id): id is number => id !== null && listed.some((order) => order.id === id && !isDone(order.status)))

/**
 * Before a close takes `taken` of a trade with a bracket and leaves `left`: both legs are shrunk to `left`
 * (each leg's whole quantity, its own fills included), so that once the close fills neither closes more than
 * is held; until then the contracts closed have no stop (the accepted side: see docs/decisions/
 * targets-breakeven.md, "A partial close racing the pairs"). The keeper's resize after the fill then changes
 * nothing. A close taking the whole trade leaves its legs to the keeper (cancelled once the fill is applied):
 * a cancelled leg could not be put back if the close were refused. Returns the legs (shrunk or not): sized
 * from the database's quantity, not the broker's (room-for-close.ts does not count them).
 */
export async function shrinkBracket(db: Kysely<Database>, session: BrokerSession, trade: BracketTrade, left: number, listed: readonly BrokerOrder[]): Promise<number[]> {
  const legs = workingLegs(trade, listed)
  if (left > 0) for (const leg of legs) await session.resizeOrder(leg, (await filledOnTrade(db, trade.id, leg)) + left)
  return legs
}

/**
 * A close that was not carried out: the trade's bracket shrunk for it grows back to what the trade holds,
 * never by more than the broker's position leaves without a stop (room-at-broker.ts: a stop filled there whose
 * fill is not applied yet has closed contracts the trade still counts); the target follows its stop. Broker
 * errors are noted on the trade, not thrown (the close's own refusal is what the request waits on).
 */
export async function growBracketBack(db: Kysely<Database>, session: BrokerSession, trade: BracketTrade & { contractId: number }, why: string): Promise<void> {
  try {
    const listed = await session.listOrders({ fresh: true })
    const legs = workingLegs(trade, listed)
    if (legs.length === 0) return
    const row = await db.selectFrom('trades').select(['quantity', 'status']).where('id', '=', trade.id).executeTakeFirst()
    if (row?.status !== 'open') return
    const versions = await session.orderVersions(legs)
    const filled = new Map<number, number>()
    for (const leg of legs) filled.set(leg, await filledOnTrade(db, trade.id, leg))
    const restOf = (leg: number) => (versions.get(leg)?.quantity ?? 0) - filled.get(leg)!
    const stop = legs.includes(trade.stop_order_id ?? -1) ? trade.stop_order_id! : null
    const { room } = await roomAtBroker(session, { side: trade.side, broker_contract_id: trade.contractId }, listed)
    // The stop grows by what the position leaves uncovered; the target (paired with it) to the same size.
    const wanted = stop === null ? Math.min(Number(row.quantity), restOf(legs[0]!)) : Math.min(Number(row.quantity), restOf(stop) + room)
    for (const leg of legs) if (restOf(leg) !== wanted && wanted > 0) await session.resizeOrder(leg, filled.get(leg)! + wanted)
    if (wanted < Number(row.quantity)) await noteTrade(db, trade.id, `${why}; its stop and target were put back for ${wanted} of the ${Number(row.quantity)} contract(s) held (the broker's position leaves no more without a stop)`)
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    await noteTrade(db, trade.id, `${why} and the stop and target shrunk for it could not be put back: ${error.message}`)
  }
}
