import { exitSideOf } from '@signals/contracts'
import type { BrokerOrder } from '../../feeds/broker/broker-adapter.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import { claimStopGap, exitOnItsWay, releaseStopGap, hasTargetPairs, noteFailure, pairsInFlight, targetPlanOf, type TargetPlanRow } from '../../repositories/trade-targets.ts'
import { tryExitLock } from '../../repositories/exit-locks.ts'
import { findTargets, tradeStopPrice } from './find-targets.ts'
import { heldAtBroker } from './held-at-broker.ts'
import { sendLoneStop } from './lone-stop.ts'
import { remainingOf, roomAtBroker } from './room-at-broker.ts'
import { listedContext, type TargetContext } from './target-context.ts'

/**
 * How long a pair claimed without a stored answer counts as being sent (by this run or another instance's)
 * rather than lost: past it, a crash between the whole-position stop's cancel and the pair's send is taken as
 * such, and its contracts are covered. A gap's claim is held as long (its stop may be on its way), then taken
 * again when the same gap is seen (a crash between the claim and the send, or a stop whose outcome stayed
 * unknown and which the broker never placed). Longer than a broker request lasts (10 s at Tradovate).
 */
export const PAIR_IN_FLIGHT_MS = 30_000

/** What a check of one trade found and did, in words (tests, logs), or null when its stops add up. */
type GapOutcome = string | null

/**
 * The stops of a trade with target pairs checked against what the broker holds of it, and a gap covered
 * (docs/decisions/targets-breakeven.md, "Stops that do not add up"): a shrink of the whole-position stop whose
 * answer was lost but which the broker carried out, a crash between its cancel and the last pair's send, a
 * pair whose answer was lost and which was never placed, a partial close filled only in part. Everything is
 * read from the broker now (its working orders, their versions and fills, its position), never the keeper's
 * book. A stop is placed for the gap only where it cannot close more than is held:
 * - the gap is what the broker holds of the trade (`heldAtBroker`) less what the trade's working stops still
 *   close, and never more than the account's position in the contract less every working stop on its closing
 *   side and every working Market order closing it (a close on its way);
 * - nothing is done while a pair of the trade may be on its way (claimed less than PAIR_IN_FLIGHT_MS ago, no
 *   answer stored) or an exit of the position is (a flatten or a partial close not done: a partial close cuts
 *   the exits before its order leaves, and puts back what it does not close itself);
 * - each gap is claimed (committed) before its stop is sent, keyed by what was seen (the quantity held and the
 *   ids of the trade's working stops), so two runs seeing the same gap place one stop; an unknown outcome is
 *   found by its tag (`.sl`) by the next look and counted. A claim is settled: a refused stop lets it go (the
 *   next pass tries again); one whose stop never reached the broker (a crash after the claim, an unknown
 *   outcome not placed) is taken again once it is PAIR_IN_FLIGHT_MS old. Its stop, once working, is among
 *   the working stops and so in the key: the same key seen again means no `.sl` placed since the claim is
 *   working. A claim holding the check back is noted on the trade and the record.
 * The stop, at the trade's stop price (as its working stops have it, else the tightest its done stops had), becomes
 * the trade's stop; the next balance of the exits (a fill, a partial close) sets it to what no pair covers.
 * Callers run it behind the keeper's other work for the user, so it never falls inside the keeper's own sends;
 * it holds the user's exit lock for the contract (repositories/exit-locks.ts) from its look for an exit on its
 * way to its stop's send, as the flatten runner does from a close's cut to its send, and skips while a close holds it.
 */
export async function coverStopGaps(base: Pick<TargetContext, 'db' | 'session' | 'userId'>, recordId: number): Promise<GapOutcome> {
  const { db, session, userId } = base
  const row = await targetPlanOf(db, recordId, userId)
  if (!row || row.status !== 'open' || row.contract === null || row.broker_contract_id === null || !session.placeStopOrder) return null
  // Exclusive with a close's cut and send (the flatten runner's, outside the keeper's queue): a check reading
  // the broker between the two would take the cut for a gap. Held elsewhere: a close is being carried out,
  // and its order's end (or the next pass) asks for a check.
  const run = await tryExitLock(db, userId, row.contract, (locked) => checkTrade({ ...base, db: locked }, recordId, { ...row, contract: row.contract!, broker_contract_id: row.broker_contract_id! }))
  return run.locked ? run.value : null
}

async function checkTrade(base: Pick<TargetContext, 'db' | 'session' | 'userId'>, recordId: number, row: TargetPlanRow & { contract: string; broker_contract_id: number }): Promise<GapOutcome> {
  const { db, session, userId } = base
  if (!(await hasTargetPairs(db, recordId)) || (await pairsInFlight(db, recordId, PAIR_IN_FLIGHT_MS)) || (await exitOnItsWay(db, userId, row.contract))) return null
  const listed = await session.listOrders({ fresh: true })
  const context = listedContext(db, session, userId, listed)
  const pairs = await findTargets(context, recordId)
  const held = await heldAtBroker(db, row.trade_id, row.quantity, pairs)
  const inContract = listed.filter((order) => order.contractId === row.broker_contract_id && order.action === exitSideOf(row.side))
  const ofRecord = (order: BrokerOrder) => order.id === row.stop_order_id || (parseOrderTag(order.tag)?.recordId === recordId && parseOrderTag(order.tag)?.leg === 'stop')
  const { working, versions, filled, room } = await roomAtBroker(session, row, listed)
  const recordStops = working.filter(ofRecord)
  const covered = recordStops.reduce((sum, order) => sum + remainingOf(order, versions, filled), 0)
  const gap = Math.min(held - covered, room)
  if (gap <= 0) return null
  const stopPrice = await tradeStopPrice(session, inContract, row, recordId)
  const tag = row.order_tag ?? `sig-${recordId}`
  const told = `${gap} contract(s) of the trade had no stop at the broker (its stops closed ${covered} of the ${held} held)`
  const key = `held ${held}; stops ${recordStops.map((order) => order.id).sort((a, b) => a - b).join(',')}`
  // Claimed first: one run acts on (or tells of) a gap at a time.
  const claim = await claimStopGap(db, row.trade_id, key, gap, PAIR_IN_FLIGHT_MS)
  if (!claim.taken) {
    const ago = Math.max(Math.round((Date.now() - claim.claimedAt.getTime()) / 1000), 0)
    return note(base, recordId, row, `${told}: a stop for them was already claimed ${ago} s ago and may be on its way (check the broker for ${tag}.sl); checked again on the next pass`)
  }
  if (stopPrice === null) return note(base, recordId, row, `${told}, and no stop price of the trade is known to place one at`)
  const sent = await sendLoneStop(context, { row, tag, quantity: gap, stopPrice })
  if (sent.kind === 'placed') return note(base, recordId, row, `${told}: a stop for ${gap} contract(s) was placed at ${stopPrice} (order ${sent.orderId})`)
  if (sent.kind === 'unknown') return note(base, recordId, row, `${told}: a stop for ${gap} contract(s) was sent but its outcome is unknown (check the broker for ${tag}.sl): ${sent.message}`)
  // Refused (or not sendable): nothing reached the broker, so the next pass may claim the gap and try again.
  await releaseStopGap(db, row.trade_id, key)
  return note(base, recordId, row, `${told}, and a stop for them was refused (${sent.kind === 'refused' ? sent.message : 'no lone stop on this connection'}): they have NO stop at the broker`)
}

async function note(base: Pick<TargetContext, 'db'>, recordId: number, row: TargetPlanRow, text: string): Promise<string> {
  await noteFailure(base.db, recordId, row.trade_id, text)
  return text
}
