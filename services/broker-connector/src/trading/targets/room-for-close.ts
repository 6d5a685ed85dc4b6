import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { Database, Kysely, Side } from '@signals/db'
import { hasTargetPairs, noteFailure, targetPlanOf } from '../../repositories/trade-targets.ts'
import { growBracketBack, shrinkBracket, type BracketTrade } from './bracket-for-close.ts'
import { balanceExits, uncoveredNote } from './balance-exits.ts'
import { findTargets, tradeStopPrice, workingStops } from './find-targets.ts'
import { heldAtBroker } from './held-at-broker.ts'
import { roomAtBroker } from './room-at-broker.ts'
import { listedContext, type TargetContext } from './target-context.ts'
import { stopTheRest } from './lone-stop.ts'

/** A trade a partial close reaches, in the order its fill reaches them (closingOrder, trade-exits.ts). */
interface ClosedTrade extends BracketTrade {
  quantity: string
  alert_record_id: number | null
}

/**
 * A trade whose exits were cut for a close: what is needed to put them back if the close is refused. A
 * trade with target pairs (`recordId`), or one whose bracket was shrunk (`bracket`).
 */
export type CutForClose =
  | {
      recordId: number
      /** The trade's stop price before the cut (its stops all stand at one price), or null when unknown. */
      stopPrice: string | null
    }
  | { bracket: BracketTrade & { contractId: number } }

/**
 * Before a partial close of `quantity` is sent: each trade it will reach that has targets paired with their
 * own stops has its exits cut to what will be left (the farthest pair first, both legs; then the
 * whole-position stop), so that once the close fills no stop or target closes more than is held. Until the
 * close fills, those contracts have fewer exits than the position (the accepted side). Each trade is added
 * to `cut` before its exits are touched, so a close refused (or a cut failing half way) can put them back.
 * Returns the legs of the trades it reaches that have a bracket (no pairs), for `roomForClose` to leave out:
 * they are sized from the database's quantity (shrunk here, resized by the keeper once the close's fill is
 * applied), which may differ from the broker's (a trade sold in part by hand) and is not the pairs' race.
 */
export async function makeRoomForClose(db: Kysely<Database>, session: BrokerSession, userId: string, trades: readonly ClosedTrade[], quantity: number, cut: CutForClose[], contractId: number): Promise<Set<number>> {
  const listed = await session.listOrders()
  const context = listedContext(db, session, userId, listed)
  const leftToKeeper = new Set<number>()
  let left = quantity
  for (const trade of trades) {
    if (left <= 0) break
    const recordId = trade.alert_record_id
    const row = recordId === null ? undefined : await targetPlanOf(db, recordId, userId)
    const pairs = recordId === null || row?.status !== 'open' ? [] : await findTargets(context, recordId)
    // What the broker holds of the trade now (its pairs filled there but not yet applied are gone): the close
    // takes from that, and the exits are cut to what it leaves (the close's fill reaches the trades once the
    // keeper has applied those fills, first in, first out). The trade's quantity is the one read now beside
    // its applied fills: the caller's list was read before, and a pair's fill applied since (TP1) would be
    // counted twice as held (the model's seeds -617256376 and -1114788195: no pair cut, stops 2 for 1 held).
    const held = row === undefined ? Number(trade.quantity) : await heldAtBroker(db, row.trade_id, row.quantity, pairs)
    const taken = Math.min(left, held)
    left -= taken
    if (recordId === null || row === undefined || (pairs.length === 0 && !(await hasTargetPairs(db, recordId)))) {
      // A bracket (exit plans off, or an entry without them): both legs shrunk to what the close leaves (cancelled when it leaves none).
      cut.push({ bracket: { id: trade.id, side: trade.side, stop_order_id: trade.stop_order_id, target_order_id: trade.target_order_id, contractId } })
      for (const id of await shrinkBracket(db, session, trade, held - taken, listed)) leftToKeeper.add(id)
      continue
    }
    const [stop] = await workingStops(session, recordId, row.stop_order_id, context.orders())
    cut.push({ recordId, stopPrice: stop === undefined ? null : ((await session.orderVersions([stop])).get(stop)?.stopPrice ?? null) })
    await balanceExits(context, recordId, row, pairs, held - taken)
  }
  return leftToKeeper
}

/**
 * How much of a close of `quantity` may be sent now, its cut made (makeRoomForClose): read again from the
 * broker, at most the account's position on the side less every working stop and close on its way that will
 * still work once it fills (room-at-broker.ts; the legs of the brackets it reaches left out). So a
 * close never sells contracts the broker no longer holds (pair stops filled while it read, their fills not
 * applied: the model's seed -1587473877) nor leaves stops closing more than is held. Stops and targets that
 * fill meanwhile take contracts and their own stops together: the room stays. `why`: when less than asked.
 */
export async function roomForClose(session: BrokerSession, side: Side, contractId: number, quantity: number, leftToKeeper: ReadonlySet<number>): Promise<{ quantity: number; why: string | null }> {
  const { onSide, room } = await roomAtBroker(session, { side, broker_contract_id: contractId }, await session.listOrders({ fresh: true }), leftToKeeper)
  if (room >= quantity) return { quantity, why: null }
  const why = onSide === 0
    ? `the broker holds no ${side} position now (stops or targets filled meanwhile, their fills not applied yet)`
    : `of the ${side} position of ${onSide} the broker holds now, ${onSide - room} contract(s) are covered by working stops or closes on their way, so ${room === 0 ? 'none' : `only ${room}`} may be closed without a stop left closing more than is held`
  return { quantity: room, why }
}

