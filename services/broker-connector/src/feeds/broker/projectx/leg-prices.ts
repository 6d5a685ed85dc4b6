import { compare, parseDecimal } from '@signals/instruments'
import { int, isFields, num } from './mapping.ts'

/** The leg ProjectX placed for an entry: its `AutoBracket<entry id>-SL|TP` tag. */
const LEG_TAG = /^AutoBracket(\d+)-(SL|TP)$/
const OPEN = 1

/**
 * Keeps ProjectX's bracket legs at the absolute prices we asked for. ProjectX counts a leg's ticks from the
 * entry's fill, we counted them from the quote (a market entry) or the entry's price: a fill away from it
 * moves both legs by the difference. When a leg shows working at another price, it is moved back with one
 * `Order/modify` (per leg; never again, so a trader's own later move of it stands).
 */
export class LegPrices {
  /** Entry tag -> the stop and target asked for. */
  readonly #wanted = new Map<string, { stop: string; target: string | null }>()
  readonly #moved = new Set<number>()

  constructor(
    private readonly entryTagOf: (entryId: number) => string | null,
    private readonly move: (orderId: number, fields: { stopPrice?: number; limitPrice?: number }) => Promise<void>,
  ) {}

  want(tag: string, prices: { stop: string; target: string | null }): void {
    this.#wanted.set(tag, prices)
    // Bounded: entries whose legs never showed (refused, cancelled) are dropped oldest first.
    if (this.#wanted.size > 1_000) this.#wanted.delete(this.#wanted.keys().next().value as string)
  }

  /** A user-hub order event: a leg of an entry we priced, working at another price, is moved back. */
  seen(order: unknown): void {
    if (!isFields(order) || order.status !== OPEN || typeof order.customTag !== 'string') return
    const leg = LEG_TAG.exec(order.customTag)
    const id = int(order.id)
    if (!leg || id === null || this.#moved.has(id)) return
    const tag = this.entryTagOf(Number(leg[1]))
    const wanted = tag === null ? undefined : this.#wanted.get(tag)
    if (!wanted) return
    const stop = leg[2] === 'SL'
    const level = stop ? wanted.stop : wanted.target
    const current = num(stop ? order.stopPrice : order.limitPrice)
    if (level === null || current === null) return
    this.#moved.add(id)
    if (compare(parseDecimal(String(current)), parseDecimal(level)) === 0) return
    // A refusal leaves the leg where ProjectX put it (the fill's distance); the trader sees it on the account.
    void this.move(id, stop ? { stopPrice: Number(level) } : { limitPrice: Number(level) }).catch(() => undefined)
  }
}
