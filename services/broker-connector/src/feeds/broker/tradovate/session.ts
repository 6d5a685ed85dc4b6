import { ENDPOINTS, commandFailure, withTicket, type ModifyOrderRequest, type OrderVersion, type OsoBracket, type PlaceOcoRequest, type PlaceOcoResult, type PlaceOrderRequest, type PlaceOrderResult, type PlaceOsoRequest, type PlaceOsoResult } from '@signals/tradovate-wire'
import { decimalText } from '../../../shared/decimal-text.ts'
import {
  BrokerError,
  type BracketRequest,
  type ClosingOrderRequest,
  type TargetPairRequest,
  type StopOrderRequest,
  type BrokerContract,
  type BrokerFill,
  type BrokerOrder,
  type BrokerOrderVersion,
  type BrokerPosition,
  type BrokerSession,
  type BrokerSnapshot,
  type MarketPrice,
  type PlacedBracket,
} from '../broker-adapter.ts'
import { present, toBrokerFill, toBrokerOrder, toBrokerPosition } from './mapping.ts'
import type { FetchOrder } from './account-scope.ts'
import type { MarketData } from './market-data.ts'
import { OrderTags, type FetchCommands } from './order-tags.ts'
import { sendHonouringWaits, type RetryPolicy } from './retry-policy.ts'
import type { TradovateSocket } from './socket.ts'
import { isObject } from './wire-values.ts'
import { classifyAnswer } from './socket-answers.ts'
import { contractNameOf, latestVersions } from './order-versions.ts'
import { fillFeesOf } from './fill-fees.ts'
import { SerialQueues } from '../../../shared/serial-queues.ts'


/** Caller prices are tick-rounded decimal text; Tradovate takes JSON numbers. */
function price(value: string, what: string): number {
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number)) throw new BrokerError('rejected', `${what} ${JSON.stringify(value)} is not a price`)
  return number
}

/** Sends a request over the socket honouring penalties and 429s; a penalty resend carries the identical body plus `p-ticket`. */
function requestOver(socket: TradovateSocket, policy: RetryPolicy, endpoint: string, body: object | null, query = ''): Promise<unknown> {
  return sendHonouringWaits(policy, endpoint, async (ticket) => {
    const payload = body === null && ticket === null ? '' : JSON.stringify(ticket ? withTicket(body ?? {}, ticket) : body)
    return classifyAnswer(endpoint, await socket.request(endpoint, payload, query), policy)
  })
}

/** The commands of some orders: `command/deps?masterid=` for one, `command/ldeps?masterids=` for several. */
export function commandsOf(socket: TradovateSocket, policy: RetryPolicy): FetchCommands {
  return (orderIds) =>
    orderIds.length === 1
      ? requestOver(socket, policy, ENDPOINTS.commandDeps, null, `masterid=${orderIds[0]}`)
      : requestOver(socket, policy, ENDPOINTS.commandLdeps, null, `masterids=${orderIds.join(',')}`)
}

/** One order (`order/item?id=`): a fill names no account, its order does. */
export function orderOf(socket: TradovateSocket, policy: RetryPolicy): FetchOrder {
  return (orderId) => requestOver(socket, policy, ENDPOINTS.orderItem, null, `id=${orderId}`)
}

/** A synchronised Tradovate session: every request goes over the socket and honours penalties and 429s. */
export class TradovateSession implements BrokerSession {
  /**
   * Changes to one order, one after the other: a change reads the order's latest version and sends it back
   * whole, so two at once (a resize after a target's fill, a move by a modify alert) would undo each other.
   */
  readonly #changes = new SerialQueues()

  constructor(
    readonly snapshot: BrokerSnapshot,
    private readonly socket: TradovateSocket,
    private readonly policy: RetryPolicy,
    private readonly marketData: MarketData,
    private readonly onClose: () => void,
  ) {}

  request(endpoint: string, body: object | null, query = ''): Promise<unknown> {
    return requestOver(this.socket, this.policy, endpoint, body, query)
  }

  async findContract(name: string): Promise<BrokerContract> {
    const found = await this.request(ENDPOINTS.contractFind, null, `name=${encodeURIComponent(name)}`)
    if (!isObject(found) || typeof found.id !== 'number' || typeof found.name !== 'string') throw new BrokerError('rejected', `the broker does not know the contract ${name}`)
    return { id: found.id, name: found.name }
  }

