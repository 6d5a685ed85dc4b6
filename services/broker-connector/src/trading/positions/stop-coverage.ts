import { isDone, type BrokerFill, type BrokerOrder, type BrokerOrderVersion } from '../../feeds/broker/broker-adapter.ts'

/** Order types that close a position when the market reaches their trigger: what protects it. */
const STOP_TYPES: ReadonlySet<string> = new Set(['Stop', 'StopLimit', 'TrailingStop', 'TrailingStopLimit'])

/** How far a position's working stops at the broker cover it. */
export interface StopCoverage {
  /** What the working stops on the closing side still close, summed (the whole-position stop and each pair's stop). */
  stopQuantity: number
  /** What the trader is to be told when the stops close fewer or more contracts than are held; null when they match. */
  note: string | null
}

/**
 * Adds up what the working stops closing a position still close (each stop's quantity less its own fills)
 * against the position held (signed: positive long). Fewer: some contracts have no stop; more: if every
 * stop triggered, they would open a position the other way (docs/decisions/targets-breakeven.md).
 * `closing`: contracts a Market close on its way will take (`marketCloses`): those need no stop.
 * `pairStops`: contracts whose target pair (with its stop) is on its way to the broker and not listed yet
 * (`pairsOnTheirWay`): their stop comes with the pair, and one added beside it would close more than is held.
 */
export function stopCoverage(
  held: { contractId: number; netPos: number },
  orders: readonly BrokerOrder[],
  versions: ReadonlyMap<number, BrokerOrderVersion>,
  fills: readonly BrokerFill[],
  closing = 0,
  pairStops = 0,
): StopCoverage {
  const stopQuantity = leftToFill(held, orders, versions, fills, (order, orderType) => order.status === 'Working' && STOP_TYPES.has(orderType))
  const quantity = Math.abs(held.netPos)
  // Fewer stops are needed while a close takes contracts or a pair brings its own stop; never more than are held.
  const needed = Math.max(quantity - closing - pairStops, 0)
  if (stopQuantity >= needed && stopQuantity <= quantity) return { stopQuantity, note: null }
  const closes = (closing === 0 ? '' : `, a Market close takes ${closing}`) + (pairStops === 0 ? '' : `, target pairs on their way bring stops for ${pairStops}`)
  if (stopQuantity < needed) return { stopQuantity, note: `${needed - stopQuantity} of the ${quantity} contract(s) held have no working stop at the broker (stops cover ${stopQuantity}${closes})` }
  const other = held.netPos > 0 ? 'short' : 'long'
  return { stopQuantity, note: `the working stops at the broker close ${stopQuantity} contract(s), more than the ${quantity} held: if they all trigger, they open a ${other} position of ${stopQuantity - quantity}` }
}

/**
 * What the Market orders closing a position have still to fill (a close on its way), summed. Any not done
 * counts, not only `Working` ones: a Market close just accepted (`PendingNew`) will take its contracts all the
 * same, and a stop sized as if it would not could close more than is held once it has.
 */
export function marketCloses(
  held: { contractId: number; netPos: number },
  orders: readonly BrokerOrder[],
  versions: ReadonlyMap<number, BrokerOrderVersion>,
  fills: readonly BrokerFill[],
): number {
  return leftToFill(held, orders, versions, fills, (order, orderType) => !isDone(order.status) && orderType === 'Market')
}

/** What the orders closing the position that `counts` keeps have still to fill (each one's quantity less its own fills), summed. */
function leftToFill(
  held: { contractId: number; netPos: number },
  orders: readonly BrokerOrder[],
  versions: ReadonlyMap<number, BrokerOrderVersion>,
  fills: readonly BrokerFill[],
  counts: (order: BrokerOrder, orderType: string) => boolean,
): number {
  const side = held.netPos > 0 ? 'Sell' : 'Buy'
  let left = 0
  for (const order of orders) {
    const version = versions.get(order.id)
    if (order.contractId !== held.contractId || order.action !== side || version === undefined || !counts(order, version.orderType)) continue
    const filled = fills.filter((fill) => fill.orderId === order.id).reduce((sum, fill) => sum + fill.quantity, 0)
    left += Math.max(version.quantity - filled, 0)
  }
  return left
}
