/**
 * The seam between the connector and a broker. The connector's entry flow, trade keeper and feed manager
 * speak only this interface; each broker's folder implements it and `adapters.ts` names the implementation
 * of each broker of the registry. `tradovate/` speaks Tradovate's REST and WebSocket API (the paper broker
 * in `dev/paper-broker` speaks the same protocol, so tests run the real implementation).
 *
 * Prices cross this seam as exact decimal text, already rounded to the contract's tick by the caller.
 * Every failure is a `BrokerError` whose message is safe to show the trader and store on the record.
 */

import type { BrokerEnvironment, BrokerName, SealedBrokerCredentials } from '@signals/contracts'

/**
 * What a session logs in with, for one broker: its name, the saved account, and the sealed credentials
 * fields of that broker's schema (packages/contracts brokers registry; an optional one left out is null).
 */
export type BrokerLogin<B extends BrokerName = BrokerName> = {
  [K in B]: {
    broker: K
    /**
     * The account to trade as the trader saved it (the primary account's `broker_account_ref`, not a secret): its name
     * (Tradovate `accountSpec`, e.g. `DEMO123456`) or its numeric id, matched exactly (surrounding spaces
     * ignored). A login without it opens no session (`account_not_found`).
     */
    account: string
  } & SealedBrokerCredentials<K>
}[B]

/**
 * Which broker and environment a session is of. Each numbers its own orders, fills and accounts, so a
 * broker id is only unique together with these and the account.
 */
export interface BrokerVenue {
  broker: BrokerName
  environment: BrokerEnvironment
}

/** Where one broker's environment is reached: `app.ts` fills one per broker and environment from the config. */
export type BrokerEndpointsTable = Record<BrokerName, Record<BrokerEnvironment, BrokerEndpoints>>

export interface BrokerEndpoints {
  /** REST base, e.g. `https://demo.tradovateapi.com/v1`. */
  restUrl: string
  /** Real-time WebSocket, e.g. `wss://demo.tradovateapi.com/v1/websocket`. */
  wsUrl: string
  /** Market-data WebSocket, e.g. `wss://md-demo.tradovateapi.com/v1/websocket`. */
  mdUrl: string
}

/** Why a broker call failed, as a type the caller can branch on (never by matching message text). */
export type BrokerErrorKind =
  /** The broker refused the credentials: retrying cannot help until they change. */
  | 'credentials_refused'
  /** The login has no account by the saved name or id, or it is closed: not retried until the credentials change. */
  | 'account_not_found'
  /** A penalty ticket, a 429 or a 5xx: retry after `retryAfterMs`. */
  | 'rate_limited'
  /** Network failure, time-out, socket closed: the outcome of a sent order is unknown until reconciled. */
  | 'unavailable'
  /** The broker answered the request with a refusal (bad symbol, insufficient margin...). */
  | 'rejected'
  /** The broker needs a human (p-captcha): wait, do not retry soon. */
  | 'captcha'

export class BrokerError extends Error {
  constructor(
    readonly kind: BrokerErrorKind,
    message: string,
    /** For `rate_limited` and `captcha`: how long to wait before the next attempt; for an `unavailable` wait of our own (nothing sent), when to look again. */
    readonly retryAfterMs: number | null = null,
    /** For `unavailable`: the request never left (no connection), so the broker cannot have carried it out. */
    readonly neverSent = false,
  ) {
    super(message)
    this.name = 'BrokerError'
  }
}

/**
 * Whether the request may have been carried out although it failed: only a lost connection, a time-out, a
 * 5xx or an answer we cannot read leave that open. A refusal, a penalty, a 429 or a captcha is the broker
 * saying it did not carry the request out (Tradovate documents penalties and 429s as "not executed").
 */
export const outcomeUnknown = (error: BrokerError): boolean => error.kind === 'unavailable' && !error.neverSent

export interface BrokerAccount {
  id: number
  /** Tradovate's `accountSpec` (the account name). */
  name: string
}

export interface BrokerContract {
  id: number
  /** The dated contract, e.g. `MNQZ6`. */
  name: string
}

type OrderSide = 'Buy' | 'Sell'