/**
 * The broker did not carry out a partial close (a refusal, a wait) after its room was made: the trades' exits
 * are put back to what they hold (docs/decisions/targets-breakeven.md). The whole-position stop grows back
 * where it still works; the pairs cut are gone (a cancelled order cannot come back), so their contracts get
 * a stop of their own (it becomes the trade's stop; the next attempt cuts it first). That stop is sized as the
 * gap check sizes one: never more than the broker's position leaves without a stop (a stop filled at the
 * broker whose fill is not applied yet has closed contracts the database still counts), the trade's status
 * and stop price read again just before the send (breakeven or the trail may have moved its stops since the
 * cut). Their targets are not placed again: the record says so. Broker errors here are noted, not thrown:
 * the close's own refusal is what the request waits on. Callers hold the exit lock of the contract.
 */
export async function putBackAfterRefusedClose(db: Kysely<Database>, session: BrokerSession, userId: string, cut: readonly CutForClose[], why = 'the partial close was not carried out'): Promise<void> {
  if (cut.length === 0) return
  const context = listedContext(db, session, userId, await session.listOrders())
  for (const trade of cut) {
    if ('bracket' in trade) {
      await growBracketBack(db, session, trade.bracket, why)
      continue
    }
    const { recordId, stopPrice } = trade
    const row = await targetPlanOf(db, recordId, userId)
    if (!row || row.status !== 'open') continue
    try {
      const uncovered = await balanceExits(context, recordId, row, await findTargets(context, recordId))
      if (uncovered > 0) await stopWhatIsLeft(context, recordId, { uncovered, stopPrice, why })
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      await noteFailure(db, recordId, row.trade_id, `${why} and the exits cut for it could not be put back: ${error.message}`)
    }
  }
}

/**
 * A stop for the contracts of a put-back left without one: at most what the broker's position leaves
 * uncovered now (room-at-broker.ts), at the trade's stop price as its stops stand now (else the price at the
 * cut), for a trade still open. Noted on the trade.
 */
async function stopWhatIsLeft(context: TargetContext, recordId: number, put: { uncovered: number; stopPrice: string | null; why: string }): Promise<void> {
  const { db, session, userId } = context
  const { uncovered, why } = put
  const row = await targetPlanOf(db, recordId, userId)
  if (!row || row.status !== 'open') return
  if (row.contract === null || row.broker_contract_id === null) {
    await noteFailure(db, recordId, row.trade_id, `${why}; ${uncoveredNote(uncovered)}`)
    return
  }
  const listed = await session.listOrders({ fresh: true })
  const { room } = await roomAtBroker(session, { side: row.side, broker_contract_id: row.broker_contract_id }, listed)
  const quantity = Math.min(uncovered, room)
  const notHeld = quantity < uncovered ? ` (${uncovered - quantity} of the ${uncovered} are closed or covered at the broker already)` : ''
  if (quantity <= 0) {
    await noteFailure(db, recordId, row.trade_id, `${why} and the targets cut for it are gone; no stop was put back: the broker's position has no contract without a stop${notHeld}`)
    return
  }
  const stopPrice = (await tradeStopPrice(session, listed, row, recordId)) ?? put.stopPrice
  if (stopPrice === null) await noteFailure(db, recordId, row.trade_id, `${why}; ${uncoveredNote(quantity)} (the trade's stop price was unknown)`)
  else await noteFailure(db, recordId, row.trade_id, `${why} and the targets cut for it are gone${notHeld}${await stopTheRest(context, { row, tag: row.order_tag ?? `sig-${recordId}`, quantity, stopPrice })}`)
}

/**
 * A partial close whose outcome stayed unknown was given up (`lookForSent`: never listed by the broker under
 * its tag): its cut is put back as a refused close's is, but only when the broker's position shows the close
 * did not happen, i.e. it still holds at least what all our trades on that side hold (`ours`: a source's exit
 * closes its own trades, the position holds every source's; a close filled there whose
 * fill the keeper has not applied would show a smaller position: then nothing is put back, as putting back
 * could close more than is held; the trade's stops are checked by the next pass once the fill is applied).
 * Each trade's stop price is read from its stops still working. Returns what the request's outcome adds.
 */
export async function putBackAfterGivenUp(db: Kysely<Database>, session: BrokerSession, userId: string, exit: { onSide: number; ours: number; trades: readonly ClosedTrade[]; why: string; contractId: number }): Promise<string> {
  const { onSide, ours, trades } = exit
  if (trades.length === 0) return ''
  if (onSide < ours) return `; the broker holds ${onSide} of the ${ours} contract(s) of these trades, so what was cut for it is not put back`
  const listed = await session.listOrders()
  const cut: CutForClose[] = []
  for (const trade of trades) {
    const recordId = trade.alert_record_id
    const row = recordId === null ? undefined : await targetPlanOf(db, recordId, userId)
    // A bracket shrunk for the close (a trade without target pairs) grows back to what the trade holds.
    if (recordId === null || row === undefined || !(await hasTargetPairs(db, recordId))) {
      cut.push({ bracket: { id: trade.id, side: trade.side, stop_order_id: trade.stop_order_id, target_order_id: trade.target_order_id, contractId: exit.contractId } })
      continue
    }
    if (row.status !== 'open') continue
    // Every stop of it may have been cut for the close: the price its stops had.
    cut.push({ recordId, stopPrice: await tradeStopPrice(session, listed, row, recordId) })
  }
  await putBackAfterRefusedClose(db, session, userId, cut, exit.why)
  return cut.length === 0 ? '' : '; the broker still holds the position, so what was cut for it was put back'
}
