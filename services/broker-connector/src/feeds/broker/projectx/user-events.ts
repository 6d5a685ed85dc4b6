import { decimalText } from '../../../shared/decimal-text.ts'
import type { BrokerEvent, BrokerOrder } from '../broker-adapter.ts'
import { int, isFields, num, parentOf, seamTagOf, toBrokerFill, toBrokerOrder, toBrokerPosition, type UntaggedTagOf } from './mapping.ts'

export type UserHubTarget = 'GatewayUserAccount' | 'GatewayUserOrder' | 'GatewayUserPosition' | 'GatewayUserTrade'
export const USER_HUB_TARGETS: readonly UserHubTarget[] = ['GatewayUserAccount', 'GatewayUserOrder', 'GatewayUserPosition', 'GatewayUserTrade']

/** The record a user-hub event carries: ProjectX's hub sends the record itself; some deployments wrap it as `{action, data}`. */
export function userRecordOf(payload: unknown): Record<string, unknown> | null {
  const data = isFields(payload) && isFields(payload.data) && 'action' in payload ? payload.data : payload
  return isFields(data) ? data : null
}

interface Received {
  target: UserHubTarget
  data: Record<string, unknown>
}

/** How many entries' tags are remembered (their legs are named after them); the oldest go first. */
const REMEMBERED_ENTRIES = 20_000
/** OrderStatus 5: Rejected. */
const REJECTED = 5

/**
 * The user hub's events of the session's account as BrokerEvents, in the order received, each order with
 * our tag. Nothing goes out before `start` (the snapshot is taken meanwhile). ProjectX places a bracket's
 * legs when the entry fills and sends them after the fill; the trade keeper must know the legs when the
 * entry's fill opens the trade, so a fill of an entry placed with legs (`expectLegs`) is held until its
 * legs have come (they go out first), or `holdMs` has passed (then it goes without them).
 */
export class UserEvents {
  readonly #queue: Received[] = []
  readonly #entryTags = new Map<number, string>()
  readonly #entryIds = new Map<string, number>()
  readonly #legsDue = new Map<string, number>()
  readonly #legsDueById = new Map<number, number>()
  readonly #seenOrders = new Set<number>()
  #accountId: number | null = null
  #holdTimer: NodeJS.Timeout | undefined
  #released = new Set<number>()

  constructor(
    private readonly emit: (event: BrokerEvent) => void,
    private readonly holdMs: number,
    /** Sees every order event of the account as the hub sent it (leg-prices.ts). */
    private readonly onOrder: (order: Record<string, unknown>) => void = () => undefined,
    /** Sees each trade of the account, with its order's tag, before it goes out (own-legs.ts). */
    private readonly onTrade: (trade: Record<string, unknown>, orderTag: string | null) => void = () => undefined,
    /** The tag of an order ProjectX placed untagged for us (a late close, own-legs.ts). */
    private readonly untaggedTagOf: UntaggedTagOf = () => null,
  ) {}

  /** An order (the hub's, or REST's) as the seam's, with our tag: the session's snapshot, lists and events all map it so. */
  toOrder = (order: unknown): BrokerOrder | null => toBrokerOrder(order, this.entryTagOf, this.entryIdOf, this.untaggedTagOf)

  /** The entry tagged `tag` is about to be placed with `legs` bracket legs (before the request: its events may come first). */
  expectLegs(tag: string, legs: number): void {
    if (legs > 0) this.#legsDue.set(tag, legs)
  }

  /** The entry `entryId`, placed before this session and still working, gets `legs` legs from us at its fill (own-legs.ts). */
  expectLegsOf(entryId: number, legs: number): void {
    if (legs > 0) this.#legsDueById.set(entryId, legs)
  }

  /** Tags and ids the snapshot's orders teach (a leg of an entry placed before this session). */
  learn(orders: readonly unknown[]): void {
    for (const order of orders) if (isFields(order)) this.#learnOrder(order)
  }

  entryTagOf = (entryId: number): string | null => this.#entryTags.get(entryId) ?? null

  /** The entry under our tag `tag` (the parent of the legs we place ourselves, `<tag>.sl|tp`). */
  entryIdOf = (tag: string): number | null => this.#entryIds.get(tag) ?? null

  start(accountId: number): void {
    this.#accountId = accountId
    this.#drain()
  }

