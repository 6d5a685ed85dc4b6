import type { BrokerOrder, BrokerSession, PlacedBracket } from '../../feeds/broker/broker-adapter.ts'

/**
 * The bracket the broker holds under our tag, or null when it holds none. Legs are found by their own
 * tags (`.sl`, `.tp`); a leg the broker lists without its tag keeps a null id rather than a guessed one.
 */
export function bracketByTag(orders: readonly BrokerOrder[], tag: string): PlacedBracket | null {
  const entry = orders.find((order) => order.tag === tag)
  if (!entry) return null
  const byTag = (suffix: string) => orders.find((order) => order.tag === `${tag}${suffix}`)?.id ?? null
  return { entryOrderId: entry.id, stopOrderId: byTag('.sl'), targetOrderId: byTag('.tp') }
}

/**
 * The broker's order list, asked once per session and batch: every record of a user settled together is
 * looked up in the same list (a session open, a sweep). A failed request is asked again next time.
 */
export class BrokerOrdersMemo {
  readonly #lists = new Map<BrokerSession, Promise<BrokerOrder[]>>()

  /** The bracket the broker holds under `tag`, or null when it lists none. */
  async bracket(session: BrokerSession, tag: string): Promise<PlacedBracket | null> {
    let list = this.#lists.get(session)
    if (!list) {
      list = session.listOrders()
      this.#lists.set(session, list)
      list.catch(() => this.#lists.delete(session))
    }
    return bracketByTag(await list, tag)
  }
}
