import { decimalText } from '../../../shared/decimal-text.ts'
import type { BrokerFill, BrokerOrder, BrokerOrderVersion, BrokerPosition, OrderStatus } from '../broker-adapter.ts'
import { contractNumberOrNull } from './contract-ids.ts'

// ProjectX's records (Order/search, Trade/search, Position/searchOpen and the user hub's events carry the
// same shapes) as the seam's. Enums from ProjectX's API reference.

type Fields = Record<string, unknown>
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value)
const int = (value: unknown): number | null => (Number.isSafeInteger(value) ? (value as number) : null)
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)
/** OrderSide: 0 Bid (buy), 1 Ask (sell). */
const side = (value: unknown) => (value === 0 ? 'Buy' : value === 1 ? 'Sell' : null)

/** OrderStatus: 0 None, 1 Open, 2 Filled, 3 Cancelled, 4 Expired, 5 Rejected, 6 Pending. */
const STATUS: Readonly<Record<number, OrderStatus>> = { 0: 'PendingNew', 1: 'Working', 2: 'Filled', 3: 'Canceled', 4: 'Expired', 5: 'Rejected', 6: 'PendingNew' }
/** OrderType: 1 Limit, 2 Market, 3 StopLimit, 4 Stop, 5 TrailingStop, 6 JoinBid, 7 JoinAsk. */
const ORDER_TYPES: Readonly<Record<number, string>> = { 1: 'Limit', 2: 'Market', 3: 'StopLimit', 4: 'Stop', 5: 'TrailingStop', 6: 'JoinBid', 7: 'JoinAsk' }

/** The bracket leg ProjectX places for an entry: `AutoBracket<entry id>-SL` / `-TP`. */
const LEG_TAG = /^AutoBracket(\d+)-(SL|TP)$/

/**
 * An entry sent again without brackets after ProjectX refused them on the account (own-legs.ts) carries
 * `<tag>.own`: the refused order holds `<tag>` (ProjectX keeps a refused order, and its customTag is used).
 */
export const OWN_LEGS_SUFFIX = '.own'

/** Our tag as the seam knows it from a customTag: an entry sent again without brackets is its record's entry. */
export const seamTagOf = (customTag: string): string => (customTag.endsWith(OWN_LEGS_SUFFIX) ? customTag.slice(0, -OWN_LEGS_SUFFIX.length) : customTag)

/** The tag the adapter gives an order ProjectX placed without one for us (a late close, own-legs.ts), or null. */
export type UntaggedTagOf = (order: Fields) => string | null

/**
 * Our tag of an order: its `customTag` (ours is the record's tag, sent as ProjectX's idempotency key), or
 * for a bracket leg ProjectX placed, the entry's tag with `.sl` / `.tp` (the seam's leg tags), when the
 * entry's tag is known (`entryTagOf`). A leg of an order not ours keeps no tag; an order without a
 * customTag has the one `untaggedTagOf` knows for it (our late close's), else none.
 */
function tagOf(order: Fields, entryTagOf: (entryId: number) => string | null, untaggedTagOf: UntaggedTagOf): string | null {
  const customTag = typeof order.customTag === 'string' && order.customTag !== '' ? order.customTag : null
  if (customTag === null) return untaggedTagOf(order)
  const leg = LEG_TAG.exec(customTag)
  if (!leg) return seamTagOf(customTag)
  const entryTag = entryTagOf(Number(leg[1]))
  return entryTag === null ? null : `${entryTag}${leg[2] === 'SL' ? '.sl' : '.tp'}`
}

/** The entry a leg belongs to: `parentOrderId`, the id in its `AutoBracket` tag, or for a leg we placed (`<tag>.sl|tp`) the entry under that tag (`entryIdOf`). */
export function parentOf(order: Fields, entryIdOf: (tag: string) => number | null = () => null): number | null {
  const parent = int(order.parentOrderId)
  if (parent !== null) return parent
  const customTag = typeof order.customTag === 'string' ? order.customTag : ''
  const leg = LEG_TAG.exec(customTag)
  if (leg) return Number(leg[1])
  const own = /^(.+)\.(sl|tp)$/.exec(customTag)
  return own ? entryIdOf(own[1] as string) : null
}

/**
 * Orders as the seam lists them: the order ProjectX refused for its brackets keeps our tag, and so does the
 * entry sent again without them; the refused one loses it, so a look-up by tag finds the live entry.
 */
export function withoutRefusedTwins(orders: BrokerOrder[]): BrokerOrder[] {
  const live = new Set(orders.filter((order) => order.status !== 'Rejected' && order.tag !== null).map((order) => order.tag))
  return orders.map((order) => (order.status === 'Rejected' && live.has(order.tag) ? { ...order, tag: null } : order))
}

export function toBrokerOrder(value: unknown, entryTagOf: (entryId: number) => string | null, entryIdOf?: (tag: string) => number | null, untaggedTagOf: UntaggedTagOf = () => null): BrokerOrder | null {
  if (!isFields(value)) return null
  const id = int(value.id)
  const accountId = int(value.accountId)
  const contractId = contractNumberOrNull(value.contractId)
  const action = side(value.side)
  const status = int(value.status) === null ? undefined : STATUS[value.status as number]
  if (id === null || accountId === null || contractId === null || !action || !status) return null
  return { id, accountId, contractId, action, status, tag: tagOf(value, entryTagOf, untaggedTagOf), parentId: parentOf(value, entryIdOf), text: null }
}

/** An order's type, size and prices, as the trader's view of the account shows them. */
export function toOrderVersion(value: Fields): BrokerOrderVersion {
  return {
    orderType: ORDER_TYPES[value.type as number] ?? 'Unknown',
    quantity: int(value.size) ?? 0,
    price: decimalText(num(value.limitPrice)),
    stopPrice: decimalText(num(value.stopPrice)),
  }
}

/** A Trade (one fill of an order); a voided one is no fill. */
export function toBrokerFill(value: unknown): BrokerFill | null {
  if (!isFields(value) || value.voided === true) return null
  const id = int(value.id)
  const orderId = int(value.orderId)
  const contractId = contractNumberOrNull(value.contractId)
  const quantity = int(value.size)
  const action = side(value.side)
  const price = num(value.price)
  if (id === null || orderId === null || contractId === null || quantity === null || !action || price === null) return null
  return { id, orderId, contractId, action, quantity, price: decimalText(price), timestamp: typeof value.creationTimestamp === 'string' ? value.creationTimestamp : new Date().toISOString() }
}

/** A Trade's fees (`fees`, a number) by its id, as exact decimal text; null for a voided one or one without. */
export function tradeFeeOf(value: unknown): { id: number; amount: string } | null {
  if (!isFields(value) || value.voided === true) return null
  const id = int(value.id)
  const amount = num(value.fees)
  return id === null || amount === null ? null : { id, amount: decimalText(amount) }
}

/** A Position: `size` and `type` (1 Long, 2 Short) as a signed net position; size 0 is flat. */
export function toBrokerPosition(value: unknown): BrokerPosition | null {
  if (!isFields(value)) return null
  const accountId = int(value.accountId)
  const contractId = contractNumberOrNull(value.contractId)
  const size = int(value.size)
  if (accountId === null || contractId === null || size === null) return null
  const netPos = value.type === 2 ? -size : size
  return { accountId, contractId, netPos, netPrice: netPos === 0 ? null : decimalText(num(value.averagePrice)) }
}

export const present = <T>(value: T | null): value is T => value !== null
export { isFields, int, num }
