import { int, isObject } from './wire-values.ts'

const tagText = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/** Fetches the commands of some orders (`command/deps` for one, `command/ldeps` for several). */
export type FetchCommands = (orderIds: readonly number[]) => Promise<unknown>

/**
 * Our tag of each order, from the `New` command that placed it: Tradovate's Order entity has no `clOrdId`,
 * its Command does. Learnt from the sync snapshot's `commands`, `command` events, `command/list` and, for an
 * order whose command has not been seen, `command/deps`/`ldeps`. Only orders that may still change are kept:
 * a done order's tag is forgotten once its event has gone out (`forget`), and after the snapshot only its
 * working orders' tags stay (`retainOnly`), so a long session holds its working orders, not its day. A
 * `clOrdId` on an Order entity (the broker adding it) is accepted too.
 */
export class OrderTags {
  /** Order id -> its tag, or null when its New command carries none (a liquidation, a manual order). */
  readonly #tags = new Map<number, string | null>()

  /** Records the tag of a `New` command; other commands (Modify, Cancel) and malformed ones are ignored. */
  learn(command: unknown): void {
    if (!isObject(command) || command.commandType !== 'New') return
    const orderId = int(command.orderId)
    if (orderId !== null) this.#tags.set(orderId, tagText(command.clOrdId))
  }

  learnAll(commands: unknown): void {
    if (Array.isArray(commands)) for (const command of commands) this.learn(command)
  }

  /** Lets go of a done order's tag: a later event of it (none is expected) would fetch its command again. */
  forget(orderId: number): void {
    this.#tags.delete(orderId)
  }

  /** Keeps the tags of these orders only (the snapshot's working orders). */
  retainOnly(orderIds: ReadonlySet<number>): void {
    for (const id of this.#tags.keys()) if (!orderIds.has(id)) this.#tags.delete(id)
  }

  /** How many tags are held (tests). */
  get size(): number {
    return this.#tags.size
  }

  /** The order's tag: null for none; undefined while its command is unknown. */
  tagOf(order: unknown): string | null | undefined {
    if (!isObject(order)) return null
    const fromOrder = tagText(order.clOrdId)
    const id = int(order.id)
    if (id === null) return fromOrder
    return this.#tags.get(id) ?? fromOrder ?? (this.#tags.has(id) ? null : undefined)
  }

  /** Ids of the orders (wire entities) whose tag is still unknown. */
  unknown(orders: readonly unknown[]): number[] {
    return orders.filter((order) => this.tagOf(order) === undefined).map((order) => int((order as { id: unknown }).id) as number)
  }

  /**
   * Fetches the commands of the orders whose tag is unknown, in one request; an order the broker names no
   * `New` command for has no tag (so it never waits for one again).
   */
  async complete(orders: readonly unknown[], fetch: FetchCommands): Promise<void> {
    const missing = this.unknown(orders)
    if (missing.length === 0) return
    this.learnAll(await fetch(missing))
    for (const id of missing) if (!this.#tags.has(id)) this.#tags.set(id, null)
  }
}
