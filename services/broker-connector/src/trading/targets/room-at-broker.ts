import { exitSideOf } from '@signals/contracts'
import type { Side } from '@signals/db'
import { isDone, type BrokerOrder, type BrokerOrderVersion, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { marketCloses, stopCoverage } from '../positions/stop-coverage.ts'

/** The broker's account in a trade's contract as listed now, and how many contracts a new stop there may close. */
export interface RoomAtBroker {
  /** The working orders closing the trade's side in its contract. */
  working: BrokerOrder[]
  versions: ReadonlyMap<number, BrokerOrderVersion>
  /** Each order's quantity filled, from the broker's fills. */
  filled: ReadonlyMap<number, number>
  /** The contracts the account holds on the trade's side now. */
  onSide: number
  /** The contracts held on the trade's side, less every working stop closing them and every Market order not done closing them (a close on its way); never below 0. */
  room: number
}

export const remainingOf = (order: BrokerOrder, versions: ReadonlyMap<number, { quantity: number }>, filled: ReadonlyMap<number, number>) =>
  Math.max((versions.get(order.id)?.quantity ?? 0) - (filled.get(order.id) ?? 0), 0)

/**
 * What the broker's position leaves for a new stop of the trade (docs/decisions/targets-breakeven.md, "Stops
 * that do not add up"): a stop placed for more than `room` could close contracts no longer held (a stop filled
 * at the broker whose fill is not applied yet) and open a position the other way. `listed`: the broker's
 * orders read fresh; `notCounted`: working orders left out of the count (a close's own trades' brackets that
 * the keeper resizes once its fill is applied, room-for-close.ts).
 */
export async function roomAtBroker(session: Pick<BrokerSession, 'orderVersions' | 'listFills' | 'listPositions'>, row: { side: Side; broker_contract_id: number }, listed: readonly BrokerOrder[], notCounted: ReadonlySet<number> = new Set()): Promise<RoomAtBroker> {
  const closing = exitSideOf(row.side)
  const working = listed.filter((order) => order.contractId === row.broker_contract_id && order.action === closing && !isDone(order.status))
  const [versions, fills, positions] = await Promise.all([session.orderVersions(working.map((order) => order.id)), session.listFills(), session.listPositions({ fresh: true })])
  const filled = new Map<number, number>()
  for (const fill of fills) filled.set(fill.orderId, (filled.get(fill.orderId) ?? 0) + fill.quantity)
  const netPos = positions.find((position) => position.contractId === row.broker_contract_id)?.netPos ?? 0
  const onSide = row.side === 'LONG' ? Math.max(netPos, 0) : Math.max(-netPos, 0)
  const counted = working.filter((order) => !notCounted.has(order.id))
  if (onSide === 0) return { working, versions, filled, onSide, room: 0 }
  const held = { contractId: row.broker_contract_id, netPos }
  const room = onSide - stopCoverage(held, counted, versions, fills).stopQuantity - marketCloses(held, counted, versions, fills)
  return { working, versions, filled, onSide, room: Math.max(room, 0) }
}
