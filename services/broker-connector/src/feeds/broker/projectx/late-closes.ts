import { lateCloseTagOf } from '../broker-adapter.ts'
import { int } from './mapping.ts'

/** OrderType 2: Market, as ProjectX places a partial close. */
const MARKET = 2
/** How long a late close sent is looked for among the account's untagged orders (the hub, REST, a lost session's next snapshot). */
const SEEN_WITHIN_MS = 60_000
const REMEMBERED = 20_000

interface Due {
  tag: string
  contractId: string
  side: 0 | 1
  size: number
  until: number
}

/**
 * The orders of our late closes (own-legs.ts: an entry's contracts filled after its legs were done, closed with
 * `Position/partialCloseContract`), named `<entry tag>.late` so the trade keeper gives their fills to the
 * entry's record's trade alone: first in, first out they would cut another record's trade the broker still
 * holds. ProjectX's partialCloseContract takes no tag and answers without the order's id, so a close is noted
 * due just before it goes, and the first untagged Market order of its contract, side and size seen within a
 * minute is taken as its order (known by its id from then on). One per account, kept across its sessions.
 */
export class LateCloses {
  readonly #due: Due[] = []
  readonly #tags = new Map<number, string>()

  /** A close of `size` contracts for the plan `tag` is about to go; the returned call withdraws it (certainly not placed). */
  due(close: { tag: string; contractId: string; side: 0 | 1 }, size: number): () => void {
    const now = Date.now()
    for (let i = this.#due.length - 1; i >= 0; i--) if ((this.#due[i] as Due).until < now) this.#due.splice(i, 1)
    const due: Due = { tag: close.tag, contractId: close.contractId, side: close.side, size, until: now + SEEN_WITHIN_MS }
    this.#due.push(due)
    return () => {
      const at = this.#due.indexOf(due)
      if (at >= 0) this.#due.splice(at, 1)
    }
  }

  /** The tag an untagged order of the account (ProjectX's fields) is reported under when it is one of our late closes, else null. */
  tagOf(order: Record<string, unknown>): string | null {
    const id = int(order.id)
    if (id === null) return null
    const known = this.#tags.get(id)
    if (known !== undefined || order.type !== MARKET) return known ?? null
    const now = Date.now()
    const at = this.#due.findIndex((due) => due.until >= now && due.contractId === order.contractId && due.side === order.side && due.size === int(order.size))
    if (at < 0) return null
    const tag = lateCloseTagOf((this.#due.splice(at, 1)[0] as Due).tag)
    this.#tags.set(id, tag)
    if (this.#tags.size > REMEMBERED) this.#tags.delete(this.#tags.keys().next().value as number)
    return tag
  }
}
