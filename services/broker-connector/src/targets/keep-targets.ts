import type { ExitPlan } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { compare, contractSpec, parseDecimal, toFixed } from '@signals/instruments'
import { BrokerError, outcomeUnknown, type BrokerOrder, type BrokerSession } from '../broker/broker-adapter.ts'
import type { Logger } from '../consumers/close-trades.ts'
import { roundToTick } from '../entry/order-plan.ts'
import { cancelQuietly } from '../positions/carry-out.ts'
import { TARGETS_NOTE } from '../repositories/entry-records.ts'
import { filledOnTrade, noteTrade } from '../repositories/trade-exits.ts'
import { claimTargets, noteRecord, resizedTarget, targetPlanOf, targetSent, type TargetPlanRow } from '../repositories/trade-targets.ts'
import { findTargets, firstTargetLevel, type FoundTarget } from './find-targets.ts'
import { splitTargets, type SizedTarget } from './split-targets.ts'

/** What the trade keeper hands over: the user's session and which of its orders still work. */
export interface TargetContext {
  db: Kysely<Database>
  logger: Logger
  userId: string
  session: BrokerSession
  /** True while the broker last told the order is working (the keeper's book). */
  isLive(orderId: number): boolean
  /** The orders of the keeper's book (the broker's events so far). */
  orders(): Iterable<BrokerOrder>
}

const exitSide = (side: 'LONG' | 'SHORT') => (side === 'LONG' ? 'Sell' : 'Buy')

/**
 * After an entry fill (docs/decisions/targets-breakeven.md): once the entry has filled in full, each of the
 * record's targets is placed, once (claimed before it is sent). Until then the stop (the OSO's leg)
 * protects what has filled; a target never rests before its contracts are held. A replayed fill finds the
 * targets claimed and sends nothing.
 */
