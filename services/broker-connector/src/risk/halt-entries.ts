import type { Database, Kysely } from '@signals/db'
import { isDone, type BrokerSession } from '../broker/broker-adapter.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import { cancelQuietly } from '../positions/carry-out.ts'
import { entryRecordsOf, noteEntriesHalted } from '../repositories/risk-halts.ts'

/**
 * A halt cancels our entry orders still working on the session's account, in every contract: a limit entry
 * in a contract none of our trades is in yet would otherwise fill after the halt and open a position again
 * (its suspended legs go with it). The records say why (`risk halt: <cause>; ...`). Returns how many were
 * cancelled; a BrokerError is the caller's.
 */
export async function cancelEntriesOnHalt(db: Kysely<Database>, session: BrokerSession, userId: string, cause: string): Promise<number> {
  const working = (await session.listOrders()).flatMap((order) => {
    const tag = parseOrderTag(order.tag)
    return tag?.leg === 'entry' && !isDone(order.status) ? [{ order, recordId: tag.recordId }] : []
  })
  if (working.length === 0) return 0
  const theirs = await entryRecordsOf(db, userId, working.map((entry) => entry.recordId))
  const cancelled: number[] = []
  try {
    for (const { order, recordId } of working) {
      if (theirs.has(recordId) && (await cancelQuietly(session, order.id))) cancelled.push(recordId)
    }
  } finally {
    // Those cancelled before a broker failure say so all the same.
    await noteEntriesHalted(db, cancelled, `risk halt: ${cause.replace(/\.$/, '')}; the entry order was cancelled before it filled`)
  }
  return cancelled.length
}
