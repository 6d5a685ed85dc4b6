import { BrokerError, outcomeUnknown } from '../broker-adapter.ts'
import { int, isFields, num } from './mapping.ts'
import type { Answer } from './rest.ts'
import type { UserHubTarget } from './user-events.ts'

type Fields = Record<string, unknown>

/** OrderStatus 2 Filled, 3 Cancelled, 4 Expired, 5 Rejected: an order that changes no more. */
const DONE_STATUSES: ReadonlySet<unknown> = new Set([2, 3, 4, 5])
/** OrderType 2: Market. */
const MARKET = 2

/**
 * What the hub must have shown before the state answers a read: the effect of one of the session's own
 * requests (an order placed, changed or cancelled, a position closed), or the order of a fill received
 * before it. Met by an event received after `since` (the state's event count when the request left).
 */
type Due =
  | { kind: 'order'; orderId: number; since: number; done: boolean }
  | { kind: 'tag'; customTag: string; since: number }
  | { kind: 'position'; contractId: string; since: number }

/** The snapshot's REST answers a state is seeded with. */
export interface Seed {
  orders: readonly unknown[]
  trades: readonly unknown[]
  positions: readonly unknown[]
  balance: number | null
}

/**
 * The session account's orders, trades (fills), open positions and balance as ProjectX's records, kept from
 * the user hub's events on top of the snapshot's REST reads (docs/decisions/projectx-adapter.md, "Reads
 * from the hub's state"). Events received before the seed are applied after it, in their order, so none is
 * lost between subscription and snapshot. A read is answered from here once `settled`: seeded, and every
 * request of the session's seen through on the hub (waited for at most `waitMs`; past it the caller reads
 * REST, which covers them).
 */
export class UserState {
  #accountId: number | null = null
  readonly #early: { target: UserHubTarget; data: Fields }[] = []
  readonly #orders = new Map<number, { record: Fields; seq: number }>()
  readonly #trades = new Map<number, Fields>()
  readonly #positions = new Map<string, Fields>()
  readonly #positionSeq = new Map<string, number>()
  #balance: number | null = null
  #seq = 0
  /** The session's requests that change the account, sent and not answered yet. */
  #inFlight = 0
  readonly #due: Due[] = []
  /** The dues the hub did not show within `waitMs`, with when: reads go to REST, without waiting, until it shows them. */
  readonly #overdue = new Map<Due, number>()
  readonly #waiters = new Set<() => void>()

  /**
   * `waitMs`: how long a read waits for the hub to show the session's requests. `lagLimitMs`: how long a due
   * the hub has not shown keeps reads on REST (an unknown outcome that never reached the broker is never shown).
   */
  constructor(
    private readonly waitMs: number,
    private readonly lagLimitMs = 60_000,
  ) {}

  get seeded(): boolean {
    return this.#accountId !== null
  }

  /** The snapshot's answers, then every event received since the subscription, in order. */
  seed(accountId: number, seed: Seed): void {
    for (const order of seed.orders) if (isFields(order)) this.#keepOrder(order)
    for (const trade of seed.trades) if (isFields(trade) && int(trade.id) !== null) this.#trades.set(int(trade.id) as number, trade)
    for (const position of seed.positions) if (isFields(position)) this.#keepPosition(position)
    this.#balance = seed.balance
    this.#accountId = accountId
    for (const { target, data } of this.#early.splice(0)) this.#apply(target, data)
    this.#check()
  }

  receive(target: UserHubTarget, data: Fields): void {
    if (this.#accountId === null) {
      this.#early.push({ target, data })
      return
    }
    this.#apply(target, data)
    this.#check()
  }

  /**
   * A request that may change the account is sent: reads wait for its answer (at most `waitMs`), then for
   * what the hub must show of it. Returns the state's event count now: an event counted after it may be the request's.
   */
  sending(): number {
    this.#inFlight++
    return this.#seq
  }

  /**
   * The request sent at `since` answered (`answer`), refused (`refused`: it changed nothing) or with its
   * outcome unknown (null): what the hub must show of it before a read answers from the state.
   */
  wrote(endpoint: string, body: Fields, answer: Fields | null | 'refused', since: number): void {
    this.#inFlight--
    if (answer !== 'refused') this.#expect(endpoint, body, answer, since)
    this.#check()
  }

  #expect(endpoint: string, body: Fields, answer: Fields | null, since: number): void {
    const orderId = int(body.orderId)
    if (endpoint === 'Order/place') {
      const placed = answer === null ? null : int(answer.orderId)
      if (placed !== null) this.#due.push({ kind: 'order', orderId: placed, since, done: body.type === MARKET })
      else if (typeof body.customTag === 'string') this.#due.push({ kind: 'tag', customTag: body.customTag, since })
    } else if ((endpoint === 'Order/cancel' || endpoint === 'Order/modify') && orderId !== null) {
      this.#due.push({ kind: 'order', orderId, since, done: endpoint === 'Order/cancel' })
    } else if ((endpoint === 'Position/closeContract' || endpoint === 'Position/partialCloseContract') && typeof body.contractId === 'string') {
      this.#due.push({ kind: 'position', contractId: body.contractId, since })
    }
  }

