import { applyFill, contractById, netPos, type Fill, type MarketEvent, type Order, type OrderVersion, type PaperContract, type Position, type PositionState } from '@signals/dev-paper-broker/engine'
import { projectXIdOf } from './contracts.ts'
import { OrderSide, OrderStatus, OrderType, PositionType, type ProjectXAccount, type ProjectXOrder, type ProjectXPosition, type ProjectXTrade, type UserEvent } from './wire.ts'

const TYPES: Readonly<Record<string, number>> = { Limit: OrderType.Limit, Market: OrderType.Market, StopLimit: OrderType.StopLimit, Stop: OrderType.Stop, TrailingStop: OrderType.TrailingStop }
const STATUSES: Readonly<Record<string, number>> = { Working: OrderStatus.Open, Filled: OrderStatus.Filled, Canceled: OrderStatus.Cancelled, Expired: OrderStatus.Expired, Rejected: OrderStatus.Rejected, Suspended: OrderStatus.Pending, PendingNew: OrderStatus.Pending }

interface OrderState {
  view: ProjectXOrder
  engineStatus: Order['ordStatus']
  /** Created but its first version not seen yet: it is sent with that version. */
  awaitingVersion: boolean
  /** Sum of price x qty of its fills, for the average `filledPrice`. */
  filledValue: number
  /** Sent to the client at least once; a bracket leg cancelled while it waited never is (ProjectX never placed it). */
  shown: boolean
}

/**
 * The ProjectX view of the engine's records: orders (with their tags, fills and average fill price), trades
 * with their realized pnl, positions (`size` + `type`) and account balances, kept from the engine's events
 * and turned into user-hub events. A bracket leg is not shown while it waits for its entry (ProjectX places
 * a bracket's legs when the entry fills); it appears when it starts working.
 */
export class ProjectXBook {
  readonly #orders = new Map<number, OrderState>()
  readonly #trades: ProjectXTrade[] = []
  readonly #positions = new Map<string, { state: PositionState; view: ProjectXPosition }>()
  /** Tags and ProjectX order types the face chose for orders it placed (a bracket leg's, a JoinBid's). */
  readonly #tags = new Map<number, string>()
  readonly #types = new Map<number, number>()

  constructor(
    private readonly now: () => Date,
    private readonly accountView: (accountId: number, balance: number) => ProjectXAccount,
  ) {}

  /** A tag for an order the engine placed without one (a bracket leg: `AutoBracket<entry>-SL`). */
  tag(orderId: number, customTag: string): void {
    this.#tags.set(orderId, customTag)
    const known = this.#orders.get(orderId)
    if (known) known.view.customTag = customTag
  }

  /** The ProjectX type to show for an order the engine holds as another (JoinBid and JoinAsk are limits there). */
  showType(orderId: number, type: number): void {
    this.#types.set(orderId, type)
    const known = this.#orders.get(orderId)
    if (known) known.view.type = type
  }

  /** Applies the engine's events, oldest first; returns the user-hub events they make. */
  apply(events: readonly MarketEvent[]): UserEvent[] {
    const out: UserEvent[] = []
    for (const { accountId, event } of fillsBeforeFilled(events)) {
      const entity = event.entity as Record<string, unknown>
      switch (event.entityType) {
        case 'command':
          if (entity.commandType === 'New' && typeof entity.clOrdId === 'string') this.#tags.set(entity.orderId as number, entity.clOrdId)
          break
        case 'order':
          this.#order(entity as unknown as Order, event.eventType === 'Created', out)
          break
        case 'orderVersion':
          this.#version(entity as unknown as OrderVersion, out)
          break
        case 'fill':
          this.#fill(accountId, entity as unknown as Fill, out)
          break
        case 'position':
          this.#position(entity as unknown as Position, out)
          break
        case 'cashBalance':
          out.push({ accountId, target: 'GatewayUserAccount', data: this.accountView(accountId, entity.amount as number) })
          break
      }
    }
    return out
  }

