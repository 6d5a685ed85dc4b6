import type { Database, Kysely } from '@signals/db'
import type { Logger } from '../../shared/logger.ts'
import { isDone, type BrokerOrder, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'

/** What the trade keeper hands over: the user's session and which of its orders still work. */
export interface TargetContext {
  db: Kysely<Database>
  logger: Logger
  userId: string
  session: BrokerSession
  /** True while the broker last told the order is working (the keeper's book). */
  isLive(orderId: number): boolean
  /** The orders of the keeper's book (the broker's events so far). */
  orders(): Iterable<BrokerOrder>
}

/**
 * A context over the broker's orders as listed now (not the keeper's book, which may lag behind an order just
 * placed): for the runs outside the keeper (a partial close) and the checks that must see what the broker
 * has. Nothing is logged through it.
 */
export function listedContext(db: Kysely<Database>, session: BrokerSession, userId: string, listed: readonly BrokerOrder[]): TargetContext {
  const working = new Map(listed.map((order) => [order.id, order]))
  return {
    db,
    logger: { info: () => undefined, warn: () => undefined },
    userId,
    session,
    isLive: (orderId) => { const order = working.get(orderId); return order !== undefined && !isDone(order.status) },
    orders: () => working.values(),
  }
}
