import type { BrokerEvent } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { parseOrderTag } from './order-plan.ts'
import type { RecordOutcome } from './settle-records.ts'

/**
 * Looks again at a record another holder had locked, or whose user's session is being opened here, at most
 * (about 7 s in all: an open ends with a reconciliation's reads).
 */
const LOOKS_WHILE_HELD = 12

interface Watched {
  userId: string
  until: number
}

/**
 * Records this instance left waiting on an unknown outcome (or failed "outcome unknown"): an order event
 * under one of their tags (the entry or a leg) has the record reconciled by its tag at once, rather than at
 * the sweep's next pass. Memory only: after a restart the session-open reconciliation looks for them by
 * their tags and watches those still without an order again (and the sweep settles the `placing` ones).
 */
export class OutcomeWatch {
  readonly #watched = new Map<number, Watched>()
  /** Records with a look on its way; `again`: an order event or a recheck came since that look began. */
  readonly #scheduled = new Map<number, { again: boolean }>()

  constructor(
    private readonly settle: (records: { id: number; userId: string }[]) => Promise<readonly RecordOutcome[]>,
    private readonly logger: Logger,
    /** How long a record is watched (a late order is still recorded within this time). */
    private readonly keepMs: number,
  ) {}

  watch(id: number, userId: string): void {
    if (!this.#watched.has(id)) this.#watched.set(id, { userId, until: Date.now() + this.keepMs })
  }

  forget(id: number): void {
    this.#watched.delete(id)
  }

  /** Records watched now (tests, diagnostics). */
  get size(): number {
    return this.#watched.size
  }

  onEvent(userId: string, event: BrokerEvent): void {
    if (event.type !== 'order') return
    const id = parseOrderTag(event.order.tag)?.recordId
    if (id === undefined || this.#watched.get(id)?.userId !== userId) return
    this.#settleSoon(id, userId)
  }

  /**
   * One more look by its tag, for a record just failed "outcome unknown": its order may have landed while
   * the look that failed it was on its way, its event come before the record was watched (or met the
   * look's lock on the record). A look after the failure is written lists it; a later order's event is watched.
   */
  recheck(id: number, userId: string): void {
    this.watch(id, userId)
    this.#settleSoon(id, userId)
  }

  #settleSoon(id: number, userId: string): void {
    const underWay = this.#scheduled.get(id)
    if (underWay) {
      underWay.again = true
      return
    }
    this.#scheduled.set(id, { again: false })
    // After the events of this frame (the legs come with the entry), so one look finds the whole bracket.
    setImmediate(() => void this.#look(id, userId, 0))
  }

  /**
   * Looks for the record's order by its tag; a record another holder has locked (the look that is failing
   * it, whose lock is let go just after), or whose user's session is not handed out yet, is looked at again
   * shortly, a few times. An order event (or a
   * recheck) that came while the look was on its way is looked at once more after it, if the record is still
   * watched: the look's list may predate that order.
   */
  async #look(id: number, userId: string, tries: number): Promise<void> {
    const look = this.#scheduled.get(id)
    if (look) look.again = false
    const outcomes = await this.settle([{ id, userId }]).catch((error: unknown): readonly RecordOutcome[] => {
      this.logger.warn({ recordId: id, err: error }, 'order event for a record waiting on its outcome: not reconciled now (the sweep will)')
      return []
    })
    if (outcomes.includes('retry') && tries < LOOKS_WHILE_HELD) {
      setTimeout(() => void this.#look(id, userId, tries + 1), Math.min(100 * (tries + 1), 1_000))
      return
    }
    this.#scheduled.delete(id)
    if (look?.again === true && this.#watched.get(id)?.userId === userId) this.#settleSoon(id, userId)
  }

  /** Drops records watched longer than `keepMs`. */
  prune(): void {
    const now = Date.now()
    for (const [id, watched] of this.#watched) if (watched.until < now) this.#watched.delete(id)
  }
}
