import type { BrokerEvent } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { parseOrderTag } from './order-plan.ts'

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
  readonly #scheduled = new Set<number>()

  constructor(
    private readonly settle: (records: { id: number; userId: string }[]) => Promise<unknown>,
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
    if (id === undefined || this.#watched.get(id)?.userId !== userId || this.#scheduled.has(id)) return
    this.#scheduled.add(id)
    // After the events of this frame (the legs come with the entry), so one look finds the whole bracket.
    setImmediate(() => {
      this.settle([{ id, userId }])
        .catch((error: unknown) => this.logger.warn({ recordId: id, err: error }, 'order event for a record waiting on its outcome: not reconciled now (the sweep will)'))
        .finally(() => this.#scheduled.delete(id))
    })
  }

  /** Drops records watched longer than `keepMs`. */
  prune(): void {
    const now = Date.now()
    for (const [id, watched] of this.#watched) if (watched.until < now) this.#watched.delete(id)
  }
}