  receive(target: UserHubTarget, payload: unknown): void {
    const data = userRecordOf(payload)
    if (data === null) return
    this.#queue.push({ target, data })
    this.#drain()
  }

  close(): void {
    clearTimeout(this.#holdTimer)
    this.#queue.length = 0
  }

  #learnOrder(order: Record<string, unknown>): void {
    const id = int(order.id)
    if (id === null) return
    const parent = parentOf(order, this.entryIdOf)
    if (parent !== null) {
      const due = this.#legsDueById.get(parent)
      if (due !== undefined && !this.#seenOrders.has(id)) this.#legsDueById.set(parent, due - 1)
      return
    }
    const tag = typeof order.customTag === 'string' && order.customTag !== '' ? seamTagOf(order.customTag) : null
    // An order ProjectX refused (its brackets, on a Position Brackets account) is no entry whose legs are due.
    if (tag === null || order.status === REJECTED) return
    this.#entryTags.set(id, tag)
    this.#entryIds.set(tag, id)
    if (this.#entryTags.size > REMEMBERED_ENTRIES) {
      const [oldest, oldestTag] = this.#entryTags.entries().next().value as [number, string]
      this.#entryTags.delete(oldest)
      if (this.#entryIds.get(oldestTag) === oldest) this.#entryIds.delete(oldestTag)
    }
    const due = this.#legsDue.get(tag)
    if (due !== undefined) {
      this.#legsDue.delete(tag)
      this.#legsDueById.set(id, due)
    }
  }

  #drain(): void {
    const accountId = this.#accountId
    while (accountId !== null && this.#queue.length > 0) {
      const head = this.#queue[0] as Received
      if (head.target === 'GatewayUserTrade') {
        const orderId = int(head.data.orderId)
        if (orderId !== null) this.onTrade(head.data, this.entryTagOf(orderId))
        if (orderId !== null && (this.#legsDueById.get(orderId) ?? 0) > 0 && !this.#released.has(orderId)) {
          this.#sendLegsOf(orderId, accountId)
          if ((this.#legsDueById.get(orderId) ?? 0) > 0) return this.#holdFor(orderId)
        }
      }
      this.#queue.shift()
      this.#send(head, accountId)
    }
  }

  /** The legs of `entryId` already received go out ahead of the entry's fill. */
  #sendLegsOf(entryId: number, accountId: number): void {
    for (let i = 1; i < this.#queue.length; i++) {
      const item = this.#queue[i] as Received
      if (item.target !== 'GatewayUserOrder' || parentOf(item.data, this.entryIdOf) !== entryId) continue
      this.#queue.splice(i, 1)
      i--
      this.#send(item, accountId)
    }
  }

  #holdFor(entryId: number): void {
    if (this.#holdTimer !== undefined) return
    this.#holdTimer = setTimeout(() => {
      this.#holdTimer = undefined
      this.#released.add(entryId)
      this.#legsDueById.delete(entryId)
      this.#drain()
    }, this.holdMs)
  }

  #send(item: Received, accountId: number): void {
    const { target, data } = item
    if (target === 'GatewayUserAccount') {
      const balance = num(data.balance)
      if (int(data.id) === accountId && balance !== null) this.emit({ type: 'cashBalance', accountId, amount: decimalText(balance), realizedPnl: null })
      return
    }
    if (int(data.accountId) !== accountId) return
    if (target === 'GatewayUserOrder') {
      this.#learnOrder(data)
      this.onOrder(data)
      const order = this.toOrder(data)
      if (!order) return
      const created = !this.#seenOrders.has(order.id)
      this.#seenOrders.add(order.id)
      if (this.#seenOrders.size > REMEMBERED_ENTRIES) this.#seenOrders.delete(this.#seenOrders.values().next().value as number)
      if (order.parentId !== null && (this.#legsDueById.get(order.parentId) ?? 1) <= 0 && this.#holdTimer !== undefined) {
        clearTimeout(this.#holdTimer)
        this.#holdTimer = undefined
      }
      this.emit({ type: 'order', eventType: created ? 'Created' : 'Updated', order })
      return
    }
    const mapped = target === 'GatewayUserTrade' ? toBrokerFill(data) : toBrokerPosition(data)
    if (!mapped) return
    this.emit('orderId' in mapped ? { type: 'fill', fill: mapped } : { type: 'position', position: mapped })
  }
}