export async function placeTargetsAfterEntry(context: TargetContext, recordId: number): Promise<void> {
  const { db, session } = context
  const row = await targetPlanOf(db, recordId, context.userId)
  if (!row || row.status !== 'open' || row.order_quantity === null || row.entered < row.order_quantity) return
  const plan = row.exit_plan as ExitPlan
  const spec = row.root === null ? undefined : contractSpec(row.root)
  if (!session.placeTargetOrder || !spec || row.contract === null || row.broker_contract_id === null) {
    await noteTrade(db, row.trade_id, 'the targets could not be placed: this broker connection cannot place several targets')
    return
  }
  const split = splitTargets(plan.targets, row.order_quantity)
  const targets = trimFarthest(split.targets, row.quantity)
  const claimed = new Set(await claimTargets(db, recordId, targets))
  if (claimed.size === 0) return
  const placed: string[] = []
  for (const target of targets.filter((target) => claimed.has(target.level))) {
    const price = roundToTick(target.price, spec.tickSize, row.side === 'LONG' ? 'down' : 'up')
    try {
      const { orderId } = await session.placeTargetOrder({ tag: `${row.order_tag ?? `sig-${recordId}`}.tp${target.level}`, contract: { id: row.broker_contract_id, name: row.contract }, action: exitSide(row.side), quantity: target.quantity, price })
      await targetSent(db, recordId, target.level, { orderId })
      placed.push(`TP${target.level} ${target.quantity} at ${price}`)
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      // Claimed, so never sent again: an unknown outcome is for the trader to check at the broker.
      const failure = outcomeUnknown(error) ? `outcome unknown (check the broker for ${row.order_tag ?? `sig-${recordId}`}.tp${target.level}): ${error.message}` : error.message
      await targetSent(db, recordId, target.level, { failure })
      await noteTrade(db, row.trade_id, `TP${target.level} was not placed: ${failure}`)
      context.logger.warn({ userId: context.userId, recordId, level: target.level, reason: error.message }, 'a target was not placed')
    }
  }
  await noteRecord(db, recordId, `${TARGETS_NOTE}${placed.join(', ') || 'none'}${split.note === null ? '' : ` (${split.note})`}`)
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
 * After a closing fill reached the record's trade: closed in full, its targets still working are cancelled
 * (they would open a position); closed in part by anything but a target, the targets left are cut from the
 * farthest so they never close more than is open; TP1's fill moves the stop to breakeven when asked.
 */
export async function followTargets(context: TargetContext, recordId: number, fill: { orderId: number }, closed: boolean): Promise<void> {
  const { db, session } = context
  const all = await findTargets(context, recordId)
  if (all.length === 0) return
  const targets = all.filter((target) => target.working)
  if (closed) {
    for (const target of targets) await cancelQuietly(session, target.orderId)
    return
  }
  const row = await targetPlanOf(db, recordId, context.userId)
  if (!row || row.status !== 'open') return
  await cutTargets(context, recordId, row, targets.filter((target) => target.orderId !== fill.orderId))
  const plan = row.exit_plan as ExitPlan
  const filled = all.find((target) => target.orderId === fill.orderId)
  if (plan.breakeven !== null && filled !== undefined && filled.level === (await firstTargetLevel(context, recordId))) await moveToBreakeven(context, recordId, row, plan.breakeven.offsetTicks)
}

async function cutTargets(context: TargetContext, recordId: number, row: TargetPlanRow, live: readonly FoundTarget[]): Promise<void> {
  const left = await Promise.all(live.map(async (target) => ({ ...target, filled: await filledOnTrade(context.db, row.trade_id, target.orderId) })))
  let excess = left.reduce((sum, target) => sum + target.quantity - target.filled, 0) - row.quantity
  for (const target of [...left].reverse()) {
    if (excess <= 0) break
    const cut = Math.min(excess, target.quantity - target.filled)
    excess -= cut
    if (target.quantity - target.filled === cut) await cancelQuietly(context.session, target.orderId)
    else await context.session.resizeOrder(target.orderId, target.quantity - cut)
    await resizedTarget(context.db, recordId, target.level, target.quantity - cut)
  }
}

/**
 * The stop moves to the entry price plus `offsetTicks` in the trade's favour, on the tick grid on the side
 * that never leaves it below breakeven; never loosened (a stop already tighter stays).
 */
async function moveToBreakeven(context: TargetContext, recordId: number, row: TargetPlanRow, offsetTicks: number): Promise<void> {
  const spec = row.root === null ? undefined : contractSpec(row.root)
  if (row.stop_order_id === null || !context.isLive(row.stop_order_id) || !spec) return
  if (!context.session.repriceOrder) {
    await noteTrade(context.db, row.trade_id, 'the stop was not moved to breakeven: this broker connection cannot move a working order')
    return
  }
  const long = row.side === 'LONG'
  const entry = parseDecimal(row.entry_price)
  const tick = parseDecimal(spec.tickSize)
  const scale = Math.max(entry.scale, tick.scale)
  const units = entry.units * 10n ** BigInt(scale - entry.scale) + (long ? 1n : -1n) * BigInt(offsetTicks) * tick.units * 10n ** BigInt(scale - tick.scale)
  const breakeven = roundToTick(toFixed({ units, scale }, scale), spec.tickSize, long ? 'up' : 'down')
  const current = (await context.session.orderVersions([row.stop_order_id])).get(row.stop_order_id)?.stopPrice ?? null
  if (current === null) {
    // Unknown, it may be tighter already (a modify alert, the trail): moving it could loosen it.
    await noteTrade(context.db, row.trade_id, `the stop was not moved to breakeven: its price at the broker is unknown`)
    return
  }
  if ((long ? compare(parseDecimal(current), parseDecimal(breakeven)) >= 0 : compare(parseDecimal(current), parseDecimal(breakeven)) <= 0)) return
  try {
    await context.session.repriceOrder(row.stop_order_id, { stopPrice: breakeven })
    await noteRecord(context.db, recordId, `stop moved to breakeven ${breakeven} after TP1`)
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    await noteTrade(context.db, row.trade_id, `the stop was not moved to breakeven ${breakeven}: ${error.message}`)
  }
}
