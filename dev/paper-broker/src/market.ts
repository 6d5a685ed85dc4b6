import type { Account, CashBalance, CashBalanceSnapshot, Command, CommandResult, Fill, FillFee, Order, OrderVersion, PlaceOcoResult, PlaceOrderResult, PlaceOsoResult, Position, PropsEvent, Quote, QuoteEntryName, TradeDate } from '@signals/tradovate-wire'
import { multiply, parseDecimal, toPlain, tradingDayOf } from '@signals/instruments'
import { contractById, findContract, type PaperContract } from './contracts.ts'
import { add, compareDecimal, normalizeDecimal, onTick } from './decimal-text.ts'
import { planOco, planOso, planSingle, type OrderPlan } from './oso-request.ts'
import { offTick, planModify, type ModifyPlan } from './modify-request.ts'
import { hasLimit, hasStop, isTrailing, minus, reached, trail, trailingStopFor } from './order-kinds.ts'
import { applyFill, netPos, netPrice, type PositionState } from './position-book.ts'

/** The entries of a paper quote: one price makes each of them. */
export type QuotedEntry = Extract<QuoteEntryName, 'Bid' | 'Offer' | 'Trade'>
const QUOTED_ENTRIES: readonly QuotedEntry[] = ['Bid', 'Offer', 'Trade']

export interface MarketAccount {
  accountId: number
  userId: number
  accountName: string
  /** False for a closed account (listed as inactive). Default true. */
  active?: boolean
}

/** A `props` event for one account's synchronised sockets. */
export interface MarketEvent {
  accountId: number
  event: PropsEvent['d']
}

interface PaperOrder {
  order: Order
  version: OrderVersion
  /** The `New` command that placed it: the client's tag (`clOrdId`) lives here, as at Tradovate. */
  placedBy: Command
  contract: PaperContract
  price: string | null
  stopPrice: string | null
  /** A trailing order's distance from the market (`pegDifference`). */
  pegDifference: string | null
  /** A stop-limit whose stop was reached rests as a limit from then on. */
  stopTriggered: boolean
  /** Bracket legs of an entry, activated when it fills. */
  legIds: number[]
  /** Contracts filled so far (the order is `Filled` when this reaches its `orderQty`). */
  filled: number
}

const LIVE: readonly Order['ordStatus'][] = ['Working', 'Suspended']

/** An order with the tag of the command that placed it, its quantity and what has filled: for tests' assertions, never sent on the wire. */
export type TaggedOrder = Order & { clOrdId: string | null; orderQty: number; filledQty: number }

/**
 * The simulated market: accounts with a cash balance, orders (Market, Limit, Stop, StopLimit, trailing; OSO brackets; modify; fills in parts), fills,
 * positions and a price per dated contract set from outside (`setPrice`). Every change is queued as a
 * `props` event for the account (`drainEvents`), so the socket layer sends them after the command's answer.
 * As at Tradovate, an Order carries no client tag: placing it records a `New` Command with the `clOrdId`,
 * sent (snapshot, `command/*`, a `command` event just before the order's `Created`) beside the order.
 * Fill prices: see docs/decisions/paper-broker.md (a move fills limits and stops at their level; an order
 * that is marketable when placed or activated fills at the current price).
 */
export class PaperMarket {
  readonly #accounts = new Map<number, MarketAccount>()
  readonly #prices = new Map<string, string>()
  readonly #orders = new Map<number, PaperOrder>()
  /** Every command, oldest first (`New` for each order placed, `Cancel` for each cancel request). */
  readonly #commands: Command[] = []
  readonly #fills: Fill[] = []
  /** What each fill cost (decimal text), by fill id: `commissionPerContract` × its quantity. */
  readonly #fees = new Map<number, string>()
  /** Commission per contract filled (decimal text; Tradovate's FillFee `commission`), taken from the cash at the fill. */
  #commissionPerContract = '0'
  readonly #positions = new Map<string, PositionState & { id: number }>()
  /** Each account's cash, and its realized pnl of the trading day `day` (Tradovate's is per trade date). */
  readonly #cash = new Map<number, { id: number; amount: string; realizedPnL: string; day: string }>()
  readonly #events: MarketEvent[] = []
  /** Contracts each order can fill per price event, by contract name (a test's liquidity rule; none: whole). */
  readonly #liquidity = new Map<string, number>()
  /** Orders whose next fill comes in parts of so many contracts (`splitNextFill`), by order id. */
  readonly #splits = new Map<number, number>()
  /**
   * When each contract was last quoted, whether it goes on quoting (an open market) or stopped then, and
   * the entries its quotes carry.
   */
  readonly #quoted = new Map<string, { at: Date; live: boolean; entries: readonly QuotedEntry[] }>()
  /** Contracts whose price changed since the last `drainQuoteChanges`. */
  readonly #quoteChanges = new Set<string>()
  readonly #now: () => Date
  #nextId = 1

