import { cancelQuietly } from '../positions/cancel-quietly.ts'
import { filledOnTrade } from '../../repositories/trade-exits.ts'
import { loneStopPlaced, resizedTarget, type TargetPlanRow } from '../../repositories/trade-targets.ts'
import { heldAtBroker } from './held-at-broker.ts'
import { wholePositionStops, type FoundTarget } from './find-targets.ts'
import type { TargetContext } from './target-context.ts'

/** A pair as it stands: what is left of it to close, and the whole quantity each leg has already filled. */
interface PairLeft {
  pair: FoundTarget
  left: number
  targetFilled: number
  stopFilled: number
}

async function pairLeft(context: TargetContext, tradeId: number, pair: FoundTarget): Promise<PairLeft> {
  const targetFilled = await filledOnTrade(context.db, tradeId, pair.orderId)
  const stopFilled = pair.stop === null ? 0 : await filledOnTrade(context.db, tradeId, pair.stop.orderId)
  const stopLive = pair.stop?.working === true
  // A target whose stop is gone (done, or cancelled by hand) is cancelled: a target without its stop could
  // outlive the position. A stop whose target is gone stays: it still protects its contracts.
  const left = stopLive ? Math.max(pair.quantity - targetFilled - stopFilled, 0) : 0
  return { pair, left, targetFilled, stopFilled }
}

/** Sets both legs of a pair to `left` contracts still to close (each leg's whole quantity, its fills included); 0 cancels both. */
async function setPair(context: TargetContext, recordId: number, pair: PairLeft, left: number): Promise<void> {
  const { session } = context
  const legs = [{ id: pair.pair.orderId, working: pair.pair.working, filled: pair.targetFilled }, ...(pair.pair.stop ? [{ id: pair.pair.stop.orderId, working: pair.pair.stop.working, filled: pair.stopFilled }] : [])]
  for (const leg of legs.filter((leg) => leg.working)) {
    if (left === 0) await cancelQuietly(session, leg.id)
    else await session.resizeOrder(leg.id, leg.filled + left)
  }
  if (left !== pair.left) await resizedTarget(context.db, recordId, pair.pair.level, pair.pair.quantity - (pair.left - left))
}

/**
 * After a part of the trade closed (a target, a stop, a partial close), its exits are put back in balance at
 * the broker: each pair's legs for what is left of the pair (a part of one leg shrinks the other: the broker
 * resizes nothing by itself), the pairs cut from the farthest so they never close more than is open, and the
 * whole-position stop set to what no pair covers. Shrinking comes first, growing last, so the stops and the
 * targets never total more than the position. Returns how many contracts are left with no stop (the
 * whole-position stop gone and no pair covering them): the trade says so; a caller that can, covers them.
 */
export async function balanceExits(context: TargetContext, recordId: number, row: TargetPlanRow, pairs: readonly FoundTarget[], held?: number): Promise<number> {
  const lefts = await Promise.all(pairs.map((pair) => pairLeft(context, row.trade_id, pair)))
  // What the broker holds of the trade now (`held`), not what the database has applied: a pair done at the
  // broker whose fill is still on its way covers nothing and holds nothing (docs/decisions/targets-breakeven.md).
  const position = held ?? (await heldAtBroker(context.db, row.trade_id, row.quantity, pairs))
  let excess = lefts.reduce((sum, pair) => sum + pair.left, 0) - position
  const wanted = new Map<PairLeft, number>()
  for (const pair of [...lefts].reverse()) {
    const cut = Math.min(Math.max(excess, 0), pair.left)
    excess -= cut
    wanted.set(pair, pair.left - cut)
  }
  for (const pair of lefts) {
    const left = wanted.get(pair)!
    // What each working leg still closes, as last set (the pair's quantity less its own fills only).
    const targetRest = pair.pair.working ? pair.pair.quantity - pair.targetFilled : 0
    const stopRest = pair.pair.stop?.working ? pair.pair.quantity - pair.stopFilled : 0
    if (targetRest !== left || stopRest !== left) await setPair(context, recordId, pair, left)
  }
  const covered = [...wanted.values()].reduce((sum, left) => sum + left, 0)
  return setMainStop(context, recordId, row, position - covered)
}

/**
 * The whole-position stop covers what no pair does: resized, or cancelled at 0; with none left to grow, what
 * it cannot cover is returned. Every working `.sl` of the record counts (a lone stop whose answer was lost
 * included): the stored one (or the first found, then stored) is kept, any other cancelled first.
 */
async function setMainStop(context: TargetContext, recordId: number, row: TargetPlanRow, wanted: number): Promise<number> {
  const [main, ...others] = await wholePositionStops(context, recordId, row.stop_order_id)
  if (main === undefined) return Math.max(wanted, 0)
  if (main !== row.stop_order_id) await loneStopPlaced(context.db, row.trade_id, main)
  for (const other of others) await cancelQuietly(context.session, other)
  const version = (await context.session.orderVersions([main])).get(main)
  const filled = await filledOnTrade(context.db, row.trade_id, main)
  if (wanted <= 0) await cancelQuietly(context.session, main)
  else if (version === undefined || version.quantity - filled !== wanted) await context.session.resizeOrder(main, filled + wanted)
  return 0
}

/** What the trade is told of contracts balanceExits left without a stop. */
export const uncoveredNote = (uncovered: number) => `${uncovered} contract(s) of the trade have no stop at the broker: the whole-position stop is gone and no target's stop covers them`