  async cashBalance(): Promise<string | null> {
    const snapshot = await this.request(ENDPOINTS.cashBalanceSnapshot, { accountId: this.snapshot.account.id })
    if (!isObject(snapshot)) return null
    if (typeof snapshot.errorText === 'string' && snapshot.errorText) throw new BrokerError('rejected', `the broker refused the cash balance request: ${snapshot.errorText.slice(0, 200)}`)
    return typeof snapshot.totalCashValue === 'number' ? decimalText(snapshot.totalCashValue) : null
  }

  /** From the session's market-data socket (market-data.ts): subscribed on first use, then from its quotes. */
  marketPrice(contract: BrokerContract, action: 'Buy' | 'Sell'): Promise<MarketPrice> {
    return this.marketData.price(contract, action)
  }

  /**
   * `order/list` joined with `command/list` (fetched together): each order's tag is its New command's
   * `clOrdId`. An order listed before its command (placed between the two reads) gets it from `ldeps`.
   * The join is this call's own: the day's commands are not added to the session's tags.
   */
  async listOrders(): Promise<BrokerOrder[]> {
    const [orders, commands] = await Promise.all([this.request(ENDPOINTS.orderList, null), this.request(ENDPOINTS.commandList, null)])
    if (!Array.isArray(orders)) return []
    const tags = new OrderTags()
    tags.learnAll(commands)
    const own = orders.filter((order: unknown) => isObject(order) && order.accountId === this.snapshot.account.id)
    await tags.complete(own, commandsOf(this.socket, this.policy))
    return own.map((order) => toBrokerOrder(order, tags)).filter((order): order is BrokerOrder => order !== null)
  }

  /** `position/list`, the session's account only. */
  async listPositions(): Promise<BrokerPosition[]> {
    const positions = await this.request(ENDPOINTS.positionList, null)
    if (!Array.isArray(positions)) return []
    return positions.map(toBrokerPosition).filter(present).filter((position) => position.accountId === this.snapshot.account.id)
  }

  /** `fill/list` (a Fill names its order, not its account): kept are the fills of the account's own orders. */
  async listFills(): Promise<BrokerFill[]> {
    const [fills, orders] = await Promise.all([this.request(ENDPOINTS.fillList, null), this.request(ENDPOINTS.orderList, null)])
    if (!Array.isArray(fills) || !Array.isArray(orders)) return []
    const own = new Set(orders.filter((order: unknown) => isObject(order) && order.accountId === this.snapshot.account.id).map((order) => (order as { id: unknown }).id))
    return fills.map(toBrokerFill).filter(present).filter((fill) => own.has(fill.orderId))
  }

  /**
   * `order/modifyorder` with the new whole quantity; Tradovate requires the order type, and the prices are
   * sent as they stand, both read from the order's latest version (`orderVersion/deps`).
   */
  resizeOrder(orderId: number, orderQty: number): Promise<void> {
    return this.#changes.run(String(orderId), () => this.#resize(orderId, orderQty))
  }