  #order(order: Order, created: boolean, out: UserEvent[]): void {
    const contract = contractById(order.contractId) as PaperContract
    const known = this.#orders.get(order.id)
    const stamp = this.now().toISOString()
    if (!known) {
      const view: ProjectXOrder = {
        id: order.id,
        accountId: order.accountId,
        contractId: projectXIdOf(contract, this.now()),
        symbolId: `F.US.${projectXIdOf(contract, this.now()).split('.')[3] as string}`,
        creationTimestamp: order.timestamp,
        updateTimestamp: stamp,
        status: STATUSES[order.ordStatus] ?? OrderStatus.None,
        type: OrderType.Market,
        side: order.action === 'Buy' ? OrderSide.Bid : OrderSide.Ask,
        size: 0,
        limitPrice: null,
        stopPrice: null,
        fillVolume: 0,
        filledPrice: null,
        customTag: this.#tags.get(order.id) ?? null,
        parentOrderId: order.parentId ?? null,
      }
      this.#orders.set(order.id, { view, engineStatus: order.ordStatus, awaitingVersion: created, filledValue: 0, shown: false })
      return
    }
    known.engineStatus = order.ordStatus
    known.view.status = STATUSES[order.ordStatus] ?? OrderStatus.None
    known.view.updateTimestamp = stamp
    if (!known.awaitingVersion) this.#send(known, out)
  }

  #version(version: OrderVersion, out: UserEvent[]): void {
    const known = this.#orders.get(version.orderId)
    if (!known) return
    const { view } = known
    view.size = version.orderQty
    view.type = this.#types.get(view.id) ?? TYPES[version.orderType] ?? OrderType.Market
    view.limitPrice = version.orderType === 'Limit' || version.orderType === 'StopLimit' ? (version.price ?? null) : null
    view.stopPrice = version.orderType === 'Stop' || version.orderType === 'StopLimit' || version.orderType === 'TrailingStop' ? (version.stopPrice ?? null) : null
    view.updateTimestamp = this.now().toISOString()
    known.awaitingVersion = false
    this.#send(known, out)
  }

  #fill(accountId: number, fill: Fill, out: UserEvent[]): void {
    const known = this.#orders.get(fill.orderId)
    const contract = contractById(fill.contractId) as PaperContract
    if (known) {
      known.view.fillVolume += fill.qty
      known.filledValue += fill.price * fill.qty
      known.view.filledPrice = known.filledValue / known.view.fillVolume
    }
    const key = `${accountId}:${fill.contractId}`
    const held = this.#positions.get(key)?.state ?? { accountId, contractId: fill.contractId, lots: [], bought: 0, boughtValue: '0', sold: 0, soldValue: '0' }
    const before = netPos(held)
    const realized = applyFill(held, fill.action, fill.qty, String(fill.price), contract.spec.pointValue)
    const closing = before !== 0 && Math.sign(before) !== (fill.action === 'Buy' ? 1 : -1)
    this.#keepPosition(key, held)
    const trade: ProjectXTrade = {
      id: fill.id,
      accountId,
      contractId: projectXIdOf(contract, this.now()),
      creationTimestamp: fill.timestamp,
      price: fill.price,
      profitAndLoss: closing ? Number(realized) : null,
      fees: 0,
      side: fill.action === 'Buy' ? OrderSide.Bid : OrderSide.Ask,
      size: fill.qty,
      voided: false,
      orderId: fill.orderId,
    }
    this.#trades.push(trade)
    out.push({ accountId, target: 'GatewayUserTrade', data: { ...trade } })
  }

  #keepPosition(key: string, state: PositionState): void {
    if (!this.#positions.has(key)) {
      const contract = contractById(state.contractId) as PaperContract
      this.#positions.set(key, { state, view: { id: 0, accountId: state.accountId, contractId: projectXIdOf(contract, this.now()), creationTimestamp: this.now().toISOString(), type: PositionType.Undefined, size: 0, averagePrice: 0 } })
    }
  }

  /** A position event: its size and side, its average price; a position opened again gets a new creation time. */
  #position(position: Position, out: UserEvent[]): void {
    const key = `${position.accountId}:${position.contractId}`
    const held = this.#positions.get(key)
    if (!held) return
    const { view } = held
    if (view.size === 0 && position.netPos !== 0) view.creationTimestamp = this.now().toISOString()
    view.id = position.id
    view.size = Math.abs(position.netPos)
    if (position.netPos !== 0) view.type = position.netPos > 0 ? PositionType.Long : PositionType.Short
    view.averagePrice = position.netPrice ?? 0
    out.push({ accountId: position.accountId, target: 'GatewayUserPosition', data: { ...view } })
  }

  #send(known: OrderState, out: UserEvent[]): void {
    if (!this.#visible(known)) return
    known.shown = true
    out.push({ accountId: known.view.accountId, target: 'GatewayUserOrder', data: { ...known.view } })
  }

  /** A bracket leg is hidden while it waits for its entry, and for good when it is cancelled before it worked. */
  #visible(known: OrderState): boolean {
    if (known.engineStatus === 'Suspended') return false
    return known.shown || known.view.parentOrderId === null || known.engineStatus !== 'Canceled'
  }

  /** The account's orders, as Order/search answers (bracket legs that never worked left out). */
  orders(accountId: number): ProjectXOrder[] {
    return [...this.#orders.values()].filter((known) => known.view.accountId === accountId && this.#visible(known)).map((known) => ({ ...known.view }))
  }

  trades(accountId: number): ProjectXTrade[] {
    return this.#trades.filter((trade) => trade.accountId === accountId).map((trade) => ({ ...trade }))
  }

  /** Open positions (size above 0), as Position/searchOpen answers. */
  positions(accountId: number): ProjectXPosition[] {
    return [...this.#positions.values()].filter(({ view }) => view.accountId === accountId && view.size > 0).map(({ view }) => ({ ...view }))
  }
}

/**
 * The engine sends an order's `Filled` before the fill that completes it; ProjectX's order event carries
 * the fill volume and price, so that fill is moved in front of it.
 */
function fillsBeforeFilled(events: readonly MarketEvent[]): MarketEvent[] {
  const ordered = [...events]
  for (let i = 0; i < ordered.length; i++) {
    const { event } = ordered[i] as MarketEvent
    const entity = event.entity as { id?: number; ordStatus?: string }
    if (event.entityType !== 'order' || entity.ordStatus !== 'Filled') continue
    const j = ordered.findIndex((candidate, index) => index > i && candidate.event.entityType === 'fill' && (candidate.event.entity as { orderId?: number }).orderId === entity.id)
    if (j < 0) continue
    const [fill] = ordered.splice(j, 1)
    ordered.splice(i, 0, fill as MarketEvent)
    i++
  }
  return ordered
}
