import type { PropsEvent } from '@signals/tradovate-wire'
import { BrokerError } from '../broker-adapter.ts'
import { int, isObject } from './wire-values.ts'

/** Reads one order (`order/item?id=`); rejects with `rejected` when the broker has no such order for the user. */
export type FetchOrder = (orderId: number) => Promise<unknown>

/** How many orders' accounts are remembered (the most recent; an order forgotten is read again if a fill names it). */
const REMEMBERED_ORDERS = 20_000

/**
 * The session's account, and which account each order belongs to. A login's sync and events cover every
 * account of the user; this decides what is the session's: orders, positions and cash balances by their
 * `accountId`, fills (which name no account) by their order's. A fill whose order is not known yet is
 * `unknown` until `resolve` has read the order.
 */
export class AccountScope {
  /** Order id -> whether it is the session's account's. Insertion-ordered: the oldest is dropped first. */
  readonly #owners = new Map<number, boolean>()

  constructor(readonly accountId: number) {}

  /** Notes an order entity's account; whether it is ours, or null for an entity without ids. */
  noteOrder(order: unknown): boolean | null {
    if (!isObject(order)) return null
    const id = int(order.id)
    const accountId = int(order.accountId)
    if (id === null || accountId === null) return null
    this.#remember(id, accountId === this.accountId)
    return accountId === this.accountId
  }

  /** Whether the order is the session's account's; undefined while its account is not known. */
  ownsOrder(orderId: unknown): boolean | undefined {
    const id = int(orderId)
    return id === null ? false : this.#owners.get(id)
  }

  /** Whether a `props` event is the session's account's, another's, or (a fill of an unknown order) not known yet. */
  verdict(event: PropsEvent['d']): 'ours' | 'others' | 'unknown' {
    const { entityType, entity } = event
    if (!isObject(entity)) return 'others'
    if (entityType === 'order') return this.noteOrder(entity) ? 'ours' : 'others'
    if (entityType === 'position' || entityType === 'cashBalance') return int(entity.accountId) === this.accountId ? 'ours' : 'others'
    if (entityType === 'fill') {
      const owned = this.ownsOrder(entity.orderId)
      return owned === undefined ? 'unknown' : owned ? 'ours' : 'others'
    }
    // Nothing else is followed above the seam (commands only teach tags, see TaggedEvents).
    return 'others'
  }

  /**
   * Reads the order of a fill whose account is unknown. An order the broker does not have for this user
   * is not ours (the fill is dropped); any other failure is the caller's (the session ends).
   */
  async resolve(orderId: number, fetchOrder: FetchOrder): Promise<void> {
    try {
      const order = await fetchOrder(orderId)
      const ours = isObject(order) && int(order.id) === orderId ? this.noteOrder(order) : null
      if (ours === null) this.#remember(orderId, false)
    } catch (error) {
      if (error instanceof BrokerError && error.kind === 'rejected') return this.#remember(orderId, false)
      throw error
    }
  }

  #remember(orderId: number, ours: boolean): void {
    this.#owners.delete(orderId)
    this.#owners.set(orderId, ours)
    if (this.#owners.size > REMEMBERED_ORDERS) this.#owners.delete(this.#owners.keys().next().value as number)
  }
}