  async #resize(orderId: number, orderQty: number): Promise<void> {
    const versions = await this.request(ENDPOINTS.orderVersionDeps, null, `masterid=${orderId}`)
    const version = (Array.isArray(versions) ? versions : []).filter(isObject).at(-1) as Partial<OrderVersion> | undefined
    if (!version || typeof version.orderType !== 'string') throw new BrokerError('rejected', `the broker lists no version of order ${orderId}`)
    const body: ModifyOrderRequest = { orderId, orderQty, orderType: version.orderType, isAutomated: true }
    if (typeof version.price === 'number') body.price = version.price
    if (typeof version.stopPrice === 'number') body.stopPrice = version.stopPrice
    if (version.timeInForce !== undefined) body.timeInForce = version.timeInForce
    const failure = commandFailure(await this.request(ENDPOINTS.modifyOrder, body))
    if (failure) throw new BrokerError('rejected', `the broker refused to resize order ${orderId}: ${failure.text.slice(0, 200)}`)
  }

  /** `order/modifyorder` with new prices; the type, quantity and time in force as the order's latest version has them. */
  repriceOrder(orderId: number, prices: { price?: string; stopPrice?: string }): Promise<void> {
    return this.#changes.run(String(orderId), () => this.#reprice(orderId, prices))
  }

  async #reprice(orderId: number, prices: { price?: string; stopPrice?: string }): Promise<void> {
    const versions = await this.request(ENDPOINTS.orderVersionDeps, null, `masterid=${orderId}`)
    const version = (Array.isArray(versions) ? versions : []).filter(isObject).at(-1) as Partial<OrderVersion> | undefined
    if (!version || typeof version.orderType !== 'string' || typeof version.orderQty !== 'number') throw new BrokerError('rejected', `the broker lists no version of order ${orderId}`)
    const body: ModifyOrderRequest = { orderId, orderQty: version.orderQty, orderType: version.orderType, isAutomated: true }
    if (prices.price !== undefined) body.price = price(prices.price, 'price')
    else if (typeof version.price === 'number') body.price = version.price
    if (prices.stopPrice !== undefined) body.stopPrice = price(prices.stopPrice, 'stop price')
    else if (typeof version.stopPrice === 'number') body.stopPrice = version.stopPrice
    if (version.timeInForce !== undefined) body.timeInForce = version.timeInForce
    const failure = commandFailure(await this.request(ENDPOINTS.modifyOrder, body))
    if (failure) throw new BrokerError('rejected', `the broker refused to move order ${orderId}: ${failure.text.slice(0, 200)}`)
  }

  moveStop(orderId: number, decide: (current: string | null) => string | null): Promise<string | null> {
    return this.#changes.run(String(orderId), async () => {
      const current = (await this.orderVersions([orderId])).get(orderId)?.stopPrice ?? null
      const next = decide(current)
      if (next === null) return null
      await this.#reprice(orderId, { stopPrice: next })
      return next
    })
  }

  orderVersions(orderIds: readonly number[]): Promise<Map<number, BrokerOrderVersion>> {
    return latestVersions((endpoint, body, query) => this.request(endpoint, body, query), orderIds)
  }

  fillFees(fillIds: readonly number[]): Promise<Map<number, string>> {
    return fillFeesOf((endpoint, body, query) => this.request(endpoint, body, query), fillIds)
  }

  contractName(contractId: number): Promise<string | null> {
    return contractNameOf((endpoint, body, query) => this.request(endpoint, body, query), contractId)
  }

  /** What every order we place says: this account, our tag, the side, the dated contract, the quantity. */
  private taggedOrder(request: { tag: string; action: 'Buy' | 'Sell'; contract: { name: string }; quantity: number }) {
    return { accountSpec: this.snapshot.account.name, accountId: this.snapshot.account.id, clOrdId: request.tag, action: request.action, symbol: request.contract.name, orderQty: request.quantity }
  }

  /** `order/placeOSO`: entry (Market, Limit, Stop or StopLimit) with its tag, `bracket1` the stop (Stop), `bracket2` the target (Limit). */
  async placeBracket(request: BracketRequest): Promise<PlacedBracket> {
    const exit = request.action === 'Buy' ? 'Sell' : 'Buy'
    const stop: OsoBracket = { action: exit, clOrdId: `${request.tag}.sl`, orderType: 'Stop', stopPrice: price(request.stopPrice, 'stop price'), timeInForce: 'GTC' }
    const body: PlaceOsoRequest = {
      ...this.taggedOrder(request),
      orderType: request.entryType,
      timeInForce: request.timeInForce ?? 'Day',
      isAutomated: true,
      bracket1: stop,
    }
    if (request.entryType === 'Limit' || request.entryType === 'StopLimit') body.price = price(request.entryPrice ?? '', 'entry price')
    if (request.entryType === 'Stop' || request.entryType === 'StopLimit') body.stopPrice = price(request.entryStopPrice ?? '', 'entry trigger')
    if (request.targetPrice !== null) body.bracket2 = { action: exit, clOrdId: `${request.tag}.tp`, orderType: 'Limit', price: price(request.targetPrice, 'target price'), timeInForce: 'GTC' }
    const result = (await this.request(ENDPOINTS.placeOSO, body)) as PlaceOsoResult | null
    const failure = commandFailure(result)
    if (failure) throw new BrokerError('rejected', `the broker refused the order: ${failure.text.slice(0, 200)}`)
    if (!result || typeof result.orderId !== 'number') throw new BrokerError('unavailable', 'the broker answered the order without an order id; the outcome is unknown')
    return { entryOrderId: result.orderId, stopOrderId: result.oso1Id ?? null, targetOrderId: result.oso2Id ?? null }
  }

  /** `order/placeorder`: a Market order under our tag (a partial close). */
  async placeClosingOrder(request: ClosingOrderRequest): Promise<{ orderId: number }> {
    const body: PlaceOrderRequest = {
      ...this.taggedOrder(request),
      orderType: 'Market',
      timeInForce: 'Day',
      isAutomated: true,
    }
    const result = (await this.request(ENDPOINTS.placeOrder, body)) as PlaceOrderResult | null
    const failure = commandFailure(result)
    if (failure) throw new BrokerError('rejected', `the broker refused the closing order: ${failure.text.slice(0, 200)}`)
    if (!result || typeof result.orderId !== 'number') throw new BrokerError('unavailable', 'the broker answered the closing order without an order id; the outcome is unknown')
    return { orderId: result.orderId }
  }

  /** `order/placeorder`: a GTC Stop under `.sl` (the whole-position stop placed anew for contracts left without one). */
  async placeStopOrder(request: StopOrderRequest): Promise<{ orderId: number }> {
    const body: PlaceOrderRequest = {
      ...this.taggedOrder({ ...request, tag: `${request.tag}.sl` }),
      orderType: 'Stop',
      stopPrice: price(request.stopPrice, 'stop price'),
      timeInForce: 'GTC',
      isAutomated: true,
    }
    const result = (await this.request(ENDPOINTS.placeOrder, body)) as PlaceOrderResult | null
    const failure = commandFailure(result)
    if (failure) throw new BrokerError('rejected', `the broker refused the stop: ${failure.text.slice(0, 200)}`)
    if (!result || typeof result.orderId !== 'number') throw new BrokerError('unavailable', 'the broker answered the stop without an order id; the outcome is unknown')
    return { orderId: result.orderId }
  }

  /** `order/placeOCO`: a GTC Limit under `.tpN` and its `other`, a GTC Stop under `.slN`, same quantity (one of several targets). */
  async placeTargetPair(request: TargetPairRequest): Promise<{ targetOrderId: number; stopOrderId: number | null }> {
    const body: PlaceOcoRequest = {
      ...this.taggedOrder({ ...request, tag: `${request.tag}.tp${request.level}` }),
      orderType: 'Limit',
      price: price(request.price, 'target price'),
      timeInForce: 'GTC',
      isAutomated: true,
      other: { action: request.action, clOrdId: `${request.tag}.sl${request.level}`, orderType: 'Stop', stopPrice: price(request.stopPrice, 'stop price'), timeInForce: 'GTC' },
    }
    const result = (await this.request(ENDPOINTS.placeOCO, body)) as PlaceOcoResult | null
    const failure = commandFailure(result)
    if (failure) throw new BrokerError('rejected', `the broker refused the target and its stop: ${failure.text.slice(0, 200)}`)
    if (!result || typeof result.orderId !== 'number') throw new BrokerError('unavailable', 'the broker answered the target and its stop without an order id; the outcome is unknown')
    return { targetOrderId: result.orderId, stopOrderId: result.ocoId ?? null }
  }

  async liquidatePosition(contractId: number): Promise<void> {
    const failure = commandFailure(await this.request(ENDPOINTS.liquidatePosition, { accountId: this.snapshot.account.id, contractId, admin: false }))
    if (failure) throw new BrokerError('rejected', `the broker refused to flatten the position: ${failure.text.slice(0, 200)}`)
  }

  async cancelOrder(orderId: number): Promise<void> {
    const failure = commandFailure(await this.request(ENDPOINTS.cancelOrder, { orderId, isAutomated: true }))
    if (failure) throw new BrokerError('rejected', `the broker refused to cancel order ${orderId}: ${failure.text.slice(0, 200)}`)
  }

  lastHeardAt(): Date {
    return new Date(this.socket.lastFrameAt)
  }

  close(): void {
    this.onClose()
  }
}