/**
 * The contract's current price from the broker's market data, for an order on one side: the best offer for
 * a buy, the best bid for a sell (the last trade when the broker sends no such side); or why there is none.
 */
export type MarketPrice =
  | {
      kind: 'price'
      /** Exact decimal text, as the broker quoted it. */
      price: string
      source: 'offer' | 'bid' | 'last'
      /**
       * Of this side (`source`) only: the older of its last quote's own time and that quote's arrival. A
       * side the later quotes left out keeps its time, however fresh the others are.
       */
      at: Date
    }
  | {
      kind: 'none'
      /** A clause safe to show the trader (`the broker has sent no quote for MNQZ6 yet`), no full stop. */
      reason: string
    }

/** An entry with its stop-loss and take-profit legs (Tradovate `order/placeOSO`). */
export interface BracketRequest {
  /**
   * Our tag (Tradovate `clOrdId`) for the entry; the legs carry `${tag}.sl` and `${tag}.tp`. Unique per
   * alert record, so an order can always be found again by it (reconciliation after a crash).
   */
  tag: string
  contract: BrokerContract
  action: OrderSide
  quantity: number
  entryType: 'Market' | 'Limit' | 'Stop' | 'StopLimit'
  /** Limit price of a Limit or StopLimit entry; null for Market and Stop. */
  entryPrice: string | null
  /** Trigger of a Stop or StopLimit entry; absent or null otherwise. */
  entryStopPrice?: string | null
  /** How long the entry works (Tradovate `timeInForce`); Day when absent. The legs are always GTC. */
  timeInForce?: 'Day' | 'GTC' | 'IOC' | 'FOK'
  /** Absolute stop price (bracket1, a Stop order). */
  stopPrice: string
  /** Absolute target price (bracket2, a Limit order), or null for a bracket without a target. */
  targetPrice: string | null
}

/** A market order that reduces a position (a partial close): the side that closes it, never more than held. */
export interface ClosingOrderRequest {
  tag: string
  contract: BrokerContract
  action: OrderSide
  quantity: number
}

/**
 * One of several targets (issue 24, item 4) with its own stop, linked at the broker (Tradovate
 * `order/placeOCO`): a GTC Limit under the entry's tag with `.tpN` and a GTC Stop with `.slN`, same quantity;
 * one done in full cancels the other there, whether or not the connector is running. Placed once the entry
 * has filled, never before (resting first, it could open a position of its own).
 */
export interface TargetPairRequest {
  /** The entry's tag (`sig-N`): the target goes out as `${tag}.tp${level}`, its stop as `${tag}.sl${level}` (`level`: the pair's number, one pair per contract). */
  tag: string
  level: number
  contract: BrokerContract
  action: OrderSide
  quantity: number
  /** On the contract's tick, toward the entry. */
  price: string
  /** The trade's stop price as it stands (the whole-position stop's). */
  stopPrice: string
}

/**
 * A lone GTC Stop under the entry's tag with `.sl` (Tradovate `order/placeorder`): the whole-position stop
 * grown back as a new order for contracts a refused target pair left without one (the old one was cancelled).
 */
export interface StopOrderRequest {
  /** The entry's tag (`sig-N`): the stop goes out as `${tag}.sl`. */
  tag: string
  contract: BrokerContract
  action: OrderSide
  quantity: number
  /** The trade's stop price as it stands. */
  stopPrice: string
}

export interface PlacedBracket {
  entryOrderId: number
  stopOrderId: number | null
  targetOrderId: number | null
}

export type OrderStatus = 'PendingNew' | 'Working' | 'Filled' | 'Canceled' | 'Rejected' | 'Expired' | 'Suspended'

const DONE: ReadonlySet<OrderStatus> = new Set(['Filled', 'Canceled', 'Rejected', 'Expired'])

/** An order in one of these states changes no more: only a fill of it may still be on its way. */
export const isDone = (status: OrderStatus): boolean => DONE.has(status)

/** An order as the broker reports it (snapshot or event). */
export interface BrokerOrder {
  id: number
  accountId: number
  contractId: number
  action: OrderSide
  status: OrderStatus
  /** Our tag, when the order was placed with one. */
  tag: string | null
  /** The entry this order is a bracket leg of (Tradovate `parentId`), if any. */
  parentId: number | null
  /** The broker's text for a rejection. */
  text: string | null
}