  /**
   * Resolves with true once a read may answer from the state, or false (the caller reads REST) while the hub
   * has not shown what it must after `waitMs`, or the state is not seeded. A due the hub missed keeps reads
   * on REST, without another wait, until the hub shows it (at most `lagLimitMs`): the state lags the broker
   * that long, and a read after a REST one must not go back in time.
   */
  async settled(): Promise<boolean> {
    if (!this.seeded) return false
    this.#check()
    if (this.#settled()) return true
    if (!this.#waiting()) return false
    const met = await new Promise<boolean>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.#waiters.delete(done)
        resolve(true)
      }
      const timer = setTimeout(() => {
        this.#waiters.delete(done)
        resolve(false)
      }, this.waitMs)
      this.#waiters.add(done)
    })
    // Only requests still on their way: their outcome is not known at the broker either, a REST read would
    // race them as this one does, so the state answers (a slow broker is not asked for more). Else the caller's
    // REST read is made after every one the hub has not shown yet: it answers for them all.
    if (this.#due.length === 0) return true
    if (!met) for (const due of this.#due) if (!this.#overdue.has(due)) this.#overdue.set(due, Date.now())
    return false
  }

  /** The orders created since `since` (ms), and older ones still working (a GTC leg). */
  orders(since: number): Fields[] {
    const kept: Fields[] = []
    for (const [id, { record }] of this.#orders) {
      if (DONE_STATUSES.has(record.status) && Date.parse(String(record.creationTimestamp)) < since) this.#orders.delete(id)
      else kept.push(record)
    }
    return kept
  }

  /** The trades made since `since` (ms). */
  trades(since: number): Fields[] {
    const kept: Fields[] = []
    for (const [id, trade] of this.#trades) {
      if (Date.parse(String(trade.creationTimestamp)) < since) this.#trades.delete(id)
      else kept.push(trade)
    }
    return kept
  }

  positions(): Fields[] {
    return [...this.#positions.values()]
  }

  balance(): number | null {
    return this.#balance
  }

  #apply(target: UserHubTarget, data: Fields): void {
    if (target === 'GatewayUserAccount') {
      const balance = num(data.balance)
      if (int(data.id) === this.#accountId && balance !== null) this.#balance = balance
      return
    }
    if (int(data.accountId) !== this.#accountId) return
    this.#seq++
    if (target === 'GatewayUserOrder') this.#keepOrder(data)
    else if (target === 'GatewayUserPosition') this.#keepPosition(data)
    else {
      const id = int(data.id)
      const orderId = int(data.orderId)
      if (id !== null) this.#trades.set(id, data)
      // A fill can overtake its order's event: a read waits for the order as it would have been asked for.
      if (orderId !== null && !this.#orders.has(orderId)) this.#due.push({ kind: 'order', orderId, since: this.#seq, done: false })
    }
  }

  #keepOrder(order: Fields): void {
    const id = int(order.id)
    if (id !== null) this.#orders.set(id, { record: order, seq: this.#seq })
  }

  #keepPosition(position: Fields): void {
    if (typeof position.contractId !== 'string') return
    this.#positionSeq.set(position.contractId, this.#seq)
    if (int(position.size) === 0) this.#positions.delete(position.contractId)
    else this.#positions.set(position.contractId, position)
  }

  #met(due: Due): boolean {
    if (due.kind === 'position') return (this.#positionSeq.get(due.contractId) ?? -1) > due.since
    if (due.kind === 'tag') return [...this.#orders.values()].some(({ record, seq }) => seq > due.since && record.customTag === due.customTag)
    const kept = this.#orders.get(due.orderId)
    return kept !== undefined && kept.seq > due.since && (!due.done || DONE_STATUSES.has(kept.record.status))
  }

  #settled(): boolean {
    return this.#inFlight === 0 && this.#due.length === 0
  }

  /** A request on its way, or a due not waited out yet: a read waits (at most `waitMs`). */
  #waiting(): boolean {
    return this.#inFlight > 0 || this.#due.some((due) => !this.#overdue.has(due))
  }

  #check(): void {
    const now = Date.now()
    for (let i = this.#due.length - 1; i >= 0; i--) {
      const due = this.#due[i] as Due
      const overdueAt = this.#overdue.get(due)
      if (this.#met(due) || (overdueAt !== undefined && now - overdueAt >= this.lagLimitMs)) {
        this.#due.splice(i, 1)
        this.#overdue.delete(due)
      }
    }
    if (!this.#waiting()) for (const waiter of [...this.#waiters]) waiter()
  }
}

/** The requests that change the account (orders, positions): a read waits for them, and for the hub to show them. */
const CHANGES = new Set(['Order/place', 'Order/cancel', 'Order/modify', 'Position/closeContract', 'Position/partialCloseContract'])

/**
 * The session's REST calls, each request that changes the account noted in the state (what the hub must
 * show of it before a read answers from the state). A refusal changed nothing; an unknown outcome may have.
 */
export function tracked(call: (endpoint: string, body: object) => Promise<Answer>, state: UserState): (endpoint: string, body: object) => Promise<Answer> {
  return async (endpoint, body) => {
    if (!CHANGES.has(endpoint)) return call(endpoint, body)
    const since = state.sending()
    try {
      const answer = await call(endpoint, body)
      state.wrote(endpoint, body as Fields, answer, since)
      return answer
    } catch (error) {
      state.wrote(endpoint, body as Fields, error instanceof BrokerError && outcomeUnknown(error) ? null : 'refused', since)
      throw error
    }
  }
}
