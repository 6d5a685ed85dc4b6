/**
 * The entities the connector reads, as Tradovate sends them (numbers are JSON numbers, times ISO text).
 * Source: arlenner/api-doc-20-dev entities_pages/{account,cashBalance,order,orderVersion,command,fill,
 * position,contract}.md and responses/cashBalanceSnapshot.md. Only the fields we use or the paper broker fills are
 * typed; Tradovate sends more.
 */
export type Action = 'Buy' | 'Sell'
export type OrderType = 'Market' | 'Limit' | 'Stop' | 'StopLimit' | 'TrailingStop' | 'TrailingStopLimit' | 'MIT'
export type TimeInForce = 'Day' | 'FOK' | 'GTC' | 'GTD' | 'IOC'
export type OrdStatus =
  | 'Canceled'
  | 'Completed'
  | 'Expired'
  | 'Filled'
  | 'PendingCancel'
  | 'PendingNew'
  | 'PendingReplace'
  | 'Rejected'
  | 'Suspended'
  | 'Unknown'
  | 'Working'

export interface TradeDate {
  year: number
  month: number
  day: number
}

export interface Account {
  id: number
  name: string
  userId: number
  accountType: string
  active: boolean
  archived?: boolean
  timestamp?: string
}

export interface CashBalance {
  id: number
  accountId: number
  timestamp: string
  tradeDate: TradeDate
  currencyId: number
  amount: number
  realizedPnL?: number
  weekRealizedPnL?: number
}

/** Answer of `cashBalance/getcashbalancesnapshot` ({accountId}). */
export interface CashBalanceSnapshot {
  errorText?: string
  totalCashValue?: number
  totalPnL?: number
  netLiq?: number
  openPnL?: number
  realizedPnL?: number
  weekRealizedPnL?: number
}

export interface Order {
  id: number
  accountId: number
  contractId: number
  timestamp: string
  action: Action
  ordStatus: OrdStatus
  /** The bracket's entry, for an OSO leg. */
  parentId?: number | null
  /** The OCO partner cancelled when this order fills. */
  linkedId?: number | null
  ocoId?: number | null
  admin: boolean
  /** The broker's text for a rejection (paper broker addition, as Tradovate's orderVersion/command `text`). */
  text?: string | null
}

export type CommandType = 'New' | 'Modify' | 'Cancel'
export type CommandStatus =
  | 'AtExecution'
  | 'ExecutionRejected'
  | 'ExecutionStopped'
  | 'ExecutionSuspended'
  | 'OnHold'
  | 'Pending'
  | 'PendingExecution'
  | 'Replaced'
  | 'RiskPassed'
  | 'RiskRejected'

/**
 * A command on an order (placing it is its `New` command). The client's order id (`clOrdId`, our tag) is
 * here, not on the Order: read it through `command/list`, `command/deps`, `command/ldeps`, the sync
 * snapshot's `commands` and `command` props events.
 */
export interface Command {
  id: number
  orderId: number
  timestamp: string
  commandType: CommandType
  commandStatus: CommandStatus
  clOrdId?: string | null
  senderId?: number
  userSessionId?: number
  activationTime?: string
  customTag50?: string
  isAutomated?: boolean
}

export interface OrderVersion {
  id: number
  orderId: number
  orderQty: number
  orderType: OrderType
  price?: number
  stopPrice?: number
  /** A trailing order's distance from the market (TrailingStop, TrailingStopLimit). */
  pegDifference?: number
  timeInForce?: TimeInForce
  text?: string
}

export interface Fill {
  id: number
  orderId: number
  contractId: number
  timestamp: string
  tradeDate: TradeDate
  action: Action
  qty: number
  price: number
  active: boolean
  finallyPaired: number
}

/**
 * What a fill cost (Tradovate `FillFee`, one per fill, `id` the fill's): each part in its currency, any of
 * them absent. Source: Tradovate's partner API reference, "Fill Fee Item".
 */
export interface FillFee {
  id: number
  clearingFee?: number | null
  exchangeFee?: number | null
  nfaFee?: number | null
  brokerageFee?: number | null
  ipFee?: number | null
  commission?: number | null
  orderRoutingFee?: number | null
}

/** The parts of a FillFee that are money (each with its own `…CurrencyId` beside it on the wire). */
export const FILL_FEE_PARTS = ['clearingFee', 'exchangeFee', 'nfaFee', 'brokerageFee', 'ipFee', 'commission', 'orderRoutingFee'] as const

export interface Position {
  id: number
  accountId: number
  contractId: number
  timestamp: string
  tradeDate: TradeDate
  netPos: number
  netPrice?: number
  bought: number
  boughtValue: number
  sold: number
  soldValue: number
  prevPos: number
  prevPrice?: number
}

export interface Contract {
  id: number
  /** Product code and expiry code: `MNQZ6`. */
  name: string
  contractMaturityId: number
}

/** Answer of `user/syncrequest`: the user's state, then `props` events follow. */
export interface SyncResponse {
  users?: { id: number; name: string; status?: string }[]
  accounts?: Account[]
  cashBalances?: CashBalance[]
  orders?: Order[]
  orderVersions?: OrderVersion[]
  commands?: Command[]
  fills?: Fill[]
  positions?: Position[]
}

export type PropsEntityType = 'order' | 'orderVersion' | 'command' | 'fill' | 'position' | 'cashBalance' | 'account' | 'contract' | (string & {})
export type PropsEventType = 'Created' | 'Updated' | 'Deleted'

/** `{e:"props", d:{entityType, eventType, entity}}` (cgilly2fast/tradovate-typescript TradovateSocket.ts). */
export interface PropsEvent {
  e: 'props'
  d: { entityType: PropsEntityType; eventType: PropsEventType; entity: unknown }
}

export function isPropsEvent(event: { e: string; d: unknown }): event is PropsEvent {
  if (event.e !== 'props' || typeof event.d !== 'object' || event.d === null) return false
  const d = event.d as Record<string, unknown>
  return typeof d.entityType === 'string' && typeof d.eventType === 'string' && typeof d.entity === 'object' && d.entity !== null
}
