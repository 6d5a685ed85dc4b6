import type { Side } from '@signals/db'
import { compare, parseDecimal } from '@signals/instruments'
import { isDone, type BrokerOrder, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import { claimedTargetsOf, pairStopFound, targetSent } from '../../repositories/trade-targets.ts'
import type { TargetContext } from './target-context.ts'

/** One leg of a target's pair at the broker. */
interface FoundLeg {
  orderId: number
  working: boolean
}

export interface FoundTarget {
  /** The pair's number (nearest first; one contract each since pairs of one: docs/decisions/targets-breakeven.md). */
  level: number
  /** The target's price as claimed: every pair of one target has the same. */
  price: string
  /** The quantity the pair was placed with (or cut to). */
  quantity: number
  /** The target (Limit, `.tpN`); kept as `orderId` for the callers that only cut targets. */
  orderId: number
  working: boolean
  /** Its stop (`.slN`, OCO with the target), or null when none is found. */
  stop: FoundLeg | null
  /** A leg of the pair is filled at the broker: its contracts are closed there, whether or not the keeper has applied the fill yet. */
  closedAtBroker: boolean
}

/** The record's orders by id, from the keeper's book and the broker's list: done in either is done (final). */
async function ordersOfRecord(orders: Iterable<BrokerOrder>, session: Pick<BrokerSession, 'listOrders'>, recordId: number): Promise<Map<number, BrokerOrder>> {
  const byId = new Map<number, BrokerOrder>()
  for (const order of [...orders, ...(await session.listOrders())]) {
    if (parseOrderTag(order.tag)?.recordId !== recordId) continue
    const known = byId.get(order.id)
    if (!known || !isDone(known.status)) byId.set(order.id, order)
  }
  return byId
}

/**
 * The record's targets and their stops at the broker, found by their tag (`sig-N.tp1`, `.tp2`, ... and `.sl1`, ...: one pair per contract)
 * in the keeper's book and in the broker's order list, not by the stored order id alone: an id is missing
 * after a crash between the send and its store or an unknown outcome, and an order's event may not have
 * reached the book yet. An order is working unless either source says it is done (done is final). The ids
 * found are stored. Nearest first.
 */
export async function findTargets(context: TargetContext, recordId: number): Promise<FoundTarget[]> {
  const claimed = await claimedTargetsOf(context.db, recordId)
  if (claimed.length === 0) return []
  const byId = await ordersOfRecord(context.orders(), context.session, recordId)
  const byTag = (leg: 'target' | 'stop', level: number) => [...byId.values()].find((order) => { const tag = parseOrderTag(order.tag); return tag?.leg === leg && tag.level === level })
  const found: FoundTarget[] = []
  for (const target of claimed) {
    const order = byTag('target', target.level) ?? (target.order_id === null ? undefined : byId.get(target.order_id))
    const stop = byTag('stop', target.level) ?? (target.stop_order_id === null ? undefined : byId.get(target.stop_order_id))
    if (order === undefined) continue
    // Found by tag after an unknown outcome: stored at once, so every later look has it by id too.
    if (target.order_id !== order.id) await targetSent(context.db, recordId, target.level, { orderId: order.id })
    if (stop !== undefined && target.stop_order_id !== stop.id) await pairStopFound(context.db, recordId, target.level, stop.id)
    found.push({ level: target.level, price: target.price, quantity: target.quantity, orderId: order.id, working: !isDone(order.status), stop: stop === undefined ? null : { orderId: stop.id, working: !isDone(stop.status) }, closedAtBroker: order.status === 'Filled' || stop?.status === 'Filled' })
  }
  return found
}

/**
 * Every stop of a record's trade still working at the broker: the whole-position stop (`.sl`, or the id
 * stored) and each target's paired stop (`.sl1`..`.sl3`). What protects the position is their total.
 */
export async function workingStops(session: Pick<BrokerSession, 'listOrders'>, recordId: number | null, stopOrderId: number | null, orders: Iterable<BrokerOrder> = []): Promise<number[]> {
  if (recordId === null) {
    if (stopOrderId === null) return []
    const listed = (await session.listOrders()).find((order) => order.id === stopOrderId)
    return listed === undefined || isDone(listed.status) ? [] : [stopOrderId]
  }
  const byId = await ordersOfRecord(orders, session, recordId)
  const stops = [...byId.values()].filter((order) => !isDone(order.status) && parseOrderTag(order.tag)?.leg === 'stop').map((order) => order.id)
  const main = stopOrderId === null ? undefined : byId.get(stopOrderId)
  if (stopOrderId !== null && main === undefined) {
    // The stop stored but its tag not listed (an order placed without our tag): looked up by id.
    const listed = (await session.listOrders()).find((order) => order.id === stopOrderId)
    if (listed !== undefined && !isDone(listed.status)) stops.unshift(stopOrderId)
  }
  return stops
}

/**
 * The record's whole-position stops still working: the one stored on the trade and every other `.sl` of the
 * record (a lone stop whose answer was lost is found only by its tag). The stored one first.
 */
export async function wholePositionStops(context: Pick<TargetContext, 'session' | 'orders' | 'isLive'>, recordId: number, stopOrderId: number | null): Promise<number[]> {
  const byId = await ordersOfRecord(context.orders(), context.session, recordId)
  const tagged = [...byId.values()].filter((order) => { const tag = parseOrderTag(order.tag); return !isDone(order.status) && tag?.leg === 'stop' && tag.level === undefined && tag.remainder === undefined }).map((order) => order.id)
  const stored = stopOrderId !== null && (byId.has(stopOrderId) ? !isDone(byId.get(stopOrderId)!.status) : context.isLive(stopOrderId)) ? [stopOrderId] : []
  return [...stored, ...tagged.filter((id) => id !== stopOrderId)]
}

/** The price of the first target the trader is sent (the nearest with a pair not refused): a fill of any of its pairs moves the stop to breakeven. */
export async function firstTargetPrice(context: TargetContext, recordId: number): Promise<string | null> {
  return (await claimedTargetsOf(context.db, recordId)).find((target) => !target.refused)?.price ?? null
}

/**
 * The trade's stop price as it stands: the first of its working stops (they all stand at one price), else,
 * every stop of it done (cut for a close, cancelled for a pair), the tightest any of them had (its stops only
 * ever move tighter: breakeven, the trail), as the broker's versions of done orders still tell; null when
 * the broker lists none of them. `listed`: the broker's orders, done ones included.
 */
export async function tradeStopPrice(session: Pick<BrokerSession, 'orderVersions'>, listed: readonly BrokerOrder[], row: { side: Side; stop_order_id: number | null }, recordId: number): Promise<string | null> {
  const stops = listed.filter((order) => order.id === row.stop_order_id || (parseOrderTag(order.tag)?.recordId === recordId && parseOrderTag(order.tag)?.leg === 'stop'))
  if (stops.length === 0) return null
  const versions = await session.orderVersions(stops.map((order) => order.id))
  const priced = (orders: readonly BrokerOrder[]) => orders.flatMap((order) => { const price = versions.get(order.id)?.stopPrice; return price == null ? [] : [price] })
  const working = priced(stops.filter((order) => !isDone(order.status)))
  if (working.length > 0) return working[0]!
  const done = priced(stops.filter((order) => isDone(order.status)))
  if (done.length === 0) return null
  // Tighter: higher for a long's stop, lower for a short's.
  return done.reduce((best, price) => (compare(parseDecimal(price), parseDecimal(best)) * (row.side === 'LONG' ? 1 : -1) > 0 ? price : best))
}
