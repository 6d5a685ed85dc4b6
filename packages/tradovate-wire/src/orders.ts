/**
 * Order commands. Sources: arlenner/api-doc-20-dev operations/unique-ops/orders/placeOSO.md and
 * entities_pages/responses/{placeOSOResult,commandResult}.md; cgilly2fast/tradovate-typescript
 * (PlaceOSOResult); shared/reference/brokers-and-alerts.md (liquidateposition, cancelorder).
 */
import type { Action, OrderType, TimeInForce } from './entities.ts'

export const ENDPOINTS = {
  placeOSO: 'order/placeOSO',
  /** Two linked orders (the order and its `other`): one done in full cancels the other (partner.tradovate.com .../orders/place-oco). */
  placeOCO: 'order/placeOCO',
  /** One order (Market, Limit, Stop); a manual order carries no `clOrdId`. */
  placeOrder: 'order/placeorder',
  /** New quantity or prices of a live order (`orderQty` is the order's whole quantity, filled part included). */
  modifyOrder: 'order/modifyorder',
  liquidatePosition: 'order/liquidateposition',
  cancelOrder: 'order/cancelorder',
  orderList: 'order/list',
  /** One order by id (`id=<orderId>`): which account a fill's order belongs to (a Fill names no account). */
  orderItem: 'order/item',
  positionList: 'position/list',
  fillList: 'fill/list',
  /**
   * The fees of some fills (`masterids=<fillId>,<fillId>`): a FillFee per fill, its id the fill's (Tradovate's
   * partner API, "Fill Fee L Dependents"); the fill itself carries none.
   */
  fillFeeLdeps: 'fillFee/ldeps',
  /** An order's versions (`masterid=<orderId>`): its quantity, type and prices, the latest last. */
  orderVersionDeps: 'orderVersion/deps',
  /** Every command of the user's orders; `deps` (`masterid=<orderId>`) and `ldeps` (`masterids=<id>,<id>`) of some. */
  commandList: 'command/list',
  commandDeps: 'command/deps',
  commandLdeps: 'command/ldeps',
  contractFind: 'contract/find',
  /** One contract by id (`id=<contractId>`): the name of a position's contract. */
  contractItem: 'contract/item',
  accountList: 'account/list',
  cashBalanceSnapshot: 'cashBalance/getcashbalancesnapshot',
  authorize: 'authorize',
  syncRequest: 'user/syncrequest',
} as const

/** A bracket leg of `order/placeOSO`: activated when the entry fills. */
export interface OsoBracket {
  action: Action
  clOrdId?: string
  orderType: OrderType
  price?: number
  stopPrice?: number
  /** A trailing order's distance from the market (TrailingStop, TrailingStopLimit). */
  pegDifference?: number
  timeInForce?: TimeInForce
  text?: string
}

/** What every order request names: the account, the contract, the side, the quantity and the prices. */
interface OrderRequestFields {
  accountSpec: string
  accountId: number
  clOrdId?: string
  action: Action
  symbol: string
  orderQty: number
  orderType: OrderType
  price?: number
  stopPrice?: number
  /** A trailing order's distance from the market (TrailingStop, TrailingStopLimit). */
  pegDifference?: number
}

export interface PlaceOsoRequest extends OrderRequestFields {
  timeInForce: TimeInForce
  /** Must be true for an order not entered by a human (CME rule; Tradovate requires a boolean). */
  isAutomated: boolean
  bracket1: OsoBracket
  bracket2?: OsoBracket
  'p-ticket'?: string
}

export type FailureReason =
  | 'AccountClosed'
  | 'InvalidContract'
  | 'InvalidPrice'
  | 'LiquidationOnly'
  | 'MaxPosLimitReached'
  | 'NoQuote'
  | 'NotEnoughLiquidity'
  | 'SessionClosed'
  | 'TradingLocked'
  | 'Unauthorized'
  | 'UnknownReason'
  | 'Success'
  | (string & {})

/** Answer of `order/placeOSO`: the three order ids, or a failure. */
export interface PlaceOsoResult {
  orderId?: number
  oso1Id?: number
  oso2Id?: number
  failureReason?: FailureReason
  failureText?: string
}

/** Body of `order/placeOCO`: one order and its `other` (same account, contract and quantity). */
export interface PlaceOcoRequest extends OrderRequestFields {
  timeInForce?: TimeInForce
  isAutomated: boolean
  other: OsoBracket
}

/** Answer of `order/placeOCO`: the order's id and its `other`'s (`ocoId`), or a failure. */
export interface PlaceOcoResult {
  orderId?: number
  ocoId?: number
  failureReason?: FailureReason
  failureText?: string
}

/** Body of `order/placeorder` (partner.tradovate.com .../orders/place-order). */
export interface PlaceOrderRequest extends OrderRequestFields {
  timeInForce?: TimeInForce
  isAutomated: boolean
}

/** Answer of `order/placeorder`: the order id, or a failure. */
export interface PlaceOrderResult {
  orderId?: number
  failureReason?: FailureReason
  failureText?: string
}

/**
 * Body of `order/modifyorder` (partner.tradovate.com .../orders/modify-order): `orderQty` and `orderType`
 * are required; prices only for the order types that have them. The answer is a CommandResult.
 */
export interface ModifyOrderRequest {
  orderId: number
  orderQty: number
  orderType: OrderType
  price?: number
  stopPrice?: number
  /** A trailing order's distance from the market (TrailingStop, TrailingStopLimit). */
  pegDifference?: number
  timeInForce?: TimeInForce
  isAutomated?: boolean
}

export interface LiquidatePositionRequest {
  accountId: number
  contractId: number
  admin: boolean
}

export interface CancelOrderRequest {
  orderId: number
  isAutomated?: boolean
}

/** Answer of commands such as cancelorder and liquidateposition. */
export interface CommandResult {
  commandId?: number
  failureReason?: FailureReason
  failureText?: string
}

export interface CashBalanceSnapshotRequest {
  accountId: number
}

/** True when a command answer is a failure (a failureReason other than Success, or a failureText). */
export function commandFailure(result: unknown): { reason: string; text: string } | null {
  if (typeof result !== 'object' || result === null) return null
  const record = result as Record<string, unknown>
  const reason = typeof record.failureReason === 'string' ? record.failureReason : null
  const text = typeof record.failureText === 'string' ? record.failureText : null
  if ((reason === null || reason === 'Success') && !text) return null
  return { reason: reason ?? 'UnknownReason', text: text ?? reason ?? 'refused' }
}
