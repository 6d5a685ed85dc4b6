import type { NormalizedAlert } from '@signals/contracts'
import type { BrokerSession } from './broker/broker-adapter.ts'
import type { NewAlertRecordRef } from './repositories/alerts.ts'
import { placingRecordIds } from './repositories/entry-records.ts'
import { settleRecords, type RecordOutcome, type SettleDeps } from './entry/settle-records.ts'

/** Which delivery of the alert message this is: on the last one nothing is left waiting to be retried. */
export interface Delivery {
  lastAttempt: boolean
}

/**
 * The seam between alert intake and order placement (spec: "continues into a live entry flow").
 * The connector hands every new live record of an entry alert to `handOff`, at least once; an
 * implementation must therefore claim each record so a record handed over twice (redelivery, a second
 * instance) is acted on once. A rejection asks for the message to come back later.
 */
export interface EntryFlow {
  handOff(alert: NormalizedAlert, records: readonly NewAlertRecordRef[], delivery?: Delivery): Promise<void>
}

export interface RecordRef {
  id: number
  userId: string
}

/**
 * Where records are settled when several connector instances share the users' feeds: here (users whose
 * shard this instance holds, or nobody does) or at the instance holding their feeds.
 */
export interface EntryRouter {
  route(records: readonly RecordRef[]): Promise<{ local: RecordRef[]; remote: { owner: string; records: RecordRef[] }[] }>
  /** Settles records at their owner; throws when it does not answer (the records then wait). */
  forward(owner: string, records: readonly RecordRef[], lastAttempt: boolean): Promise<RecordOutcome[]>
}

/** Records are waiting for a broker session or answer: the message is delivered again after a delay. */
class EntryRetryError extends Error {
  constructor(readonly waiting: number) {
    super(`${waiting} alert record(s) wait for a broker session or answer; retried later`)
    this.name = 'EntryRetryError'
  }
}

/**
 * DESIGN decision 16: each record of a live user is sized by the risk engine and placed as a bracket
 * through the user's broker session, its outcome written on the record (entry/settle-records.ts, entry/plan-record.ts).
 */
export class LiveEntryFlow implements EntryFlow {
  constructor(
    private readonly options: SettleDeps,
    private readonly router: EntryRouter | null = null,
  ) {}

  /** Settles records with this instance's sessions (also for records another instance forwarded here). */
  settle(records: readonly RecordRef[], lastAttempt: boolean): Promise<RecordOutcome[]> {
    return settleRecords(this.options, records, lastAttempt)
  }

  async handOff(_alert: NormalizedAlert, records: readonly NewAlertRecordRef[], delivery: Delivery = { lastAttempt: false }): Promise<void> {
    const outcomes: RecordOutcome[] = this.router ? await this.#routed(this.router, records, delivery.lastAttempt) : await this.settle(records, delivery.lastAttempt)
    const waiting = outcomes.filter((outcome) => outcome === 'retry').length
    if (waiting > 0) throw new EntryRetryError(waiting)
  }

  /**
   * Records of users whose feeds another instance holds go to it. When it does not answer (killed, or
   * its shard is moving) they wait for the message to come back; on the last delivery they are settled
   * here, which fails them with the reason (no session). Record locks keep each to one holder.
   */
  async #routed(router: EntryRouter, records: readonly RecordRef[], lastAttempt: boolean): Promise<RecordOutcome[]> {
    const { local, remote } = await router.route(records)
    const parts = await Promise.all([
      this.settle(local, lastAttempt),
      ...remote.map(({ owner, records: theirs }) =>
        router.forward(owner, theirs, lastAttempt).catch((error: unknown): Promise<RecordOutcome[]> | RecordOutcome[] => {
          this.options.logger.warn({ owner, records: theirs.length, err: error }, 'entry records not settled by the owner of their feeds; retried later')
          return lastAttempt ? this.settle(theirs, true) : theirs.map(() => 'retry')
        }),
      ),
    ])
    return parts.flat()
  }

  /**
   * On every session open (before the feed reports `connected`): each of the user's records left in
   * `placing` is settled, asking the broker by tag before anything is sent. Returns how many were looked at.
   */
  async reconcileUser(userId: string, session: BrokerSession): Promise<number> {
    const ids = await placingRecordIds(this.options.db, userId)
    // The session is not yet the feed's current one (it is handed over after this): use it directly.
    const deps: SettleDeps = { ...this.options, sessions: { session: (id) => (id === userId ? session : this.options.sessions.session(id)) } }
    await settleRecords(deps, ids.map((id) => ({ id, userId })), false)
    if (ids.length > 0) this.options.logger.info({ userId, records: ids.length }, 'records left placing were reconciled with the broker')
    return ids.length
  }
}
