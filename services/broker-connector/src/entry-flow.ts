import type { NormalizedAlert } from '@signals/contracts'
import type { BrokerSession } from './broker/broker-adapter.ts'
import type { NewAlertRecordRef } from './repositories/alerts.ts'
import { placingRecordIds } from './repositories/entry-records.ts'
import { placeRecord, type PlaceDeps, type RecordOutcome } from './entry/place-record.ts'

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

/** Records are waiting for a broker session or answer: the message is delivered again after a delay. */
export class EntryRetryError extends Error {
  constructor(readonly waiting: number) {
    super(`${waiting} alert record(s) wait for a broker session or answer; retried later`)
    this.name = 'EntryRetryError'
  }
}

export interface LiveEntryFlowOptions extends PlaceDeps {
  /** Records decided at once by this instance; one user's records go one after another (sizing sees the previous one). */
  concurrency: number
}

/** At most `limit` tasks at once across every caller (each task holds a database connection). */
class Lanes {
  #free: number
  readonly #waiting: (() => void)[] = []
  constructor(limit: number) {
    this.#free = limit
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--
    else await new Promise<void>((resolve) => this.#waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = this.#waiting.shift()
      if (next) next()
      else this.#free++
    }
  }
}

/**
 * DESIGN decision 16: each record of a live user is sized by the risk engine and placed as a bracket
 * through the user's broker session, its outcome written on the record (entry/place-record.ts).
 */
export class LiveEntryFlow implements EntryFlow {
  readonly #lanes: Lanes

  constructor(private readonly options: LiveEntryFlowOptions) {
    this.#lanes = new Lanes(options.concurrency)
  }

  async handOff(_alert: NormalizedAlert, records: readonly NewAlertRecordRef[], delivery: Delivery = { lastAttempt: false }): Promise<void> {
    const byUser = new Map<string, number[]>()
    for (const record of records) byUser.set(record.userId, [...(byUser.get(record.userId) ?? []), record.id])
    const outcomes: RecordOutcome[] = []
    const failures: unknown[] = []
    await Promise.all(
      [...byUser.values()].map(async (ids) => {
        for (const id of ids) {
          await this.#lanes
            .run(() => placeRecord(this.options, id, delivery.lastAttempt))
            .then((outcome) => outcomes.push(outcome), (error: unknown) => failures.push(error))
        }
      }),
    )
    if (failures.length > 0) throw failures[0]
    const waiting = outcomes.filter((outcome) => outcome === 'retry').length
    if (waiting > 0) throw new EntryRetryError(waiting)
  }

  /**
   * On every session open (before the feed reports `connected`): each of the user's records left in
   * `placing` is settled, asking the broker by tag before anything is sent. Returns how many were looked at.
   */
  async reconcileUser(userId: string, session: BrokerSession): Promise<number> {
    const ids = await placingRecordIds(this.options.db, userId)
    // The session is not yet the feed's current one (it is handed over after this): use it directly.
    const deps: PlaceDeps = { ...this.options, sessions: { session: (id) => (id === userId ? session : this.options.sessions.session(id)) } }
    for (const id of ids) await this.#lanes.run(() => placeRecord(deps, id, false))
    if (ids.length > 0) this.options.logger.info({ userId, records: ids.length }, 'records left placing were reconciled with the broker')
    return ids.length
  }
}
