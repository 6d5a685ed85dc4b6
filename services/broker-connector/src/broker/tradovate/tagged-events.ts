import type { PropsEvent } from '@signals/tradovate-wire'
import { isDone, type BrokerEvent } from '../broker-adapter.ts'
import { toBrokerEvent } from './mapping.ts'
import type { FetchCommands, OrderTags } from './order-tags.ts'

type Props = PropsEvent['d']

/**
 * Passes `props` events on in the order received, each order with its tag. `command` events only teach
 * the tags. An `order` event whose command is not known yet (Tradovate promises no order between entities)
 * holds itself and every later event: its commands are fetched at once (`command/deps`), and the queue
 * moves on as soon as the tag is known, whether the fetch or the command's own event brings it first. So an
 * entry's fill never overtakes the order that says which record it belongs to. The hold is bounded by the
 * request's time-out; a fetch that fails ends the session (`fail`), and the next session's snapshot carries
 * the commands.
 */
export class TaggedEvents {
  readonly #queue: Props[] = []
  readonly #fetching = new Set<number>()
  #failed = false

  constructor(
    private readonly tags: OrderTags,
    private readonly fetchCommands: FetchCommands,
    private readonly emit: (event: BrokerEvent) => void,
    private readonly fail: (reason: string) => void,
  ) {}

  receive(event: Props): void {
    if (event.entityType === 'command') this.tags.learn(event.entity)
    else this.#queue.push(event)
    this.#drain()
  }

  #drain(): void {
    while (!this.#failed && this.#queue.length > 0) {
      const head = this.#queue[0] as Props
      if (head.entityType === 'order' && this.tags.tagOf(head.entity) === undefined) {
        void this.#fetch(head.entity)
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

  async #fetch(order: unknown): Promise<void> {
    const [id] = this.tags.unknown([order])
    if (id === undefined || this.#fetching.has(id)) return
    this.#fetching.add(id)
    try {
      await this.tags.complete([order], this.fetchCommands)
    } catch (error) {
      // The command's own event may have brought the tag meanwhile.
      if (this.tags.tagOf(order) !== undefined) return this.#drain()
      if (this.#failed) return
      this.#failed = true
      this.#queue.length = 0
      return this.fail(`could not read the command of order ${id}: ${(error as Error).message}`.slice(0, 300))
    } finally {
      this.#fetching.delete(id)
    }
    this.#drain()
  }
}
