import { decimalText } from '../../../shared/decimal-text.ts'
import {
  BrokerError,
  type BracketRequest,
  type BrokerContract,
  type BrokerFill,
  type BrokerOrder,
  type BrokerOrderVersion,
  type BrokerPosition,
  type BrokerSession,
  type BrokerSnapshot,
  type ClosingOrderRequest,
  type MarketPrice,
  type PlacedBracket,
  type ReadOptions,
} from '../broker-adapter.ts'
import { bracketTicks, tickText } from './bracket-ticks.ts'
import { contractIdOf, contractNumberOf } from './contract-ids.ts'
import { int, isFields, num, OWN_LEGS_SUFFIX, present, toBrokerFill, toBrokerPosition, toOrderVersion, tradeFeeOf, withoutRefusedTwins } from './mapping.ts'
import type { LegPrices } from './leg-prices.ts'
import type { OwnLegs } from './own-legs.ts'
import type { MarketQuotes } from './market-quotes.ts'
import type { Answer } from './rest.ts'
import type { UserEvents } from './user-events.ts'
import type { UserState } from './user-state.ts'

/**
 * Why a resting entry is refused on an account that refuses brackets where the legs' plans are not kept in
 * Postgres (an adapter without a database: filled after a restart, it would hold a position without a stop),
 * or with PROJECTX_RESTING_OWN_LEGS off. A market entry fills at once. docs/decisions/projectx-adapter.md.
 */
const OWN_LEGS_MARKET_ONLY =
  'this ProjectX account refuses brackets on orders (Position Brackets or Auto OCO off): only market entries are taken, with the stop and target placed by the connector at the fill; switch the account to Auto OCO brackets to use resting entries'

/** Calls one ProjectX endpoint with the session's token (rest.ts: refusals, rate limit, unknown outcomes). */
export type Call = (endpoint: string, body: object) => Promise<Answer>

/** OrderType and OrderSide as Order/place takes them. */
const TYPE = { Limit: 1, Market: 2, StopLimit: 3, Stop: 4 } as const
const SIDE = { Buy: 0, Sell: 1 } as const

/** ProjectX's refusal of an order's brackets by the account's settings (errorCode 2, "Brackets cannot be used with Position Brackets"). */
const BRACKETS_REFUSED = /\(error 2\): .*brackets/i

/** How far back the day's orders and fills are read (Order/search and Trade/search need a start). */
export const LOOKBACK_MS = 24 * 3_600_000

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/**
 * The account's orders over REST: `Order/search` over the last 24 h, and `Order/searchOpen` for a working
 * order older than that (a GTC leg), which the search by start time leaves out.
 */
export async function restOrders(call: Call, accountId: number): Promise<unknown[]> {
  const [day, open] = await Promise.all([
    call('Order/search', { accountId, startTimestamp: new Date(Date.now() - LOOKBACK_MS).toISOString() }),
    call('Order/searchOpen', { accountId }),
  ])
  const orders = list(day.orders)
  const seen = new Set(orders.map((order) => (isFields(order) ? int(order.id) : null)))
  return [...orders, ...list(open.orders).filter((order) => isFields(order) && !seen.has(int(order.id)))]
}

/** A price the caller gave as tick-rounded decimal text, as the JSON number ProjectX takes. */
function price(value: string | null | undefined, what: string): number {
  const number = Number(value)
  if (value === null || value === undefined || value.trim() === '' || !Number.isFinite(number) || number <= 0) throw new BrokerError('rejected', `${what} ${JSON.stringify(value ?? null)} is not a price`)
  return number
}

/** The text contract id of a contract number, or a refusal naming it. */
function contractIdText(contractNumber: number): string {
  const id = contractIdOf(contractNumber)
  if (id === null) throw new BrokerError('rejected', `contract ${contractNumber} is not a ProjectX contract this connector named`)
  return id
}