/**
 * The tag an adapter reports on an order it placed without one to close contracts a record's entry filled
 * after its stop and target were done (ProjectX: `Position/partialCloseContract` takes no tag; own-legs.ts):
 * `<entry tag>.late`. Its fill goes to that record's trade, never first in, first out to the user's others.
 */
export const lateCloseTagOf = (entryTag: string): string => `${entryTag}.late`

/** The record of a late close's tag (`sig-<id>.late`, or `sig-<id>.m.late` for a remainder's entry), or null. */
export function lateCloseRecordOf(tag: string | null): number | null {
  const match = tag === null ? null : /^sig-(\d{1,15})(?:\.m)?\.late$/.exec(tag)
  return match ? Number(match[1]) : null
}

/** An order's latest version (Tradovate `orderVersion`): what the trader sees of it beside its state. */
export interface BrokerOrderVersion {
  orderType: string
  quantity: number
  /** Exact decimal text, or null for an order without one. */
  price: string | null
  stopPrice: string | null
}

export interface BrokerFill {
  id: number
  orderId: number
  contractId: number
  action: OrderSide
  quantity: number
  /** Exact decimal text. */
  price: string
  timestamp: string
}

export interface BrokerPosition {
  accountId: number
  contractId: number
  /** Signed: positive long, negative short. */
  netPos: number
  netPrice: string | null
}

/**
 * The account's realized pnl of one trading day as the broker counts it (Tradovate's cash balance
 * `realizedPnL` of its `tradeDate`): every close of the day, those outside our trades included.
 */
export interface DayRealizedPnl {
  /** The CME trading day it is of, `YYYY-MM-DD`. */
  tradeDate: string
  /** Exact decimal text. */
  pnl: string
}

/** What the broker pushes after the snapshot (Tradovate `props` events). */
export type BrokerEvent =
  | { type: 'order'; eventType: 'Created' | 'Updated' | 'Deleted'; order: BrokerOrder }
  | { type: 'fill'; fill: BrokerFill }
  | { type: 'position'; position: BrokerPosition }
  | { type: 'cashBalance'; accountId: number; amount: string; realizedPnl: DayRealizedPnl | null }

/** The state the broker reported when the session synchronised. */
export interface BrokerSnapshot {
  account: BrokerAccount
  orders: BrokerOrder[]
  fills: BrokerFill[]
  positions: BrokerPosition[]
  /** Cash balance of the account, exact decimal text, or null when the broker sent none. */
  cashBalance: string | null
  /** The day's realized pnl the cash balance carried, or null when it carried none. */
  realizedPnl: DayRealizedPnl | null
}

export interface SessionOptions {
  /** Called once when the session ends without `close()`: broker restart, network loss, silence. */
  onLost(reason: string): void
  /** Every event after the snapshot, in the order received. */
  onEvent(event: BrokerEvent): void
  timeoutMs?: number
}

/**
 * How a read of orders or positions is answered. `fresh`: asked of the broker itself now, for a decision that
 * sizes or sends orders against what it holds (a partial close, a source's exit, the kill switch). Without
 * it a session may answer from the state it keeps from the broker's events (ProjectX: the user hub's state,
 * which lags the broker by the hub's delay; a trade made on the platform is not in it until the hub tells it).
 * Tradovate's reads are always the broker's REST answer: the option changes nothing there.
 */
export interface ReadOptions {
  fresh?: boolean
}

