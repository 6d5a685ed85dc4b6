import type { Database, Kysely } from '@signals/db'
import type { Logger } from '../../shared/logger.ts'
import type { BrokerOrder, BrokerSession } from '../../feeds/broker/broker-adapter.ts'

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