/**
 * A synchronised ProjectX session: REST for requests, the user hub (UserEvents) for what happens, and the
 * account's orders, fills, positions and balance read from the hub-kept state (UserState) rather than REST.
 */
export class ProjectXSession implements BrokerSession {
  /** Tick sizes of the contracts looked up (`Contract/search`), for the bracket legs' tick distances. */
  readonly #ticks = new Map<number, string>()
  /** Contract names by id (a contract's name never changes). */
  readonly #names = new Map<number, string>()
  /** The contracts found, by dated name. */
  readonly #contracts = new Map<string, Promise<BrokerContract>>()

  constructor(
    readonly snapshot: BrokerSnapshot,
    private readonly call: Call,
    private readonly events: UserEvents,
    private readonly state: UserState,
    private readonly legPrices: LegPrices,
    private readonly ownLegs: OwnLegs,
    private readonly quotes: MarketQuotes,
    private readonly heardAt: () => Date,
    private readonly onClose: () => void,
  ) {}

  get #accountId(): number {
    return this.snapshot.account.id
  }

  /**
   * `Contract/search` by the dated name (`MNQZ6`): the contract whose `name` is exactly it, or a refusal.
   * Asked once per name and session (a dated contract's id does not change; a failure is asked again).
   */
  findContract(name: string): Promise<BrokerContract> {
    const key = name.trim().toUpperCase()
    const known = this.#contracts.get(key)
    if (known) return known
    const asked = this.#searchContract(name)
    this.#contracts.set(key, asked)
    asked.catch(() => this.#contracts.delete(key))
    return asked
  }

  async #searchContract(name: string): Promise<BrokerContract> {
    const answer = await this.call('Contract/search', { searchText: name, live: false })
    const found = list(answer.contracts).filter(isFields).find((contract) => typeof contract.name === 'string' && contract.name.toUpperCase() === name.trim().toUpperCase())
    if (!found || typeof found.id !== 'string') throw new BrokerError('rejected', `ProjectX does not list the contract ${name}`)
    const id = contractNumberOf(found.id)
    const tick = num(found.tickSize)
    if (tick !== null && tick > 0) this.#ticks.set(id, tickText(tick))
    this.#names.set(id, found.name as string)
    return { id, name: found.name as string }
  }

  async #tickSize(contract: BrokerContract): Promise<string> {
    const known = this.#ticks.get(contract.id)
    if (known) return known
    const answer = await this.call('Contract/searchById', { contractId: contractIdText(contract.id) })
    const tick = isFields(answer.contract) ? num(answer.contract.tickSize) : null
    if (tick === null || tick <= 0) throw new BrokerError('rejected', `ProjectX gives no tick size for ${contract.name}`)
    this.#ticks.set(contract.id, tickText(tick))
    return this.#ticks.get(contract.id) as string
  }

  /**
   * A read of the account: from the hub-kept state once it has shown what this session's own requests did
   * (waited for a moment), else from REST (the state not seeded yet, or the hub slower than the wait: then
   * every read is REST until the hub shows what was waited for, user-state.ts). `fresh`: REST always.
   */
  async #read<T>(fromState: () => T, fromRest: () => Promise<T>, options: ReadOptions = {}): Promise<T> {
    if (options.fresh !== true && (await this.state.settled())) return fromState()
    return fromRest()
  }

  /** The balance the user hub's account events last gave (the snapshot's at first). */
  cashBalance(): Promise<string | null> {
    return this.#read(() => decimalText(this.state.balance()), () => this.#restBalance())
  }

  async #restBalance(): Promise<string | null> {
    const answer = await this.call('Account/search', { onlyActiveAccounts: false })
    const account = list(answer.accounts).filter(isFields).find((candidate) => candidate.id === this.#accountId)
    const balance = account ? num(account.balance) : null
    return decimalText(balance)
  }

  marketPrice(contract: BrokerContract, action: 'Buy' | 'Sell'): Promise<MarketPrice> {
    return this.quotes.price(contract, action)
  }

  /** The day's orders and any older one still working (a GTC leg). */
  #orders(options: ReadOptions = {}): Promise<Record<string, unknown>[]> {
    return this.#read(() => this.state.orders(Date.now() - LOOKBACK_MS), async () => (await restOrders(this.call, this.#accountId)).filter(isFields), options)
  }

  /** The day's trades (`Trade/search` over the last 24 h), voided ones included. */
  #trades(): Promise<unknown[]> {
    return this.#read(() => this.state.trades(Date.now() - LOOKBACK_MS), async () => {
      const answer = await this.call('Trade/search', { accountId: this.#accountId, startTimestamp: new Date(Date.now() - LOOKBACK_MS).toISOString() })
      return list(answer.trades)
    })
  }

  async listOrders(options: ReadOptions = {}): Promise<BrokerOrder[]> {
    const orders = await this.#orders(options)
    this.events.learn(orders)
    return withoutRefusedTwins(orders.map(this.events.toOrder).filter(present))
  }

  async listPositions(options: ReadOptions = {}): Promise<BrokerPosition[]> {
    const positions = await this.#read(() => this.state.positions(), () => this.#restPositions(), options)
    return positions.map(toBrokerPosition).filter(present)
  }

  /** `Position/searchOpen`: what a flatten checks against, asked of the broker itself. */
  async #restPositions(): Promise<unknown[]> {
    const answer = await this.call('Position/searchOpen', { accountId: this.#accountId })
    return list(answer.positions)
  }

  async listFills(): Promise<BrokerFill[]> {
    return (await this.#trades()).map(toBrokerFill).filter(present)
  }

  /** ProjectX puts each trade's fees on the trade itself (`fees`), read with the fills. */
  async fillFees(fillIds: readonly number[]): Promise<Map<number, string>> {
    const wanted = new Set(fillIds)
    const fees = new Map<number, string>()
    if (wanted.size === 0) return fees
    for (const trade of await this.#trades()) {
      const fee = tradeFeeOf(trade)
      if (fee !== null && wanted.has(fee.id)) fees.set(fee.id, fee.amount)
    }
    return fees
  }

  async orderVersions(orderIds: readonly number[]): Promise<Map<number, BrokerOrderVersion>> {
    const wanted = new Set(orderIds)
    const versions = new Map<number, BrokerOrderVersion>()
    if (wanted.size === 0) return versions
    for (const order of await this.#orders()) {
      const id = int(order.id)
      if (id !== null && wanted.has(id)) versions.set(id, toOrderVersion(order))
    }
    return versions
  }

  async contractName(contractId: number): Promise<string | null> {
    const known = this.#names.get(contractId)
    if (known !== undefined) return known
    const id = contractIdOf(contractId)
    if (id === null) return null
    try {
      const answer = await this.call('Contract/searchById', { contractId: id })
      const name = isFields(answer.contract) && typeof answer.contract.name === 'string' ? answer.contract.name : null
      if (name !== null) this.#names.set(contractId, name)
      return name
    } catch (error) {
      if (error instanceof BrokerError && error.kind === 'rejected') return null
      throw error
    }
  }

  /**
   * One `Order/place` with `customTag` our tag (ProjectX refuses a tag used before on the account: the
   * idempotency key) and the legs as `stopLossBracket` (Stop) / `takeProfitBracket` (Limit) in signed ticks
   * from the entry's price: its limit, its trigger, or for a market entry the market's price now. ProjectX
   * places the legs when the entry fills, so their ids are not known here (the events bring them, tagged
   * `.sl` / `.tp`). An account that refuses brackets (Position Brackets) gets the entry without them, and
   * the legs from us once it fills (own-legs.ts).
   */
  async placeBracket(request: BracketRequest): Promise<PlacedBracket> {
    if (request.timeInForce === 'IOC' || request.timeInForce === 'FOK') throw new BrokerError('rejected', `ProjectX orders take no time in force; ${request.timeInForce} is not offered`)
    const body: Record<string, unknown> = { ...this.#tagged(request), type: TYPE[request.entryType] }
    if (request.entryType === 'Limit' || request.entryType === 'StopLimit') body.limitPrice = price(request.entryPrice, 'entry price')
    if (request.entryType === 'Stop' || request.entryType === 'StopLimit') body.stopPrice = price(request.entryStopPrice, 'entry trigger')
    const buy = request.action === 'Buy'
    const reference = await this.#reference(request)
    const tick = await this.#tickSize(request.contract)
    // Checked for the legs we place too: a level off the tick or on the wrong side is refused before sending.
    const ticks = { stop: bracketTicks('stop', request.stopPrice, reference, tick, buy), target: request.targetPrice === null ? null : bracketTicks('target', request.targetPrice, reference, tick, buy) }
    this.events.expectLegs(request.tag, request.targetPrice === null ? 1 : 2)
    if (this.ownLegs.refusesBrackets) return this.#placeWithOwnLegs(request, body)
    const bracketed: Record<string, unknown> = { ...body, stopLossBracket: { ticks: ticks.stop, type: TYPE.Stop } }
    if (ticks.target !== null) bracketed.takeProfitBracket = { ticks: ticks.target, type: TYPE.Limit }
    this.legPrices.want(request.tag, { stop: request.stopPrice, target: request.targetPrice })
    try {
      return { entryOrderId: await this.#place(bracketed, 'order'), stopOrderId: null, targetOrderId: null }
    } catch (error) {
      // Only a refusal that is certain and names the brackets: an unknown outcome is never sent again.
      if (!(error instanceof BrokerError && error.kind === 'rejected' && BRACKETS_REFUSED.test(error.message))) throw error
      this.ownLegs.refusesBrackets = true
      // ProjectX keeps the refused order under our tag, so the entry goes again under `<tag>.own` (mapping.ts).
      return this.#placeWithOwnLegs(request, { ...body, customTag: `${request.tag}${OWN_LEGS_SUFFIX}` })
    }
  }

  /**
   * The entry without brackets; its fills get the stop and target from us (own-legs.ts), whose plan is kept
   * before the entry goes (Postgres: any instance holding the session after a restart covers its fills). A
   * resting entry is refused, with why, only where the plan would wait in this process's memory (an adapter
   * without a database): filled after a restart, it would hold a position without a stop.
   */
  async #placeWithOwnLegs(request: BracketRequest, body: Record<string, unknown>): Promise<PlacedBracket> {
    if (request.entryType !== 'Market' && !this.ownLegs.takesRestingEntries) throw new BrokerError('rejected', OWN_LEGS_MARKET_ONLY)
    await this.ownLegs.want(request.tag, { contractId: contractIdText(request.contract.id), side: request.action === 'Buy' ? SIDE.Sell : SIDE.Buy, stop: request.stopPrice, target: request.targetPrice })
    return { entryOrderId: await this.#place(body, 'order'), stopOrderId: null, targetOrderId: null }
  }

  /** The price ProjectX counts the legs' ticks from: the entry's limit, its trigger, or the market. */
  async #reference(request: BracketRequest): Promise<string> {
    if (request.entryType === 'Limit') return String(price(request.entryPrice, 'entry price'))
    if (request.entryType === 'Stop' || request.entryType === 'StopLimit') return String(price(request.entryStopPrice, 'entry trigger'))
    const market = await this.quotes.price(request.contract, request.action)
    if (market.kind === 'none') throw new BrokerError('rejected', `ProjectX counts bracket ticks from the market price, and there is none: ${market.reason}`)
    return market.price
  }

  /** Order/place: a Market order under our tag, no legs (a partial close). */
  async placeClosingOrder(request: ClosingOrderRequest): Promise<{ orderId: number }> {
    return { orderId: await this.#place({ ...this.#tagged(request), type: TYPE.Market }, 'closing order') }
  }

  #tagged(request: { tag: string; action: 'Buy' | 'Sell'; contract: BrokerContract; quantity: number }) {
    return { accountId: this.#accountId, contractId: contractIdText(request.contract.id), side: SIDE[request.action], size: request.quantity, customTag: request.tag }
  }

  async #place(body: object, what: string): Promise<number> {
    let answer: Answer
    try {
      answer = await this.call('Order/place', body)
    } catch (error) {
      if (error instanceof BrokerError && error.kind === 'rejected') throw new BrokerError('rejected', `the broker refused the ${what}: ${error.message}`)
      throw error
    }
    const orderId = int(answer.orderId)
    if (orderId === null) throw new BrokerError('unavailable', `ProjectX answered the ${what} without an order id; the outcome is unknown`)
    return orderId
  }

  /** Order/modify with the new whole size (filled part included), prices as they stand. */
  async resizeOrder(orderId: number, orderQty: number): Promise<void> {
    await this.#modify(orderId, { size: orderQty }, 'resize')
  }

  /** Order/modify with a new limit price and/or trigger; size and type kept. */
  async repriceOrder(orderId: number, prices: { price?: string; stopPrice?: string }): Promise<void> {
    const body: Record<string, unknown> = {}
    if (prices.price !== undefined) body.limitPrice = price(prices.price, 'price')
    if (prices.stopPrice !== undefined) body.stopPrice = price(prices.stopPrice, 'stop price')
    await this.#modify(orderId, body, 'move')
  }

  async #modify(orderId: number, fields: object, what: string): Promise<void> {
    try {
      await this.call('Order/modify', { accountId: this.#accountId, orderId, ...fields })
    } catch (error) {
      if (error instanceof BrokerError && error.kind === 'rejected') throw new BrokerError('rejected', `the broker refused to ${what} order ${orderId}: ${error.message}`)
      throw error
    }
  }

  /**
   * Order/cancel for every working order of the contract first, then Position/closeContract (at the market)
   * if the position, read again, is still open: as Tradovate's liquidation, which cancels and flattens in one
   * step. Closed first, a working order in the closing direction (a partial close's rest, the trader's own
   * limit) could fill before its cancel and reverse the account. A cancel that fails throws before the close:
   * the orders cancelled stay cancelled, the position stays open, and the caller's retry starts again. A
   * position gone flat meanwhile (a stop filled) is nothing to close.
   */
  async liquidatePosition(contractId: number): Promise<void> {
    const contract = contractIdText(contractId)
    const open = await this.call('Order/searchOpen', { accountId: this.#accountId })
    for (const order of list(open.orders).filter(isFields)) {
      const id = int(order.id)
      // One done meanwhile (filled) is refused: nothing is left to cancel.
      if (id !== null && order.contractId === contract) await this.cancelOrder(id).catch((error: unknown) => {
        if (!(error instanceof BrokerError && error.kind === 'rejected')) throw error
      })
    }
    // Asked of the broker, not the state: a position the hub has not shown yet is still closed.
    const positions = (await this.#restPositions()).map(toBrokerPosition).filter(present)
    if (!positions.some((position) => position.contractId === contractId && position.netPos !== 0)) return
    try {
      await this.call('Position/closeContract', { accountId: this.#accountId, contractId: contract })
    } catch (error) {
      if (error instanceof BrokerError && error.kind === 'rejected') throw new BrokerError('rejected', `the broker refused to flatten the position: ${error.message}`)
      throw error
    }
  }

  async cancelOrder(orderId: number): Promise<void> {
    try {
      await this.call('Order/cancel', { accountId: this.#accountId, orderId })
    } catch (error) {
      if (error instanceof BrokerError && error.kind === 'rejected') throw new BrokerError('rejected', `the broker refused to cancel order ${orderId}: ${error.message}`)
      throw error
    }
  }

  lastHeardAt(): Date {
    return this.heardAt()
  }

  close(): void {
    this.onClose()
  }
}
