import { lateCloseTagOf } from '../broker-adapter.ts'
import { int } from './mapping.ts'

/** OrderType 2: Market, as ProjectX places a partial close. */
const MARKET = 2
/**
 * The order of a close sent at `sentAt` (our clock) was created by ProjectX from `sentAt - SKEW_MS` to
 * `sentAt + CREATED_WITHIN_MS` (its clock). The skew allows for the two clocks (a few seconds); the window
 * for a slow answer. It is the order's creation time that counts, not when it is seen: a hub gap or a
 * restart before its events does not lose it.
 */
const SKEW_MS = 5_000
const CREATED_WITHIN_MS = 60_000
/** A close whose order was not seen is forgotten after the sessions' look-back (a day): no list shows it. */
const KEPT_MS = 24 * 3_600_000
const REMEMBERED = 20_000

/** A late close sent (own-legs.ts), kept (own_leg_late_closes) until its order is taken for it. */
export interface LateClose {
  tag: string
  contractId: string
  side: 0 | 1
  size: number
  sentAt: Date
}

/**
 * The orders of our late closes (own-legs.ts: an entry's contracts filled after its legs were done, closed with
 * `Position/partialCloseContract`), named `<entry tag>.late` so the trade keeper gives their fills to the
 * entry's record's trade alone: first in, first out they would cut another record's trade the broker still
 * holds. ProjectX's partialCloseContract takes no tag and answers without the order's id, so a close is noted
 * due (and kept in Postgres) just before it goes, and the first untagged Market order of its contract, side and
 * size created since it was sent (`SKEW_MS`) and never seen before it was noted is taken as its order: known by
 * its id from then on, and kept (`named`) so the next instance names it too. One per account, kept across its
 * sessions; a session open loads the account's kept closes (`load`) before its snapshot is mapped.
 */
export class LateCloses {
  readonly #due: LateClose[] = []
  readonly #tags = new Map<number, string>()
  /** Untagged Market orders seen and not taken: an older order of a close's shape is never taken for it. */
  readonly #seen = new Set<number>()
  /** Closes whose order was taken here: loaded again (its id not kept yet), not looked for twice. */
  readonly #taken = new Set<string>()

  /** `named`: told the order taken for a close (kept, so every later list and the next instance name it). */
  constructor(private readonly named: (close: LateClose, orderId: number) => void = () => undefined) {}

  /** A close is about to go (kept first); the returned call withdraws it (certainly not placed). */
  due(close: LateClose): () => void {
    this.#prune()
    this.#due.push(close)
    return () => {
      const at = this.#due.indexOf(close)
      if (at >= 0) this.#due.splice(at, 1)
    }
  }

  /** The account's kept closes (a session open): those with an order are named by it, the others looked for. */
  load(closes: readonly (LateClose & { orderId: number | null })[]): void {
    for (const { orderId, ...close } of closes) {
      if (orderId !== null) this.#name(orderId, close.tag)
      else if (!this.#taken.has(keyOf(close)) && !this.#due.some((due) => keyOf(due) === keyOf(close))) this.#due.push(close)
    }
    this.#prune()
  }

  /** The tag an untagged order of the account (ProjectX's fields) is reported under when it is one of our late closes, else null. */
  tagOf(order: Record<string, unknown>): string | null {
    const id = int(order.id)
    if (id === null) return null
    const known = this.#tags.get(id)
    if (known !== undefined || order.type !== MARKET || this.#seen.has(id)) return known ?? null
    const created = typeof order.creationTimestamp === 'string' ? Date.parse(order.creationTimestamp) : NaN
    // Not known when it was created (not seen so): not taken, and looked at again when listed with it.
    if (Number.isNaN(created)) return null
    const at = this.#due.findIndex((due) => fits(due, order, created))
    if (at < 0) {
      this.#seen.add(id)
      if (this.#seen.size > REMEMBERED) this.#seen.delete(this.#seen.values().next().value as number)
      return null
    }
    const close = this.#due.splice(at, 1)[0] as LateClose
    this.#taken.add(keyOf(close))
    if (this.#taken.size > REMEMBERED) this.#taken.delete(this.#taken.values().next().value as string)
    this.named(close, id)
    return this.#name(id, close.tag)
  }

  #name(id: number, entryTag: string): string {
    const tag = lateCloseTagOf(entryTag)
    this.#tags.set(id, tag)
    if (this.#tags.size > REMEMBERED) this.#tags.delete(this.#tags.keys().next().value as number)
    return tag
  }

  #prune(): void {
    const oldest = Date.now() - KEPT_MS
    for (let i = this.#due.length - 1; i >= 0; i--) if ((this.#due[i] as LateClose).sentAt.getTime() < oldest) this.#due.splice(i, 1)
  }
}

const keyOf = (close: LateClose): string => `${close.tag}\n${close.sentAt.getTime()}`

/** The order is of the close's contract, side and size, created since it was sent (a few seconds' skew allowed). */
function fits(due: LateClose, order: Record<string, unknown>, created: number): boolean {
  const sent = due.sentAt.getTime()
  return due.contractId === order.contractId && due.side === order.side && due.size === int(order.size) && created >= sent - SKEW_MS && created <= sent + CREATED_WITHIN_MS
}
