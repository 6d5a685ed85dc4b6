import type { BrokerOrder, BrokerSession, PlacedBracket } from '../broker/broker-adapter.ts'

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

/** Asks the broker for the order a record may already have; null when none carries its tag. */
export async function findPlacedBracket(session: BrokerSession, tag: string): Promise<PlacedBracket | null> {
  return bracketByTag(await session.listOrders(), tag)
}
