import type { PropsEvent } from '@signals/tradovate-wire'
import { isDone, type BrokerEvent } from '../broker-adapter.ts'
import type { AccountScope, FetchOrder } from './account-scope.ts'
import { toBrokerEvent } from './mapping.ts'
import type { FetchCommands, OrderTags } from './order-tags.ts'
import { int, isObject } from './wire-values.ts'

type Props = PropsEvent['d']

/**
 * Passes the session account's `props` events on in the order received, each order with its tag; events
 * of the login's other accounts are dropped (`AccountScope`). Nothing goes out before `start` names the
 * account (the sync snapshot chose it). `command` events only teach the tags. Two things hold the queue,
 * each fetched at once and released as soon as it is known: an order event whose command is not known yet
 * (Tradovate promises no order between entities; `command/deps`, or the command's own event), and a fill
 * whose order's account is not known yet (`order/item`). So an entry's fill never overtakes the order
 * that says which record it belongs to, and no fill of another account slips through. The hold is bounded
 * by the request's time-out; a fetch that fails ends the session (`fail`), and the next session's
 * snapshot carries the state.
 */
export class TaggedEvents {
  readonly #queue: Props[] = []
  readonly #fetching = new Set<number>()
  #scope: AccountScope | null = null
  #failed = false

  constructor(
    private readonly tags: OrderTags,
    private readonly fetchCommands: FetchCommands,
    private readonly fetchOrder: FetchOrder,
    private readonly emit: (event: BrokerEvent) => void,
    private readonly fail: (reason: string) => void,
  ) {}

  /** The session's account is known: events flow from here on (those received meanwhile first). */
  start(scope: AccountScope): void {
    this.#scope = scope
    this.#drain()
  }

  receive(event: Props): void {
    if (event.entityType === 'command') this.#learn(event.entity)
    else this.#queue.push(event)
    this.#drain()
  }

  /** A command of another account's order teaches nothing (its tag would never be let go). */
  #learn(command: unknown): void {
    if (this.#scope && isObject(command) && this.#scope.ownsOrder(command.orderId) === false) return
    this.tags.learn(command)
  }

  #drain(): void {
    const scope = this.#scope
    while (scope && !this.#failed && this.#queue.length > 0) {
      const head = this.#queue[0] as Props
      const verdict = scope.verdict(head)
      if (verdict === 'unknown') {
        const orderId = int((head.entity as { orderId?: unknown }).orderId) as number
        void this.#hold(orderId, 'the account of order', () => scope.resolve(orderId, this.fetchOrder), () => scope.ownsOrder(orderId) !== undefined)
        return
      }
      if (verdict === 'others') {
        this.#queue.shift()
        if (head.entityType === 'order' && isObject(head.entity)) this.tags.forget(int(head.entity.id) as number)
        continue
      }
      if (head.entityType === 'order' && this.tags.tagOf(head.entity) === undefined) {
        const [orderId] = this.tags.unknown([head.entity])
        if (orderId !== undefined) void this.#hold(orderId, 'the command of order', () => this.tags.complete([head.entity], this.fetchCommands), () => this.tags.tagOf(head.entity) !== undefined)
        return
      }
      this.#queue.shift()
      const mapped = toBrokerEvent(head, this.tags)
      if (!mapped) continue
      this.emit(mapped)
      // The receiver holds the order with its tag now; nothing more is expected of a done one.
      if (mapped.type === 'order' && isDone(mapped.order.status)) this.tags.forget(mapped.order.id)
    }
  }

  /** Fetches what the head of the queue waits for (once per order), then moves the queue on. */
  async #hold(orderId: number, what: string, fetch: () => Promise<void>, known: () => boolean): Promise<void> {
    if (this.#fetching.has(orderId)) return
    this.#fetching.add(orderId)
    try {
      await fetch()
    } catch (error) {
      // The command's own event may have brought the tag meanwhile.
      if (known()) return this.#drain()
      if (this.#failed) return
      this.#failed = true
      this.#queue.length = 0
      return this.fail(`could not read ${what} ${orderId}: ${(error as Error).message}`.slice(0, 300))
    } finally {
      this.#fetching.delete(orderId)
    }
    this.#drain()
  }
}