/** One user's authorized, synchronised real-time session. */
export interface BrokerSession {
  readonly snapshot: BrokerSnapshot
  /** Resolves a dated contract name (`MNQZ6`) to the broker's contract (Tradovate `contract/find`). */
  findContract(name: string): Promise<BrokerContract>
  /** The account's cash balance now (exact decimal text). */
  cashBalance(): Promise<string | null>
  /**
   * The contract's current market price for an order on `action`'s side, from the session's market-data
   * subscription. The first call for a contract subscribes (and waits a moment for the first quote); later
   * calls answer from the quotes the broker pushed, without a round trip. Never throws: a broker that
   * cannot say is a `none` with the reason.
   */
  marketPrice(contract: BrokerContract, action: OrderSide): Promise<MarketPrice>
  /** The account's orders as the broker holds them now (for reconciliation by tag). */
  listOrders(options?: ReadOptions): Promise<BrokerOrder[]>
  /** The account's positions now (Tradovate `position/list`): what a flatten and a reconciliation check against. */
  listPositions(options?: ReadOptions): Promise<BrokerPosition[]>
  /** The account's fills the broker lists now (`fill/list`, the day's), only those of the account's own orders. */
  listFills(): Promise<BrokerFill[]>
  /** The latest version of each of these orders (`orderVersion/deps`), for the trader's view of the account. */
  orderVersions(orderIds: readonly number[]): Promise<Map<number, BrokerOrderVersion>>
  /**
   * What each of these fills cost, every fee summed (commission and exchange fees; Tradovate `fillFee/ldeps`),
   * exact decimal text by fill id; a fill the broker lists no fee for is left out.
   */
  fillFees(fillIds: readonly number[]): Promise<Map<number, string>>
  /** A contract's name by its id (`contract/item`), or null when the broker does not know it. */
  contractName(contractId: number): Promise<string | null>
  placeBracket(request: BracketRequest): Promise<PlacedBracket>
  /**
   * A market order without legs under our tag (`order/placeorder`): the part of a position a partial close
   * takes off. Its fill closes our trades first in, first out, and their legs follow (trade keeper).
   */
  placeClosingOrder(request: ClosingOrderRequest): Promise<{ orderId: number }>
  /**
   * Sets a live order's whole quantity, its filled part included (`order/modifyorder`; type and prices
   * kept): a bracket leg follows its trade when part of the trade closed.
   */
  resizeOrder(orderId: number, orderQty: number): Promise<void>
  /**
   * Moves a live order's price and/or trigger (`order/modifyorder`; its type and quantity kept): a
   * management alert's new stop or target (issue 24, item 5). Optional: a broker without it refuses a modify.
   */
  repriceOrder?(orderId: number, prices: { price?: string; stopPrice?: string }): Promise<void>
  /**
   * A target of several with its own stop, linked at the broker (`order/placeOCO`). Optional: a broker
   * without it takes no entry with several targets (refused with the reason, docs/decisions/targets-breakeven.md).
   */
  placeTargetPair?(request: TargetPairRequest): Promise<{ targetOrderId: number; stopOrderId: number | null }>
  /**
   * A lone stop that closes part of a position (`order/placeorder`, GTC Stop). Optional: without it a target
   * pair refused after the whole-position stop was cancelled leaves its contracts without a stop (said on the record).
   */
  placeStopOrder?(request: StopOrderRequest): Promise<{ orderId: number }>
  /**
   * Reads a working stop's price and moves it as one change in the order's own queue (the one its resize and
   * reprice go through), so no other change of it (a modify alert's move, breakeven) can come between the
   * read and the move. `decide` gets the price at the broker (null: unknown) and returns the new one, or null
   * to leave it. Returns the price it was moved to, or null. Optional: without it the trail reads then moves.
   */
  moveStop?(orderId: number, decide: (current: string | null) => string | null): Promise<string | null>
  /** Flattens the account's position in a contract and cancels its working orders (`order/liquidateposition`). */
  liquidatePosition(contractId: number): Promise<void>
  cancelOrder(orderId: number): Promise<void>
  /** When the broker last sent a frame (heartbeats included): the status shows it. */
  lastHeardAt(): Date
  /** Closes the session; `onLost` is not called for a close we asked for. */
  close(): void
}

/** A broker's implementation, for the brokers whose logins it takes (`broker/adapters.ts` picks one per broker). */
export interface BrokerAdapter<B extends BrokerName = BrokerName> {
  /**
   * Logs in (access token), opens the real-time socket, authorizes and synchronises. Keeps the access
   * token renewed before its `expirationTime` for as long as the session is open. Throws `BrokerError`.
   */
  openSession(endpoints: BrokerEndpoints, login: BrokerLogin<B>, options: SessionOptions): Promise<BrokerSession>
  /** The process closes, its sessions closed already: what outlives a session (timers, work under way) ends. */
  close?(): Promise<void>
}
