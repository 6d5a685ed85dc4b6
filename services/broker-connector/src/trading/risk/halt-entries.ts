import type { Database, Kysely } from '@signals/db'
import { BrokerError, isDone, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import { cancelQuietly } from '../positions/cancel-quietly.ts'
import { entryInFlight } from '../../repositories/position-discrepancies.ts'
import { entryRecordsOf, noteEntriesHalted } from '../../repositories/risk-halts.ts'

/**
 * Our entry orders still working on the session's account are cancelled, in every contract: a limit entry
 * in a contract none of our trades is in yet would otherwise fill after the halt and open a position again
 * (its suspended legs go with it). The records say why (`risk halt: <cause>; ...`). A BrokerError is the
 * caller's; the records of the orders cancelled before it say why all the same.
 */
async function cancelWorkingEntries(db: Kysely<Database>, session: BrokerSession, userId: string, cause: string): Promise<void> {
  const working = (await session.listOrders()).flatMap((order) => {
    const tag = parseOrderTag(order.tag)
    return tag?.leg === 'entry' && !isDone(order.status) ? [{ order, recordId: tag.recordId }] : []
  })
  if (working.length === 0) return
  const theirs = await entryRecordsOf(db, userId, working.map((entry) => entry.recordId))
  const cancelled: number[] = []
  try {
    for (const { order, recordId } of working) {
      if (theirs.has(recordId) && (await cancelQuietly(session, order.id))) cancelled.push(recordId)
    }
  } finally {
    await noteEntriesHalted(db, cancelled, `risk halt: ${cause.replace(/\.$/, '')}; the entry order was cancelled before it filled`)
  }
}

/**
 * What a halt (the risk watchdog's, a hard daily-loss refusal) does to the account's entries, and its
 * follow-up. An entry decided just before the halt may still be on its way to the broker (sent, its outcome
 * not known) when the working ones are cancelled, and be listed only later; so a halted account with an
 * entry on its way is looked at again on every watchdog pass until none is, and what is working then is
 * cancelled too. A broker failure leaves the account to the next pass. Kept by the instance holding the
 * session (a session gone ends it).
 */
export class HaltedEntries {
  readonly #pending = new Map<string, string>()

  constructor(private readonly deps: { db: Kysely<Database>; logger: Logger; sessions: SessionSource }) {}

  /** At the halt, with the session it acts with: the account's working entries cancelled now. */
  async halted(userId: string, session: BrokerSession, cause: string): Promise<void> {
    this.#pending.set(userId, cause)
    await this.#cancel(userId, session, cause)
  }

  /** Each watchdog pass: the halted accounts that had an entry on its way, with their current sessions. */
  async recheck(): Promise<void> {
    for (const [userId, cause] of [...this.#pending]) {
      const session = this.deps.sessions.session(userId)
      if (session) await this.#cancel(userId, session, cause)
      else this.#pending.delete(userId)
    }
  }

  async #cancel(userId: string, session: BrokerSession, cause: string): Promise<void> {
    // Read before the cancel: with nothing on its way now, every entry sent is in the broker's list.
    const onItsWay = await entryInFlight(this.deps.db, userId)
    try {
      await cancelWorkingEntries(this.deps.db, session, userId, cause)
      if (!onItsWay) this.#pending.delete(userId)
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      this.deps.logger.warn({ userId, kind: error.kind, reason: error.message }, 'working entry orders not cancelled at the halt; tried again on the next watchdog pass')
    }
  }
}
