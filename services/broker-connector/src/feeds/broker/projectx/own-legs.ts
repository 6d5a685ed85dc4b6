import { BrokerError } from '../broker-adapter.ts'
import { int, isFields } from './mapping.ts'
import type { Answer } from './rest.ts'

/** The stop and target an entry sent without brackets gets from us once it fills (Position Brackets accounts). */
export interface OwnLegPlan {
  /** ProjectX's text contract id. */
  contractId: string
  /** OrderSide of the legs: the entry's opposite (0 buy, 1 sell). */
  side: 0 | 1
  stop: string
  target: string | null
}

type Call = (endpoint: string, body: object) => Promise<Answer>

/** OrderType: 1 Limit, 4 Stop. OrderStatus: 0 None, 1 Open, 6 Pending are live. */
const LEGS = [
  { suffix: '.sl', type: 4, field: 'stopPrice', level: (plan: OwnLegPlan) => plan.stop },
  { suffix: '.tp', type: 1, field: 'limitPrice', level: (plan: OwnLegPlan) => plan.target },
] as const
const LIVE: ReadonlySet<unknown> = new Set([0, 1, 6])
const REMEMBERED = 20_000

interface Leg {
  id: number
  size: number
  live: boolean
}

/**
 * The stop and target we place ourselves for an account whose settings refuse brackets on an order
 * (ProjectX's Position Brackets, or Auto OCO off: errorCode 2 "Brackets cannot be used with Position
 * Brackets"). The entry goes out without them; its first fill places the stop (`<tag>.sl`, Stop) and the
 * target (`<tag>.tp`, Limit) as separate orders sized to that fill, and each later fill of the entry grows
 * the legs still working by its size, so they never close more than was bought. Each fill counts once (by
 * its trade id), and the legs carry our tags as `customTag`, which ProjectX takes once per account: a
 * second sending of a leg (a reconnect, another instance) is refused by ProjectX, never placed twice.
 * ProjectX does not link the two: the trade keeper cancels the other leg when one closes the trade.
 * One per account, kept across its sessions (adapter.ts); `attach` gives it the current session's calls.
 */
export class OwnLegs {
  /** Set when ProjectX refused brackets on this account: later entries go without them at once. */
  refusesBrackets = false
  readonly #plans = new Map<string, OwnLegPlan>()
  readonly #legs = new Map<string, Leg>()
  readonly #trades = new Set<number>()
  #chain: Promise<void> = Promise.resolve()
  #call: Call | null = null
  #accountId = 0

  attach(call: Call, accountId: number): void {
    this.#call = call
    this.#accountId = accountId
  }

  /** The entry tagged `tag` (our seam tag) is sent without brackets: its fills get `plan`'s legs. */
  want(tag: string, plan: OwnLegPlan): void {
    this.#plans.set(tag, plan)
    if (this.#plans.size > 1_000) this.#plans.delete(this.#plans.keys().next().value as string)
  }

  /** A trade (a fill) of the account, with the tag of the order it filled: an entry's fill is covered. */
  traded(trade: unknown, entryTag: string | null): void {
    if (!isFields(trade) || trade.voided === true || entryTag === null) return
    const plan = this.#plans.get(entryTag)
    const id = int(trade.id)
    const size = int(trade.size)
    if (!plan || id === null || size === null || size <= 0 || this.#trades.has(id)) return
    this.#trades.add(id)
    if (this.#trades.size > REMEMBERED) this.#trades.delete(this.#trades.values().next().value as number)
    // One fill after another: the first places the legs, the next ones grow what it placed.
    this.#chain = this.#chain.then(() => this.#cover(entryTag, plan, size)).catch(() => undefined)
  }

  /** An order event of the account: one of our legs' size and state as ProjectX shows them. */
  seen(order: unknown): void {
    if (!isFields(order) || typeof order.customTag !== 'string') return
    const id = int(order.id)
    const size = int(order.size)
    const leg = /^(.+)\.(sl|tp)$/.exec(order.customTag)
    if (!leg || id === null || size === null || !this.#plans.has(leg[1] as string)) return
    this.#legs.set(order.customTag, { id, size, live: LIVE.has(order.status) })
  }

  async #cover(tag: string, plan: OwnLegPlan, size: number): Promise<void> {
    const call = this.#call
    if (call === null) return
    for (const leg of LEGS) {
      const level = leg.level(plan)
      if (level === null) continue
      const legTag = `${tag}${leg.suffix}`
      const known = this.#legs.get(legTag)
      if (known === undefined) {
        const body = { accountId: this.#accountId, contractId: plan.contractId, type: leg.type, side: plan.side, size, [leg.field]: Number(level), customTag: legTag }
        const answer = await sendOnce(() => call('Order/place', body))
        const orderId = answer === null ? null : int(answer.orderId)
        if (orderId !== null && !this.#legs.has(legTag)) this.#legs.set(legTag, { id: orderId, size, live: true })
      } else if (known.live) {
        // Grown by this fill only: what the trade keeper cut from the leg since (a part closed) stays cut.
        known.size += size
        await sendOnce(() => call('Order/modify', { accountId: this.#accountId, orderId: known.id, size: known.size }))
      }
    }
  }
}

/**
 * A leg's request, sent again once when its outcome is unknown: the leg's customTag makes a second
 * `Order/place` of one carried out a refusal, never a second leg. A refusal is final (the position's stop
 * coverage at the next reconciliation says what is missing).
 */
async function sendOnce(send: () => Promise<Answer>): Promise<Answer | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await send()
    } catch (error) {
      if (!(error instanceof BrokerError) || error.kind === 'rejected' || error.kind === 'credentials_refused') return null
    }
  }
  return null
}
