import { exitSideOf } from '@signals/contracts'
import { sql, type Database, type Kysely, type Side } from '@signals/db'
import { BrokerError, isDone, type BrokerOrder, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { filledOnTrade, noteTrade } from '../../repositories/trade-exits.ts'
import { loneStopPlaced, noteFailure } from '../../repositories/trade-targets.ts'
import { cancelQuietly } from '../positions/cancel-quietly.ts'
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
 * targets-breakeven.md, "A partial close racing the pairs"). A close taking the whole trade cancels both legs:
 * left working until the keeper applied its fill, they would close the other trades' contracts (and turn the
 * account over); a close not carried out places its stop again (growBracketBack). The keeper's resize after the
 * fill then changes nothing. Returns the legs: sized from the database's quantity, not the broker's
 * (room-for-close.ts does not count them).
 */
export async function shrinkBracket(db: Kysely<Database>, session: BrokerSession, trade: BracketTrade, left: number, listed: readonly BrokerOrder[]): Promise<number[]> {
  const legs = workingLegs(trade, listed)
  if (left > 0) for (const leg of legs) await session.resizeOrder(leg, (await filledOnTrade(db, trade.id, leg)) + left)
  else for (const leg of legs) await cancelQuietly(session, leg)
  return legs
}

/** The trade as a put-back needs it now (its stored legs may have changed since the cut: a stop placed again). */
async function bracketRow(db: Kysely<Database>, tradeId: number) {
  const result = await sql<{ quantity: number; status: string; stop_order_id: number | null; target_order_id: number | null; contract: string | null; record_id: number | null; tag: string | null }>`
    SELECT t.quantity::int AS quantity, t.status, t.alert_record_id::int AS record_id, t.stop_order_id::int AS stop_order_id, t.target_order_id::int AS target_order_id, t.contract,
           COALESCE(a.order_tag, 'sig-' || a.id) AS tag
    FROM trades t LEFT JOIN alerts a ON a.id = t.alert_record_id WHERE t.id = ${tradeId}`.execute(db)
  return result.rows[0]
}

/**
 * A close that was not carried out (or not in full): the trade's bracket cut for it is put back to what the
 * trade holds, never by more than the broker's position leaves without a stop (room-at-broker.ts: a stop filled
 * there whose fill is not applied yet has closed contracts the trade still counts). Shrunk legs grow back, the
 * target following its stop; legs cancelled for it (the close was to take the whole trade) get the stop placed
 * again at the price the cancelled one had, under `.sl` (it becomes the trade's stop); the target is not (it
 * would not be linked to the new stop). Broker errors are noted on the trade, not thrown (the close's own
 * refusal is what the request waits on). A stop placed again is said on the trade and its record; legs resized,
 * when `tell` or when less than the trade holds.
 */
export async function growBracketBack(db: Kysely<Database>, session: BrokerSession, trade: BracketTrade & { contractId: number }, why: string, tell = false): Promise<void> {
  try {
    const row = await bracketRow(db, trade.id)
    if (row?.status !== 'open') return
    const listed = await session.listOrders({ fresh: true })
    const stored = { ...trade, stop_order_id: row.stop_order_id, target_order_id: row.target_order_id }
    const legs = workingLegs(stored, listed)
    const { room } = await roomAtBroker(session, { side: trade.side, broker_contract_id: trade.contractId }, listed)
    const stop = legs.includes(stored.stop_order_id ?? -1) ? stored.stop_order_id! : null
    // Cancelled (for a close to take the whole trade, or by hand): placed again. Filled: its contracts are gone.
    const cancelled = stop === null && listed.some((order) => order.id === stored.stop_order_id && order.status === 'Canceled')
    if (cancelled) return await stopPlacedAgain(db, session, { ...stored, ...row, contractId: trade.contractId, room }, why)
    if (legs.length === 0) return
    const versions = await session.orderVersions(legs)
    const filled = new Map<number, number>()
    for (const leg of legs) filled.set(leg, await filledOnTrade(db, trade.id, leg))
    const restOf = (leg: number) => (versions.get(leg)?.quantity ?? 0) - filled.get(leg)!
    // The stop grows by what the position leaves uncovered; the target (paired with it) to the same size.
    const wanted = stop === null ? Math.min(row.quantity, restOf(legs[0]!)) : Math.min(row.quantity, restOf(stop) + room)
    const changed = legs.filter((leg) => restOf(leg) !== wanted && wanted > 0)
    for (const leg of changed) await session.resizeOrder(leg, filled.get(leg)! + wanted)
    const short = wanted < row.quantity ? " (the broker's position leaves no more without a stop)" : ''
    const put = `${why}; its stop and target were put back for ${wanted} of the ${row.quantity} contract(s) held${short}`
    if (tell && changed.length > 0) await noteBoth(db, trade.id, row.record_id, put)
    else if (short !== '') await noteTrade(db, trade.id, put)
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    await noteTrade(db, trade.id, `${why} and the stop and target shrunk for it could not be put back: ${error.message}`)
  }
}

/**
 * The trade's stop was cancelled for a close that was to take it whole and did not: a stop for what the
 * broker's position leaves uncovered (at most the trade's quantity), at the cancelled stop's price, becomes the
 * trade's stop. Noted on the trade and its record.
 */
async function stopPlacedAgain(
  db: Kysely<Database>,
  session: BrokerSession,
  trade: BracketTrade & { contractId: number; quantity: number; contract: string | null; tag: string | null; record_id: number | null; room: number },
  why: string,
): Promise<void> {
  const quantity = Math.min(trade.quantity, trade.room)
  if (quantity <= 0) return
  const stopPrice = (await session.orderVersions([trade.stop_order_id!])).get(trade.stop_order_id!)?.stopPrice ?? null
  if (!session.placeStopOrder || stopPrice === null || trade.contract === null || trade.tag === null) {
    const cannot = stopPrice === null ? "the stop's price is unknown" : 'no stop can be placed on this connection'
    return noteBoth(db, trade.id, trade.record_id, `${why} and its stop and target had been cancelled for it: ${quantity} contract(s) have NO stop at the broker (${cannot})`)
  }
  const { orderId } = await session.placeStopOrder({ tag: trade.tag, contract: { id: trade.contractId, name: trade.contract }, action: exitSideOf(trade.side), quantity, stopPrice })
  await loneStopPlaced(db, trade.id, orderId)
  const notHeld = quantity < trade.quantity ? ` (${trade.quantity - quantity} of the ${trade.quantity} are closed or covered at the broker already)` : ''
  await noteBoth(db, trade.id, trade.record_id, `${why}; its stop and target had been cancelled for it: a stop for ${quantity} contract(s) was placed again at ${stopPrice} (order ${orderId})${notHeld}, its target is gone`)
}

/** Said on the trade and, when it has one, its record (what the trader reads of the alert). */
async function noteBoth(db: Kysely<Database>, tradeId: number, recordId: number | null, note: string): Promise<void> {
  if (recordId !== null) await noteFailure(db, recordId, tradeId, note)
  else await noteTrade(db, tradeId, note)
}
