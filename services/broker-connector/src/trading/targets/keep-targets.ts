import { exitSideOf, type ExitPlan } from '@signals/contracts'
import { contractSpec, parseDecimal, toFixed } from '@signals/instruments'
import { BrokerError, isDone, outcomeUnknown, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { parseOrderTag, roundToTick } from '../entry/order-plan.ts'
import { cancelQuietly } from '../positions/cancel-quietly.ts'
import { TARGETS_NOTE } from '../../repositories/entry-records.ts'
import { filledOnTrade } from '../../repositories/trade-exits.ts'
import { claimTargets, hasTargetPairs, noteFailure, noteRecord, pairSendBegins, targetPlanOf, targetSent, type TargetPlanRow } from '../../repositories/trade-targets.ts'
import { balanceExits, uncoveredNote } from './balance-exits.ts'
import { coverStopGaps } from './cover-gaps.ts'
import { findTargets, firstTargetPrice, workingStops } from './find-targets.ts'
import { stopTheUncovered } from './lone-stop.ts'
import { tightenStop } from './move-stops.ts'
import { splitTargets, type SizedTarget } from './split-targets.ts'
import type { TargetContext } from './target-context.ts'

/**
 * After an entry fill (docs/decisions/targets-breakeven.md): once the entry has filled in full, each contract
 * of the record's targets goes out with its own stop, a pair of one contract linked at the broker (OCO), once
 * (claimed before it is sent). For each, the whole-position stop is first shrunk by the pair's quantity (cancelled at 0), then the pair
 * is sent: the stops and the targets never total more than the position (for the moment of the send, the
 * pair's contracts have no stop: the accepted side). A pair refused grows the stop back. Until then the stop
 * (the OSO's leg) protects what has filled; a target never rests before its contracts are held.
 */
export async function placeTargetsAfterEntry(context: TargetContext, recordId: number): Promise<void> {
  const { db, session } = context
  const row = await targetPlanOf(db, recordId, context.userId)
  if (!row || row.status !== 'open' || row.order_quantity === null || row.entered < row.order_quantity) return
  const plan = row.exit_plan as ExitPlan
  const spec = row.root === null ? undefined : contractSpec(row.root)
  if (!session.placeTargetPair || !spec || row.contract === null || row.broker_contract_id === null) {
    await noteFailure(db, recordId, row.trade_id, 'the targets could not be placed: this broker connection cannot place several targets')
    return
  }
  const split = splitTargets(plan.targets, row.order_quantity)
  const pairs = pairsOfOne(trimFarthest(split.targets, row.quantity))
  const claimed = new Set(await claimTargets(db, recordId, pairs.map((pair) => pair.sized)))
  // Claimed before (a replayed fill, the session opened again after a crash): only the stops are checked.
  if (claimed.size === 0) {
    await checkStops(context, recordId)
    return
  }
  const placed = new Map<number, { count: number; price: string }>()
  const main = row.stop_order_id ?? [...context.orders()].find((order) => order.tag === `${row.order_tag ?? `sig-${recordId}`}.sl`)?.id ?? null
  for (const pair of pairs.filter((pair) => claimed.has(pair.sized.level))) {
    const price = roundToTick(pair.sized.price, spec.tickSize, row.side === 'LONG' ? 'down' : 'up')
    const failure = await placePair(context, { recordId, row, main, target: pair.sized, price })
    if (failure === null) placed.set(pair.tp, { count: (placed.get(pair.tp)?.count ?? 0) + 1, price })
    else {
      await targetSent(db, recordId, pair.sized.level, { failure })
      await noteFailure(db, recordId, row.trade_id, `TP${pair.tp} (pair ${pair.sized.level}, contract ${pair.index} of ${pair.count}) was not placed: ${failure}`)
      context.logger.warn({ userId: context.userId, recordId, level: pair.tp, pair: pair.sized.level, reason: failure }, 'a target was not placed')
    }
  }
  const said = [...placed].map(([tp, { count, price }]) => `TP${tp} ${count} at ${price}`)
  await noteRecord(db, recordId, `${TARGETS_NOTE}${said.join(', ') || 'none'}${split.note === null ? '' : ` (${split.note})`}`)
  // A shrink whose answer was lost but carried out, or a pair whose answer was lost and never placed, leaves
  // contracts without a stop that no refusal path saw: the stops are added up against the broker's position.
  await checkStops(context, recordId)
}

/**
 * The trade's stops checked against what the broker holds and a gap covered (cover-gaps.ts); a broker that
 * fails is logged and left to the next check (the reconciliation's pass), never thrown into the fill's path.
 * Returns whether a gap was found and acted on.
 */
export async function checkStops(context: TargetContext, recordId: number): Promise<boolean> {
  try {
    const done = await coverStopGaps(context, recordId)
    if (done !== null) context.logger.warn({ userId: context.userId, recordId, outcome: done }, 'a trade\'s stops did not add up to its position')
    return done !== null
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    context.logger.warn({ userId: context.userId, recordId, reason: error.message }, 'the trade\'s stops could not be checked against the broker; checked again on the next pass')
    return false
  }
}

/** One contract of one target, sent as a pair of its own: `sized.level` is the pair's number across the targets, nearest first. */
interface PairOfOne {
  /** The target's level (1 for TP1), as the trader named it. */
  tp: number
  /** Which of the target's contracts (1..count). */
  index: number
  count: number
  sized: SizedTarget
}

/**
 * Each target split into pairs of ONE contract (docs/decisions/targets-breakeven.md, "Pairs of one
 * contract"): a leg of one contract is never filled in part, so the broker's OCO (which resizes nothing on a
 * part) always leaves the stops covering exactly what is held, with or without the connector.
 */
function pairsOfOne(targets: readonly SizedTarget[]): PairOfOne[] {
  let number = 0
  return targets.flatMap((target) => Array.from({ length: target.quantity }, (_, index) => ({ tp: target.level, index: index + 1, count: target.quantity, sized: { level: ++number, price: target.price, quantity: 1 } })))
}

interface PairToPlace {
  recordId: number
  row: TargetPlanRow
  main: number | null
  target: SizedTarget
  price: string
}

/** One target's pair: the whole-position stop shrunk first, then the pair sent at its price; null when placed, else why not. */
async function placePair(context: TargetContext, { recordId, row, main, target, price }: PairToPlace): Promise<string | null> {
  const { session, db } = context
  const tag = row.order_tag ?? `sig-${recordId}`
  // On its way from now (a close or a stops check waits for it), however long the pairs before it took.
  await pairSendBegins(db, recordId, target.level)
  let version
  try {
    version = main === null ? undefined : (await session.orderVersions([main])).get(main)
  } catch (error) {
    // Nothing shrunk yet: the stop still covers the pair's contracts; the pair is said not placed, the next sent.
    if (!(error instanceof BrokerError)) throw error
    return `the trade's stop could not be read at the broker, so its target and the target's stop were not sent: ${error.message}`
  }
  if (main === null || version === undefined || version.stopPrice === null || !context.isLive(main)) return `the trade's stop is not known working at the broker, so its target and the target's stop were not sent`
  const filled = await filledOnTrade(db, row.trade_id, main)
  const left = version.quantity - filled - target.quantity
  if (left < 0) return `the trade's stop covers ${version.quantity - filled} contract(s), fewer than the target's ${target.quantity}`
  try {
    if (left === 0) await session.cancelOrder(main)
    else await session.resizeOrder(main, filled + left)
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    return `the trade's stop could not be shrunk first, so the pair was not sent: ${error.message}`
  }
  try {
    const { targetOrderId, stopOrderId } = await session.placeTargetPair!({ tag, level: target.level, contract: { id: row.broker_contract_id!, name: row.contract! }, action: exitSideOf(row.side), quantity: target.quantity, price, stopPrice: version.stopPrice })
    await targetSent(db, recordId, target.level, { orderId: targetOrderId, stopOrderId })
    return null
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    // Claimed, so never sent again. An unknown outcome may be working: the stop is not grown back (that could
    // close more than is held); the pair is found by its tags (.tpN, .slN) wherever it is looked for.
    if (outcomeUnknown(error)) return `outcome unknown (check the broker for ${tag}.tp${target.level} and ${tag}.sl${target.level}): ${error.message}`
    if (left === 0) return `${error.message}${await stopTheUncovered(context, { row, tag, quantity: target.quantity, stopPrice: version.stopPrice })}`
    return `${error.message}${await growBack(session, main, filled + left + target.quantity)}`
  }
}

/** A pair refused, the whole-position stop still working: it takes the pair's contracts back. */
async function growBack(session: BrokerSession, main: number, quantity: number): Promise<string> {
  try {
    await session.resizeOrder(main, quantity)
    return `; the trade's stop was grown back to cover them`
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    return `; the trade's stop could not be grown back (${error.message}), so they have NO stop at the broker`
  }
}

/** What already closed (a stop filled in part before the targets went out) comes off the farthest targets. */
function trimFarthest(targets: readonly SizedTarget[], open: number): SizedTarget[] {
  let excess = targets.reduce((sum, target) => sum + target.quantity, 0) - open
  const kept = [...targets].reverse().map((target) => {
    const cut = Math.min(Math.max(excess, 0), target.quantity)
    excess -= cut
    return { ...target, quantity: target.quantity - cut }
  })
  return kept.reverse().filter((target) => target.quantity > 0)
}

/**
 * After a closing fill reached the record's trade: closed in full, every leg of every pair still working is
 * cancelled (it would open a position), and so is every other working leg of the record found by its tag in
 * the broker's list (a lone or gap stop whose answer was lost is stored nowhere); closed in part, the exits are put back in balance (balance-exits.ts);
 * TP1's fill moves every stop of the trade to breakeven when asked.
 */
export async function followTargets(context: TargetContext, recordId: number, fill: { orderId: number }, closed: boolean): Promise<void> {
  const { db, session } = context
  const all = await findTargets(context, recordId)
  if (closed) {
    for (const pair of all) for (const leg of [{ orderId: pair.orderId, working: pair.working }, ...(pair.stop ? [pair.stop] : [])]) if (leg.working) await cancelQuietly(session, leg.orderId)
    if (all.length > 0 || (await hasTargetPairs(db, recordId))) await cancelRecordLegs(session, recordId)
    return
  }
  // Pairs claimed but none found (refused, their answers lost) still leave the record's `.sl` stops (a lone
  // stop, a gap stop) to be merged and sized to what is left: the keeper leaves them to this balance.
  if (all.length === 0 && !(await hasTargetPairs(db, recordId))) return
  const row = await targetPlanOf(db, recordId, context.userId)
  if (!row || row.status !== 'open') return
  const uncovered = await balanceExits(context, recordId, row, all)
  // Covered where it may be (nothing on its way that would make a stop close more than is held); else said.
  if (uncovered > 0 && !(await checkStops(context, recordId))) await noteFailure(db, recordId, row.trade_id, uncoveredNote(uncovered))
  const plan = row.exit_plan as ExitPlan
  const filled = all.find((target) => target.orderId === fill.orderId)
  // Any pair of the first target (its contracts are pairs of one) moves the stops; a second finds them moved.
  if (plan.breakeven !== null && filled !== undefined && filled.price === (await firstTargetPrice(context, recordId))) await moveToBreakeven(context, recordId, row, plan.breakeven.offsetTicks)
}

/** Every working leg of the record (`.sl`, `.slN`, `.tpN`, ...; never an entry), found by its tag in the broker's list, cancelled. */
async function cancelRecordLegs(session: BrokerSession, recordId: number): Promise<void> {
  for (const order of await session.listOrders()) {
    const tag = parseOrderTag(order.tag)
    if (!isDone(order.status) && tag !== null && tag.recordId === recordId && tag.leg !== 'entry') await cancelQuietly(session, order.id)
  }
}

/**
 * Every stop of the trade (the whole-position stop and each pair's) moves to the entry price plus
 * `offsetTicks` in the trade's favour, on the tick grid on the side that never leaves it below breakeven;
 * never loosened (a stop already tighter stays), each read and moved in its own order's queue.
 */
async function moveToBreakeven(context: TargetContext, recordId: number, row: TargetPlanRow, offsetTicks: number): Promise<void> {
  const spec = row.root === null ? undefined : contractSpec(row.root)
  if (!spec) return
  if (!context.session.repriceOrder) {
    await noteFailure(context.db, recordId, row.trade_id, 'the stop was not moved to breakeven: this broker connection cannot move a working order')
    return
  }
  const long = row.side === 'LONG'
  const entry = parseDecimal(row.entry_price)
  const tick = parseDecimal(spec.tickSize)
  const scale = Math.max(entry.scale, tick.scale)
  const units = entry.units * 10n ** BigInt(scale - entry.scale) + (long ? 1n : -1n) * BigInt(offsetTicks) * tick.units * 10n ** BigInt(scale - tick.scale)
  const breakeven = roundToTick(toFixed({ units, scale }, scale), spec.tickSize, long ? 'up' : 'down')
  const stops = await workingStops(context.session, recordId, row.stop_order_id, context.orders())
  let moved = 0
  const failures: string[] = []
  for (const stop of stops) {
    try {
      if ((await tightenStop(context.session, stop, { side: row.side, stopPrice: breakeven })) !== null) moved++
      else if ((await context.session.orderVersions([stop])).get(stop)?.stopPrice == null) failures.push(`stop ${stop}: its price at the broker is unknown`)
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      failures.push(`stop ${stop}: ${error.message}`)
    }
  }
  if (moved > 0) await noteRecord(context.db, recordId, `stop moved to breakeven ${breakeven} after TP1`)
  // Unknown, it may be tighter already (a modify alert, the trail): moving it could loosen it.
  if (failures.length > 0) await noteFailure(context.db, recordId, row.trade_id, `the stop was not moved to breakeven ${breakeven}: ${failures.join('; ')}`)
}
