import { isDone, type BrokerOrder } from '../broker/broker-adapter.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import { claimedTargetsOf, targetSent } from '../repositories/trade-targets.ts'
import type { TargetContext } from './keep-targets.ts'

export interface FoundTarget {
  level: number
  /** The quantity it was placed with (or cut to). */
  quantity: number
  orderId: number
  working: boolean
}

/**
 * The record's targets at the broker, found by their tag (`sig-N.tp1`..`.tp3`) in the keeper's book and in
 * the broker's order list, not by the stored order id alone: an id is missing after a crash between the send
 * and its store or an unknown outcome, and an order's event may not have reached the book yet. An order is
 * working unless either source says it is done (done is final). The ids found are stored. Nearest first.
 */
export async function findTargets(context: TargetContext, recordId: number): Promise<FoundTarget[]> {
  const claimed = await claimedTargetsOf(context.db, recordId)
  if (claimed.length === 0) return []
  const byId = new Map<number, BrokerOrder>()
  for (const order of [...context.orders(), ...(await context.session.listOrders())]) {
    const tag = parseOrderTag(order.tag)
    if (tag?.recordId !== recordId || tag.leg !== 'target' || tag.level === undefined) continue
    const known = byId.get(order.id)
    if (!known || !isDone(known.status)) byId.set(order.id, order)
  }
  const found: FoundTarget[] = []
  for (const target of claimed) {
    const order = [...byId.values()].find((order) => parseOrderTag(order.tag)?.level === target.level) ?? (target.order_id === null ? undefined : byId.get(target.order_id))
    if (order === undefined) continue
    if (target.order_id !== order.id) await targetSent(context.db, recordId, target.level, { orderId: order.id })
    found.push({ level: target.level, quantity: target.quantity, orderId: order.id, working: !isDone(order.status) })
  }
  return found
}

/** The first target the trader is sent (the nearest not refused): its fill moves the stop to breakeven. */
export async function firstTargetLevel(context: TargetContext, recordId: number): Promise<number | null> {
  return (await claimedTargetsOf(context.db, recordId)).find((target) => !target.refused)?.level ?? null
}
