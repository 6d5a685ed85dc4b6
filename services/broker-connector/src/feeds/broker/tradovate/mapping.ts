import type { Fill, Order, Position, PropsEvent, SyncResponse } from '@signals/tradovate-wire'
import { decimalText } from '../../../shared/decimal-text.ts'
import type { BrokerAccount, BrokerEvent, BrokerFill, BrokerOrder, BrokerPosition, BrokerSnapshot, DayRealizedPnl, OrderStatus } from '../broker-adapter.ts'
import type { AccountScope } from './account-scope.ts'
import type { OrderTags } from './order-tags.ts'
import { int, isObject } from './wire-values.ts'

type Loose<T> = { [K in keyof T]?: unknown }
const side = (value: unknown) => (value === 'Buy' || value === 'Sell' ? value : null)

/**
 * Tradovate's order states onto ours: pending changes of a live order are still `Working`; `Completed` is
 * `Filled` (an order done in full); `Unknown` is kept as `PendingNew` (not final: reconcile before acting).
 */
const STATUS: Record<string, OrderStatus> = {
  PendingNew: 'PendingNew',
  Working: 'Working',
  PendingCancel: 'Working',
  PendingReplace: 'Working',
  Filled: 'Filled',
  Completed: 'Filled',
  Canceled: 'Canceled',
  Rejected: 'Rejected',
  Expired: 'Expired',
  Suspended: 'Suspended',
  Unknown: 'PendingNew',
}

/** An Order entity as ours, with its tag from the `New` command that placed it (Orders carry none). */
export function toBrokerOrder(value: unknown, tags: OrderTags): BrokerOrder | null {
  if (!isObject(value)) return null
  const order = value as Loose<Order>
  const id = int(order.id)
  const accountId = int(order.accountId)
  const contractId = int(order.contractId)
  const action = side(order.action)
  const status = typeof order.ordStatus === 'string' ? STATUS[order.ordStatus] : undefined
  if (id === null || accountId === null || contractId === null || !action || !status) return null
  return {
    id,
    accountId,
    contractId,
    action,
    status,
    tag: tags.tagOf(order) ?? null,
    parentId: int(order.parentId),
    text: typeof order.text === 'string' && order.text !== '' ? order.text : null,
  }
}

export function toBrokerFill(value: unknown): BrokerFill | null {
  if (!isObject(value)) return null
  const fill = value as Loose<Fill>
  const id = int(fill.id)
  const orderId = int(fill.orderId)
  const contractId = int(fill.contractId)
  const quantity = int(fill.qty)
  const action = side(fill.action)
  if (id === null || orderId === null || contractId === null || quantity === null || !action || typeof fill.price !== 'number') return null
  return { id, orderId, contractId, action, quantity, price: decimalText(fill.price), timestamp: typeof fill.timestamp === 'string' ? fill.timestamp : new Date().toISOString() }
}

export function toBrokerPosition(value: unknown): BrokerPosition | null {
  if (!isObject(value)) return null
  const position = value as Loose<Position>
  const accountId = int(position.accountId)
  const contractId = int(position.contractId)
  const netPos = int(position.netPos)
  if (accountId === null || contractId === null || netPos === null) return null
  return { accountId, contractId, netPos, netPrice: typeof position.netPrice === 'number' && netPos !== 0 ? decimalText(position.netPrice) : null }
}

export const present = <T>(value: T | null): value is T => value !== null

/** A `props` event as a BrokerEvent, or null for entities the connector does not follow (commands: see OrderTags). */
export function toBrokerEvent(event: PropsEvent['d'], tags: OrderTags): BrokerEvent | null {
  const { entityType, eventType, entity } = event
  if (entityType === 'order') {
    const order = toBrokerOrder(entity, tags)
    return order ? { type: 'order', eventType, order } : null
  }
  if (entityType === 'fill' && eventType === 'Created') {
    const fill = toBrokerFill(entity)
    return fill ? { type: 'fill', fill } : null
  }
  if (entityType === 'position') {
    const position = toBrokerPosition(entity)
    return position ? { type: 'position', position } : null
  }
  if (entityType === 'cashBalance' && isObject(entity)) {
    const accountId = int(entity.accountId)
    return accountId !== null && typeof entity.amount === 'number' ? { type: 'cashBalance', accountId, amount: decimalText(entity.amount), realizedPnl: dayRealizedPnl(entity) } : null
  }
  return null
}

/**
 * The state `user/syncrequest` returned, of the session's account only: its orders, positions and cash
 * balance by `accountId`, its fills by their order's account (`scope`, which has noted the snapshot's
 * orders). Order tags come from `tags` (the caller has learnt the response's `commands`).
 */
export function toSnapshot(value: unknown, tags: OrderTags, account: BrokerAccount, scope: AccountScope): BrokerSnapshot {
  const sync = (isObject(value) ? value : {}) as Loose<SyncResponse>
  const list = (items: unknown) => (Array.isArray(items) ? (items as unknown[]) : [])
  const cash = list(sync.cashBalances).filter(isObject).find((balance) => balance.accountId === account.id)
  return {
    account,
    orders: list(sync.orders).map((order) => toBrokerOrder(order, tags)).filter(present).filter((order) => order.accountId === account.id),
    fills: list(sync.fills).map(toBrokerFill).filter(present).filter((fill) => scope.ownsOrder(fill.orderId) === true),
    positions: list(sync.positions).map(toBrokerPosition).filter(present).filter((position) => position.accountId === account.id),
    cashBalance: cash && typeof cash.amount === 'number' ? decimalText(cash.amount) : null,
    realizedPnl: cash ? dayRealizedPnl(cash) : null,
  }
}

/** A cash balance's `realizedPnL` with its `tradeDate` (`{year, month, day}`), or null when either is missing. */
function dayRealizedPnl(cash: Record<string, unknown>): DayRealizedPnl | null {
  const date = cash.tradeDate
  if (typeof cash.realizedPnL !== 'number' || !Number.isFinite(cash.realizedPnL) || !isObject(date)) return null
  const { year, month, day } = date
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null
  const two = (value: unknown) => String(value).padStart(2, '0')
  return { tradeDate: `${String(year)}-${two(month)}-${two(day)}`, pnl: decimalText(cash.realizedPnL) }
}
