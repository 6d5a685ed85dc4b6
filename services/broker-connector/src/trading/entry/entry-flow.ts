import type { NormalizedAlert } from '@signals/contracts'
import { RetryLaterError } from '@signals/bus'
import type { BrokerEvent, BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { NewAlertRecordRef } from '../../repositories/alerts.ts'
import { reconcilableRecordIds, strandedRecords } from '../../repositories/entry-records.ts'
import { settleRecords, type RecordOutcome, type SettleDeps } from './settle-records.ts'
import { OutcomeWatch } from './outcome-watch.ts'

/** A delivery of the alert message being handed off. */
export interface Delivery {
  /** Told after each slice of a large hand-off settled: the message is still being worked on (not redelivered meanwhile). */
  working?: () => void
}

/**
 * The seam between alert intake and order placement (spec: "continues into a live entry flow").
 * The connector hands every new live record of an entry alert to `handOff`, at least once; an
 * implementation must therefore claim each record so a record handed over twice (redelivery, a second
 * instance) is acted on once. A rejection asks for the message to come back later. Whether a record still
 * waits or fails is decided by its age (entry/wait-limit.ts), never by which delivery of the message this is.
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
  forward(owner: string, records: readonly RecordRef[]): Promise<RecordOutcome[]>
}

/**
 * Records are waiting for a broker session or answer: the message is delivered again after a delay, never
 * dead-lettered for it (a RetryLaterError); the records' age ends the wait.
 */
class EntryRetryError extends RetryLaterError {
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
  readonly #watch: OutcomeWatch
  readonly #options: SettleDeps

  constructor(
    options: Omit<SettleDeps, 'watch'>,
    private readonly router: EntryRouter | null = null,
  ) {
    // A late order is still recorded while watched: the grace, and an hour beyond a failure.
    this.#watch = new OutcomeWatch((records) => this.settle(records), options.logger, options.outcomeGraceMs + 60 * 60_000)
    this.#options = { ...options, watch: this.#watch }
  }

  /** Settles records with this instance's sessions (also for records another instance forwarded here). */
  settle(records: readonly RecordRef[], onSlice?: () => void): Promise<RecordOutcome[]> {
    return settleRecords(this.#options, records, onSlice)
  }

  async handOff(_alert: NormalizedAlert, records: readonly NewAlertRecordRef[], delivery: Delivery = {}): Promise<void> {
    const outcomes: RecordOutcome[] = this.router ? await this.#routed(this.router, records, delivery) : await this.settle(records, delivery.working)
    const waiting = outcomes.filter((outcome) => outcome === 'retry').length
    if (waiting > 0) throw new EntryRetryError(waiting)
  }

  /**
   * Records of users whose feeds another instance holds go to it. When it does not answer (killed, or
   * its shard is moving) they are settled here, without their session: younger than the wait limit they
   * wait for the message to come back, older they fail with the reason (no session). Record locks keep
   * each to one holder.
   */
  async #routed(router: EntryRouter, records: readonly RecordRef[], { working }: Delivery): Promise<RecordOutcome[]> {
    const { local, remote } = await router.route(records)
    const parts = await Promise.all([
      this.settle(local, working),
      ...remote.map(({ owner, records: theirs }) =>
        router.forward(owner, theirs).catch((error: unknown): Promise<RecordOutcome[]> => {
          this.#options.logger.warn({ owner, records: theirs.length, err: error }, 'entry records not settled by the owner of their feeds; retried later')
          return this.settle(theirs)
        }),
      ),
    ])
    return parts.flat()
  }

  /**
   * On every session open (before the feed reports `connected`): each of the user's records whose order
   * may be at the broker (left `placing`, or failed "outcome unknown" lately) is looked for by its tag;
   * nothing is sent for them. Returns how many were looked at.
   */
  async reconcileUser(userId: string, session: BrokerSession): Promise<number> {
    const ids = await reconcilableRecordIds(this.#options.db, userId)
    // The session is not yet the feed's current one (it is handed over after this): use it directly.
    const deps: SettleDeps = { ...this.#options, sessions: { session: (id) => (id === userId ? session : this.#options.sessions.session(id)) } }
    await settleRecords(deps, ids.map((id) => ({ id, userId })))
    if (ids.length > 0) this.#options.logger.info({ userId, records: ids.length }, 'records whose order may be at the broker were reconciled with it')
    return ids.length
  }

  /** Every event of a user's session: an order under the tag of a record waiting on its outcome settles it. */
  onEvent(userId: string, event: BrokerEvent): void {
    this.#watch.onEvent(userId, event)
  }

  /**
   * One pass of the sweep: records left `received` past `receivedAfterMs` or left `placing` (their
   * holder gone, or waiting on an unknown outcome) are settled here when this instance holds their users'
   * feeds or nobody does (each owner sweeps its own); past the wait limit by then, nothing stays unsettled.
   * Returns how many records were settled or still wait.
   */
  async sweep(receivedAfterMs: number, limit = 1_000): Promise<number> {
    this.#watch.prune()
    const stranded = await strandedRecords(this.#options.db, receivedAfterMs, limit)
    if (stranded.length === 0) return 0
    const local = this.router ? (await this.router.route(stranded)).local : stranded
    const outcomes = await this.settle(local)
    const settled = outcomes.filter((outcome) => outcome === 'settled').length
    if (settled > 0) this.#options.logger.info({ settled, waiting: outcomes.length - settled }, 'sweep: entry records left unsettled were settled')
    return outcomes.length
  }
}