  constructor(accounts: readonly MarketAccount[], startingBalance: string, now: () => Date = () => new Date()) {
    this.#now = now
    for (const account of accounts) {
      this.#accounts.set(account.accountId, account)
      this.#cash.set(account.accountId, { id: this.#id(), amount: normalizeDecimal(startingBalance), realizedPnL: '0', day: tradingDayOf(this.#now()) })
    }
  }

  /** Charges `perContract` (decimal text, e.g. `0.52`) on every later fill, per contract, as a broker's commission. */
  chargeCommission(perContract: string): void {
    this.#commissionPerContract = normalizeDecimal(perContract)
  }

  /** The FillFee of each of these fills the market made (`fillFee/ldeps`): its commission, the other parts none. */
  fillFees(fillIds: readonly number[]): FillFee[] {
    return fillIds.flatMap((id) => {
      const fee = this.#fees.get(id)
      return fee === undefined ? [] : [{ id, commission: Number(fee), commissionCurrencyId: 1 }]
    })
  }

  #id(): number {
    return this.#nextId++
  }

  #emit(accountId: number, entityType: string, eventType: 'Created' | 'Updated', entity: object): void {
    this.#events.push({ accountId, event: { entityType, eventType, entity: structuredClone(entity) } })
  }

  /** Events queued since the last call, oldest first. */
  drainEvents(): MarketEvent[] {
    return this.#events.splice(0)
  }

  /** The CME trading day (it starts at 17:00 Chicago), as Tradovate dates fills, positions and cash. */
  #tradeDate(): TradeDate {
    const [year, month, day] = tradingDayOf(this.#now()).split('-').map(Number) as [number, number, number]
    return { year, month, day }
  }

  price(symbol: string): string | null {
    const contract = findContract(symbol)
    return contract ? (this.#prices.get(contract.name) ?? null) : null
  }

  prices(): Record<string, string> {
    return Object.fromEntries(this.#prices)
  }

  /**
   * Sets a contract's price and fills the working orders it reaches. Returns an error sentence or null.
   * `quotedAt` makes the quote a past one that is not updated any more (a closed or stuck market, for tests
   * of stale prices); without it the market goes on quoting at this price. `entries`: which entries the
   * quotes carry from now on (default all three; Tradovate sends a quote with any entry absent, so a test
   * can leave one side out and let it go stale while the others tick).
   */
  setPrice(symbol: string, price: string, quotedAt?: Date, entries: readonly QuotedEntry[] = QUOTED_ENTRIES): string | null {
    const contract = findContract(symbol)
    if (!contract) return `unknown contract ${JSON.stringify(symbol)} (a dated contract such as MNQZ6)`
    let text: string
    try {
      text = normalizeDecimal(price)
    } catch {
      return `price ${JSON.stringify(price)} is not a decimal number`
    }
    if (compareDecimal(text, '0') <= 0) return 'price must be above zero'
    if (!onTick(text, contract.spec.tickSize)) return `price ${text} is not on the ${contract.name} tick (${contract.spec.tickSize})`
    this.#prices.set(contract.name, text)
    this.#quoted.set(contract.name, { at: quotedAt ?? this.#now(), live: quotedAt === undefined, entries })
    this.#quoteChanges.add(contract.name)
    this.#sweep(contract, true)
    return null
  }

  /**
   * The contract's quote as the market-data socket sends it (`md` event), or null before any price. One price
   * makes the whole quote: bid, offer and last trade are all at it, as a market order fills there. A market
   * still quoting is stamped now; a stopped one keeps the time it stopped.
   */
  quote(contract: PaperContract): Quote | null {
    const price = this.#prices.get(contract.name)
    const quoted = this.#quoted.get(contract.name)
    if (price === undefined || !quoted) return null
    const at = quoted.live ? this.#now() : quoted.at
    const level = { price: Number(price) }
    return { timestamp: at.toISOString(), contractId: contract.id, entries: Object.fromEntries(quoted.entries.map((name) => [name, level])) }
  }

  /** Whether the contract's market goes on quoting (false after a `setPrice` with `quotedAt`). */
  quoting(contract: PaperContract): boolean {
    return this.#quoted.get(contract.name)?.live ?? false
  }

  /** Contracts whose price changed since the last call. */
  drainQuoteChanges(): string[] {
    const changed = [...this.#quoteChanges]
    this.#quoteChanges.clear()
    return changed
  }

  account(accountId: number): MarketAccount | undefined {
    return this.#accounts.get(accountId)
  }

  accountEntity(accountId: number): Account | null {
    const account = this.#accounts.get(accountId)
    if (!account) return null
    return { id: account.accountId, name: account.accountName, userId: account.userId, accountType: 'Customer', active: account.active !== false, archived: false }
  }

  #place(accountId: number, contract: PaperContract, plan: OrderPlan, qty: number, status: Order['ordStatus'], parentId: number | null, isAutomated: boolean): PaperOrder {
    const id = this.#id()
    const timestamp = this.#now().toISOString()
    const order: Order = { id, accountId, contractId: contract.id, timestamp, action: plan.action, ordStatus: status, parentId, linkedId: null, admin: false, text: null }
    const version: OrderVersion = { id: this.#id(), orderId: id, orderQty: qty, orderType: plan.orderType, timeInForce: 'Day' }
    if (plan.price !== null) version.price = Number(plan.price)
    if (plan.stopPrice !== null) version.stopPrice = Number(plan.stopPrice)
    if (plan.pegDifference !== null) version.pegDifference = Number(plan.pegDifference)
    const placedBy: Command = { id: this.#id(), orderId: id, timestamp, commandType: 'New', commandStatus: 'RiskPassed', clOrdId: plan.clOrdId, isAutomated }
    this.#commands.push(placedBy)
    const paper: PaperOrder = { order, version, placedBy, contract, price: plan.price, stopPrice: plan.stopPrice, pegDifference: plan.pegDifference, stopTriggered: false, legIds: [], filled: 0 }
    this.#orders.set(id, paper)
    return paper
  }

  /** `order/placeOSO`: the entry, then its legs suspended until it fills; marketable orders fill at once. */
  placeOso(accountId: number, body: unknown): PlaceOsoResult {
    const checked = planOso(body)
    if ('failure' in checked) return checked.failure
    const { contract, qty, isAutomated, entry, legs } = checked.plan
    const entryOrder = this.#place(accountId, contract, entry, qty, 'Working', null, isAutomated)
    const noQuote = this.#refusedWithoutQuote(entryOrder)
    if (noQuote) return noQuote
    const legOrders = legs.map((leg) => this.#place(accountId, contract, leg, qty, 'Suspended', entryOrder.order.id, isAutomated))
    entryOrder.legIds = legOrders.map((leg) => leg.order.id)
    if (legOrders.length === 2) {
      legOrders[0]!.order.linkedId = legOrders[1]!.order.id
      legOrders[1]!.order.linkedId = legOrders[0]!.order.id
    }
    for (const placed of [entryOrder, ...legOrders]) this.#emitOrder(placed, 'Created')
    this.#sweep(contract, false, new Set([entryOrder.order.id]))
    return { orderId: entryOrder.order.id, oso1Id: legOrders[0]?.order.id, oso2Id: legOrders[1]?.order.id }
  }

  /** `order/placeorder`: one order (a manual order has no `clOrdId`); a marketable one fills at once. */
  placeOrder(accountId: number, body: unknown): PlaceOrderResult {
    const checked = planSingle(body)
    if ('failure' in checked) return checked.failure
    const { contract, qty, isAutomated, entry } = checked.plan
    const placed = this.#place(accountId, contract, entry, qty, 'Working', null, isAutomated)
    const noQuote = this.#refusedWithoutQuote(placed)
    if (noQuote) return noQuote
    this.#emitOrder(placed, 'Created')
    this.#sweep(contract, false, new Set([placed.order.id]))
    return { orderId: placed.order.id }
  }

  /**
   * `order/placeOCO`: the order and its `other`, linked: one done in full cancels the other (`#fill`); a part
   * of one resizes nothing (the client does, `order/modifyorder`). Refused whole when either side is refused.
   */
  placeOco(accountId: number, body: unknown): PlaceOcoResult {
    const checked = planOco(body)
    if ('failure' in checked) return checked.failure
    const { contract, qty, isAutomated, entry, other } = checked.plan
    const first = this.#place(accountId, contract, entry, qty, 'Working', null, isAutomated)
    const noQuote = this.#refusedWithoutQuote(first)
    if (noQuote) return noQuote
    const second = this.#place(accountId, contract, other, qty, 'Working', null, isAutomated)
    first.order.linkedId = second.order.id
    second.order.linkedId = first.order.id
    for (const placed of [first, second]) this.#emitOrder(placed, 'Created')
    this.#sweep(contract, false, new Set([first.order.id, second.order.id]))
    return { orderId: first.order.id, ocoId: second.order.id }
  }

  /**
   * An order the broker refuses after giving it an id (ProjectX keeps a refused order, e.g. brackets an
   * account's settings do not allow, as `Rejected`): recorded and sent as `Rejected` with the reason.
   */
  rejectOrder(accountId: number, body: unknown, reason: string): PlaceOrderResult {
    const checked = planSingle(body)
    if ('failure' in checked) return checked.failure
    const { contract, qty, isAutomated, entry } = checked.plan
    const paper = this.#place(accountId, contract, entry, qty, 'Rejected', null, isAutomated)
    paper.order.text = reason
    paper.placedBy.commandStatus = 'ExecutionRejected'
    this.#emitOrder(paper, 'Created')
    return { orderId: paper.order.id }
  }

  /** A market order before any price was set is refused (kept as `Rejected`, found by its tag like any other). */
  #refusedWithoutQuote(paper: PaperOrder): { failureReason: string; failureText: string } | null {
    if (paper.version.orderType !== 'Market' || this.#prices.has(paper.contract.name)) return null
    const failureText = `no market price for ${paper.contract.name} yet; set one with POST /dev/prices`
    paper.order.ordStatus = 'Rejected'
    paper.order.text = failureText
    paper.placedBy.commandStatus = 'ExecutionRejected'
    this.#emitOrder(paper, 'Created')
    return { failureReason: 'NoQuote', failureText }
  }

  /**
   * `order/modifyorder`: a live order's new whole quantity (what has filled included) and, for its type, its
   * new price. The type cannot change; the quantity must stay above what has filled. A `Modify` command and
   * a new order version are sent; a modified order that is now marketable fills.
   */
  modifyOrder(accountId: number, body: unknown): CommandResult {
    const checked = planModify(body)
    if ('failure' in checked) return checked.failure
    const plan = checked.plan
    const paper = this.#orders.get(plan.orderId)
    if (!paper || paper.order.accountId !== accountId) return { failureReason: 'UnknownReason', failureText: `order ${plan.orderId} not found` }
    if (!LIVE.includes(paper.order.ordStatus)) return { failureReason: 'TooLate', failureText: `order ${paper.order.id} is ${paper.order.ordStatus}` }
    if (plan.orderType !== paper.version.orderType) return { failureReason: 'Unsupported', failureText: `order ${paper.order.id} is a ${paper.version.orderType} order; its type cannot be changed` }
    if (plan.orderQty <= paper.filled) return { failureReason: 'UnknownReason', failureText: `orderQty ${plan.orderQty} must be above the ${paper.filled} already filled` }
    const tick = offTick(plan, paper.contract)
    if (tick) return tick.failure
    const command: Command = { id: this.#id(), orderId: paper.order.id, timestamp: this.#now().toISOString(), commandType: 'Modify', commandStatus: 'RiskPassed', clOrdId: null, isAutomated: plan.isAutomated }
    this.#commands.push(command)
    this.#emit(accountId, 'command', 'Created', command)
    this.#applyModify(paper, plan)
    this.#newVersion(paper, plan.orderQty)
    this.#sweep(paper.contract, false, new Set([paper.order.id]))
    return { commandId: command.id }
  }

  /**
   * A modify's prices, those the order's type has: the limit, the stop, a trailing order's distance. A new
   * distance without a new stop puts the stop that far from the market now (else it could only trail on).
   */
  #applyModify(paper: PaperOrder, plan: ModifyPlan): void {
    const type = paper.version.orderType as OrderPlan['orderType']
    if (hasLimit(type) && plan.price !== null) paper.price = plan.price
    if (hasStop(type) && plan.stopPrice !== null) paper.stopPrice = plan.stopPrice
    if (!isTrailing(type) || plan.pegDifference === null) return
    paper.pegDifference = plan.pegDifference
    const price = this.#prices.get(paper.contract.name)
    if (plan.stopPrice !== null || price === undefined || paper.stopTriggered) return
    const stopPrice = trailingStopFor(paper.order.action, plan.pegDifference, price)
    if (paper.price !== null && paper.stopPrice !== null) paper.price = normalizeDecimal(add(paper.price, minus(stopPrice, paper.stopPrice)))
    paper.stopPrice = stopPrice
  }

  /** A working trailing order follows the price in its favour (a new order version each time its stop moves). */
  #trail(paper: PaperOrder, price: string): void {
    const moved = trail(this.#terms(paper), price)
    if (!moved) return
    paper.stopPrice = moved.stopPrice
    paper.price = moved.price
    this.#newVersion(paper, paper.version.orderQty)
  }

  #terms(paper: PaperOrder) {
    return { action: paper.order.action, orderType: paper.version.orderType as OrderPlan['orderType'], price: paper.price, stopPrice: paper.stopPrice, pegDifference: paper.pegDifference, stopTriggered: paper.stopTriggered }
  }

  /** The order's terms change: a new version (quantity, prices) is recorded and sent. */
  #newVersion(paper: PaperOrder, orderQty: number): void {
    const version: OrderVersion = { ...paper.version, id: this.#id(), orderQty }
    if (paper.price !== null) version.price = Number(paper.price)
    if (paper.stopPrice !== null) version.stopPrice = Number(paper.stopPrice)
    if (paper.pegDifference !== null) version.pegDifference = Number(paper.pegDifference)
    paper.version = version
    this.#emit(paper.order.accountId, 'orderVersion', 'Created', version)
  }

  /** A test's liquidity rule: each order of the contract fills at most `lots` per price event (null: in full). */
  setLiquidity(symbol: string, lots: number | null): string | null {
    const contract = findContract(symbol)
    if (!contract) return `unknown contract ${JSON.stringify(symbol)} (a dated contract such as MNQZ6)`
    if (lots === null) {
      this.#liquidity.delete(contract.name)
      return null
    }
    if (!Number.isSafeInteger(lots) || lots < 1) return 'lots must be a whole number of at least 1'
    this.#liquidity.set(contract.name, lots)
    return null
  }

  /** A new order goes out as its `New` command, the order, then its version, in that order in one batch. */
  #emitOrder(paper: PaperOrder, eventType: 'Created' | 'Updated'): void {
    if (eventType === 'Created') this.#emit(paper.order.accountId, 'command', 'Created', paper.placedBy)
    this.#emit(paper.order.accountId, 'order', eventType, paper.order)
    if (eventType === 'Created') this.#emit(paper.order.accountId, 'orderVersion', 'Created', paper.version)
  }

  /**
   * Whether the price reaches a working order. A stop-limit whose stop it reaches rests as a limit from now on;
   * if its limit is reached too it fills at the price (`fresh`), as an order marketable when it becomes active.
   */
  #reaches(paper: PaperOrder, price: string, fresh: Set<number>): boolean {
    const reach = reached(this.#terms(paper), price)
    if (reach.armed && !paper.stopTriggered) {
      paper.stopTriggered = true
      fresh.add(paper.order.id)
    }
    return reach.fill !== null
  }

  /** The level a price move fills the order at: its limit (a triggered stop-limit's too), its stop; a market order none. */
  #level(paper: PaperOrder): string | null {
    const type = paper.version.orderType as OrderPlan['orderType']
    if (type === 'Market') return null
    return type === 'Limit' || paper.stopTriggered ? paper.price : paper.stopPrice
  }

  /**
   * Fills every working order of the contract the current price reaches, oldest first, until none is left
   * (a fill may activate bracket legs that are already reached). On a price move (`atLevel`) a limit or
   * stop fills at its own price; an order reached the moment it is placed or activated fills at the price.
   * Each order fills once per event: in full, or the liquidity rule's lots (the rest on a later event). A
   * price move reaches every working order; an order placed or changed reaches only itself (`only`, with
   * the legs its fills activate), so the rest of the book waits for the next move.
   */
  #sweep(contract: PaperContract, atLevel: boolean, only: Set<number> | null = null): void {
    const price = this.#prices.get(contract.name)
    if (price === undefined) return
    const fresh = new Set<number>()
    const filled = new Set<number>()
    for (const paper of this.#orders.values()) {
      if (paper.contract.id === contract.id && paper.order.ordStatus === 'Working' && (only === null || only.has(paper.order.id))) this.#trail(paper, price)
    }
    for (;;) {
      const next = [...this.#orders.values()].find(
        (paper) =>
          paper.contract.id === contract.id && paper.order.ordStatus === 'Working' && (only === null || only.has(paper.order.id)) && !filled.has(paper.order.id) && this.#reaches(paper, price, fresh),
      )
      if (!next) return
      filled.add(next.order.id)
      const level = this.#level(next)
      const activated = this.#fillOrSplit(next, atLevel && !fresh.has(next.order.id) && level !== null ? level : price)
      for (const id of activated) {
        fresh.add(id)
        only?.add(id)
      }
    }
  }

  /**
   * Fills an order: in parts of `lots` if a test asked so for its next fill (`splitNextFill`), each part a fill
   * with its order event (`Working` until the last, `Filled`), its position and its legs' growth; else whole or
   * the liquidity rule's part. Returns the ids of bracket legs it activated.
   */
  #fillOrSplit(paper: PaperOrder, price: string): number[] {
    const lots = this.#splits.get(paper.order.id)
    if (lots === undefined) return this.#fill(paper, price, this.#liquidity.get(paper.contract.name) ?? Number.MAX_SAFE_INTEGER)
    this.#splits.delete(paper.order.id)
    const activated: number[] = []
    while (paper.filled < paper.version.orderQty) {
      activated.push(...this.#fill(paper, price, lots))
      if (paper.order.ordStatus === 'Working') this.#emitOrder(paper, 'Updated')
    }
    return activated
  }

  /**
   * Test control: the order's next fill comes in parts of `lots` contracts, all at that fill's price and in the
   * same event (a resting order taken by several counterparties). Returns an error sentence or null.
   */
  splitNextFill(accountId: number | null, orderId: number, lots: number): string | null {
    const paper = this.#orders.get(orderId)
    if (!paper || (accountId !== null && paper.order.accountId !== accountId)) return `order ${orderId} not found`
    if (!LIVE.includes(paper.order.ordStatus)) return `order ${orderId} is ${paper.order.ordStatus}; only a working or suspended order can fill`
    if (!Number.isSafeInteger(lots) || lots < 1) return 'lots must be a whole number of at least 1'
    this.#splits.set(orderId, lots)
    return null
  }

  /** Fills what is left of an order, at most `most` contracts; returns the ids of bracket legs it activated. */
  #fill(paper: PaperOrder, price: string, most: number): number[] {
    const { order, version, contract } = paper
    const qty = Math.min(version.orderQty - paper.filled, most)
    paper.filled += qty
    const complete = paper.filled >= version.orderQty
    if (complete) {
      order.ordStatus = 'Filled'
      this.#emitOrder(paper, 'Updated')
    }
    const fill: Fill = { id: this.#id(), orderId: order.id, contractId: contract.id, timestamp: this.#now().toISOString(), tradeDate: this.#tradeDate(), action: order.action, qty, price: Number(price), active: true, finallyPaired: 0 }
    this.#fills.push(fill)
    this.#emit(order.accountId, 'fill', 'Created', fill)
    this.#applyToPosition(order.accountId, contract, order.action, qty, price)
    this.#chargeFee(order.accountId, fill)
    const linked = order.linkedId ? this.#orders.get(order.linkedId) : undefined
    // OCO: only a leg done in full cancels the other (after a part, the client resizes it: order/modifyorder).
    if (complete && linked && LIVE.includes(linked.order.ordStatus)) this.#cancel(linked)
    return this.#armLegs(paper, qty)
  }

  /**
   * An entry's fill arms its bracket for what has filled, as Tradovate's OSO does: suspended legs start
   * working at the quantity filled so far, legs already working grow by each further fill.
   */
  #armLegs(paper: PaperOrder, qty: number): number[] {
    const activated: number[] = []
    for (const legId of paper.legIds) {
      const leg = this.#orders.get(legId)
      if (!leg || !LIVE.includes(leg.order.ordStatus)) continue
      if (leg.order.ordStatus === 'Working') {
        this.#newVersion(leg, leg.version.orderQty + qty)
        continue
      }
      leg.order.ordStatus = 'Working'
      const price = this.#prices.get(leg.contract.name)
      // A trailing leg starts from the market when it starts working (its stop, if given, trails on from there).
      const moved = price === undefined ? null : trail(this.#terms(leg), price)
      if (moved) Object.assign(leg, moved)
      if (leg.version.orderQty !== qty || moved) this.#newVersion(leg, qty)
      this.#emitOrder(leg, 'Updated')
      activated.push(legId)
    }
    return activated
  }

  #applyToPosition(accountId: number, contract: PaperContract, action: 'Buy' | 'Sell', qty: number, price: string): void {
    const key = `${accountId}:${contract.id}`
    let state = this.#positions.get(key)
    if (!state) {
      state = { id: this.#id(), accountId, contractId: contract.id, lots: [], bought: 0, boughtValue: '0', sold: 0, soldValue: '0' }
      this.#positions.set(key, state)
    }
    const realized = applyFill(state, action, qty, price, contract.spec.pointValue)
    this.#emit(accountId, 'position', 'Updated', this.#positionEntity(state))
    if (compareDecimal(realized, '0') === 0) return
    const cash = this.#todaysCash(accountId)
    if (!cash) return
    cash.amount = normalizeDecimal(add(cash.amount, realized))
    cash.realizedPnL = normalizeDecimal(add(cash.realizedPnL, realized))
    this.#emit(accountId, 'cashBalance', 'Updated', this.cashBalance(accountId) as CashBalance)
  }

  /** The fill's commission, kept as its FillFee and taken from the account's cash (not from the realized pnl, as Tradovate counts it). */
  #chargeFee(accountId: number, fill: Fill): void {
    const fee = toPlain(multiply(parseDecimal(this.#commissionPerContract), parseDecimal(fill.qty)))
    this.#fees.set(fill.id, fee)
    if (compareDecimal(fee, '0') === 0) return
    const cash = this.#todaysCash(accountId)
    if (!cash) return
    cash.amount = normalizeDecimal(add(cash.amount, `-${fee}`))
    this.#emit(accountId, 'cashBalance', 'Updated', this.cashBalance(accountId) as CashBalance)
  }

  #positionEntity(state: PositionState & { id: number }): Position {
    const position: Position = { id: state.id, accountId: state.accountId, contractId: state.contractId, timestamp: this.#now().toISOString(), tradeDate: this.#tradeDate(), netPos: netPos(state), bought: state.bought, boughtValue: Number(state.boughtValue), sold: state.sold, soldValue: Number(state.soldValue), prevPos: 0 }
    const average = netPrice(state)
    if (average !== undefined) position.netPrice = average
    return position
  }

  #cancel(paper: PaperOrder): void {
    paper.order.ordStatus = 'Canceled'
    this.#emitOrder(paper, 'Updated')
    // Only legs still suspended go with their entry: legs armed by a part filled protect that part (Tradovate's OSO).
    for (const legId of paper.legIds) {
      const leg = this.#orders.get(legId)
      if (leg && leg.order.ordStatus === 'Suspended') this.#cancel(leg)
    }
  }

  /** `order/cancelorder`: a working or suspended order (an entry takes its suspended legs with it). */
  cancelOrder(accountId: number, orderId: unknown, isAutomated?: unknown): CommandResult {
    const paper = typeof orderId === 'number' ? this.#orders.get(orderId) : undefined
    if (!paper || paper.order.accountId !== accountId) return { failureReason: 'UnknownReason', failureText: `order ${String(orderId)} not found` }
    if (!LIVE.includes(paper.order.ordStatus)) return { failureReason: 'TooLate', failureText: `order ${paper.order.id} is ${paper.order.ordStatus}` }
    const command: Command = { id: this.#id(), orderId: paper.order.id, timestamp: this.#now().toISOString(), commandType: 'Cancel', commandStatus: 'RiskPassed', clOrdId: null, isAutomated: isAutomated === true }
    this.#commands.push(command)
    this.#emit(accountId, 'command', 'Created', command)
    this.#cancel(paper)
    return { commandId: command.id }
  }

  /** `order/liquidateposition`: cancels the contract's working orders, then flattens at the current price. */
  liquidate(accountId: number, contractId: unknown): CommandResult {
    const contract = typeof contractId === 'number' ? contractById(contractId) : null
    if (!contract) return { failureReason: 'InvalidContract', failureText: `contract ${String(contractId)} not found` }
    for (const paper of this.#orders.values()) {
      if (paper.order.accountId === accountId && paper.contract.id === contract.id && LIVE.includes(paper.order.ordStatus)) this.#cancel(paper)
    }
    const state = this.#positions.get(`${accountId}:${contract.id}`)
    const open = state ? netPos(state) : 0
    if (open !== 0) {
      const price = this.#prices.get(contract.name)
      if (price === undefined) return { failureReason: 'NoQuote', failureText: `no market price for ${contract.name} yet; set one with POST /dev/prices` }
      const flatten = this.#place(accountId, contract, { action: open > 0 ? 'Sell' : 'Buy', orderType: 'Market', price: null, stopPrice: null, pegDifference: null, clOrdId: null }, Math.abs(open), 'Working', null, false)
      this.#emitOrder(flatten, 'Created')
      // Filled as any market order is: in full, or in parts under the liquidity rule.
      this.#sweep(contract, false, new Set([flatten.order.id]))
    }
    return { commandId: this.#id() }
  }

  #ordersOf(accountId: number | undefined): PaperOrder[] {
    return [...this.#orders.values()].filter((paper) => accountId === undefined || paper.order.accountId === accountId)
  }

  /** Order entities as Tradovate sends them (no tag). */
  orders(accountId?: number): Order[] {
    return this.#ordersOf(accountId).map((paper) => structuredClone(paper.order))
  }

  /** One order entity (`order/item`), or null when there is none with this id. */
  order(orderId: unknown): Order | null {
    const paper = typeof orderId === 'number' ? this.#orders.get(orderId) : undefined
    return paper ? structuredClone(paper.order) : null
  }

  /** Orders with the tag of their `New` command, for tests' assertions (never on the wire). */
  taggedOrders(accountId?: number): TaggedOrder[] {
    return this.#ordersOf(accountId).map((paper) => ({ ...structuredClone(paper.order), clOrdId: paper.placedBy.clOrdId ?? null, orderQty: paper.version.orderQty, filledQty: paper.filled }))
  }

  /** Commands of the account's orders, oldest first; only those of `orderIds` when given (`command/deps`, `ldeps`). */
  commands(accountId: number, orderIds?: readonly number[]): Command[] {
    return this.#commands
      .filter((command) => this.#orders.get(command.orderId)?.order.accountId === accountId && (orderIds === undefined || orderIds.includes(command.orderId)))
      .map((command) => structuredClone(command))
  }

  orderVersions(accountId?: number): OrderVersion[] {
    return [...this.#orders.values()].filter((paper) => accountId === undefined || paper.order.accountId === accountId).map((paper) => structuredClone(paper.version))
  }

  fills(accountId?: number): Fill[] {
    return this.#fills.filter((fill) => accountId === undefined || this.#orders.get(fill.orderId)?.order.accountId === accountId).map((fill) => structuredClone(fill))
  }

  positions(accountId?: number): Position[] {
    return [...this.#positions.values()].filter((state) => accountId === undefined || state.accountId === accountId).map((state) => this.#positionEntity(state))
  }

  /** The account's cash, its realized pnl started again at 0 when a new trading day began. */
  #todaysCash(accountId: number) {
    const cash = this.#cash.get(accountId)
    const today = tradingDayOf(this.#now())
    if (cash && cash.day !== today) Object.assign(cash, { day: today, realizedPnL: '0' })
    return cash
  }

  cashBalance(accountId: number): CashBalance | null {
    const cash = this.#todaysCash(accountId)
    if (!cash) return null
    return { id: cash.id, accountId, timestamp: this.#now().toISOString(), tradeDate: this.#tradeDate(), currencyId: 1, amount: Number(cash.amount), realizedPnL: Number(cash.realizedPnL), weekRealizedPnL: Number(cash.realizedPnL) }
  }

  /** Exact balance text (for tests and the dev endpoint). */
  balanceText(accountId: number): string | null {
    return this.#cash.get(accountId)?.amount ?? null
  }

  cashSnapshot(accountId: number): CashBalanceSnapshot {
    const cash = this.#todaysCash(accountId)
    if (!cash) return { errorText: `account ${accountId} not found` }
    return { totalCashValue: Number(cash.amount), realizedPnL: Number(cash.realizedPnL), weekRealizedPnL: Number(cash.realizedPnL), netLiq: Number(cash.amount) }
  }
}
