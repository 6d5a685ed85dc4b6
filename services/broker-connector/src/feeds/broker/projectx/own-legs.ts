import type { Logger } from '../../../shared/logger.ts'
import { BrokerError } from '../broker-adapter.ts'
import type { OwnLegPlanRow, OwnLegRow } from '../../../repositories/own-leg-plans.ts'
import { int, isFields } from './mapping.ts'
import type { OwnLegStore } from './own-leg-store.ts'
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
/** The account's orders: `fresh` asked of ProjectX over REST now, else as the session's hub-kept state reads them. */
type Orders = (fresh: boolean) => Promise<Record<string, unknown>[]>

/** OrderType: 1 Limit, 4 Stop. OrderStatus: 0 None, 1 Open, 6 Pending are live; 5 Rejected. */
const LEGS = { sl: { type: 4, field: 'stopPrice' }, tp: { type: 1, field: 'limitPrice' } } as const
const LIVE: ReadonlySet<unknown> = new Set([0, 1, 6])
const REJECTED = 5
const REMEMBERED = 20_000
/** A plan is brought up to its fills in a few steps (place, grow, per leg); more means another caller is at it. */
const MAX_STEPS = 6

/**
 * The stop and target we place ourselves for an account whose settings refuse brackets on an order
 * (ProjectX's Position Brackets, or Auto OCO off: errorCode 2 "Brackets cannot be used with Position
 * Brackets"). The entry goes out without them; its first fill places the stop (`<tag>.sl`, Stop) and the
 * target (`<tag>.tp`, Limit) as separate orders sized to that fill, and each later fill of the entry grows
 * the legs still working by its size, so they never close more than was bought.
 *
 * The plan is kept (own-leg-store.ts: Postgres) before the entry is sent, with the fills counted (once per
 * trade id, whichever instance saw it) and what each leg was placed or grown for. So whichever instance holds
 * the session after a restart covers the fills it sees, those in its snapshot included. A leg is marked sent
 * before its Order/place goes: a lost answer is looked for by the leg's tag, and sent once more when not
 * listed (ProjectX refuses a used customTag: never two legs). A leg not placed or grown is logged and told
 * on the record. A growth is written before its Order/modify goes: lost, the leg stays short,
 * never grown twice. ProjectX does not link the two: the trade keeper cancels the other leg when one closes
 * the trade. One per account, kept across its sessions (adapter.ts); `attach` gives it the current session's calls.
 */
export class OwnLegs {
  /** Set when ProjectX refused brackets on this account: later entries go without them at once. */
  refusesBrackets = false
  /** Entries with a plan: placed here, or listed in a session's snapshot and found kept. */
  readonly #tags = new Set<string>()
  readonly #trades = new Set<number>()
  #chain: Promise<void> = Promise.resolve()
  #call: Call | null = null
  #orders: Orders | null = null
  #accountId = 0

  constructor(
    private readonly store: OwnLegStore,
    private readonly logger: Logger,
    private readonly restingEntries: boolean,
  ) {}

  /** A resting entry may wait for its fill: asked for (PROJECTX_RESTING_OWN_LEGS) and the plans kept past a restart. */
  get takesRestingEntries(): boolean {
    return this.restingEntries && this.store.durable
  }

  attach(call: Call, accountId: number, orders: Orders): void {
    this.#call = call
    this.#accountId = accountId
    this.#orders = orders
  }

  /** The entry tagged `tag` (our seam tag) is about to be sent without brackets: its plan is kept first, or the entry is refused. */
  async want(tag: string, plan: OwnLegPlan): Promise<void> {
    let why = 'no record carries its tag'
    const saved = await this.store.save({ tag, brokerAccountId: this.#accountId, ...plan }).catch((error: unknown) => {
      why = error instanceof Error ? error.message : String(error)
      return false
    })
    if (!saved) throw new BrokerError('rejected', `the stop and target to place at the fill could not be kept (${why}); the entry was not sent`)
    this.#remember(tag)
  }

  /**
   * A session opened: the plans of the entries its snapshot lists (`entryTags`) are read (before its events
   * go out), then the fills made while no session listened are counted and every plan behind its fills is
   * covered (a fill counted before a restart whose legs were not placed yet), in the account's queue.
   * Returns the plans read, with the legs each still waits for.
   */
  async resume(entryTags: readonly string[], fills: readonly { id: number; size: number; tag: string | null }[]): Promise<OwnLegPlanRow[]> {
    const plans = await this.store.plans([...new Set(entryTags)])
    for (const plan of plans) this.#remember(plan.tag)
    this.#enqueue(plans.map((plan) => plan.tag), async () => {
      for (const fill of fills) if (fill.tag !== null && this.#tags.has(fill.tag)) await this.#count(fill.tag, fill.id, fill.size)
      const known = await this.store.plans(plans.map((plan) => plan.tag))
      for (const plan of known) if (plan.legs.some((leg) => behind(plan, leg))) await this.#cover(plan.tag)
    })
    return plans
  }

  /** A trade (a fill) of the account, with the tag of the order it filled: an entry's fill is covered. */
  traded(trade: unknown, entryTag: string | null): void {
    if (!isFields(trade) || trade.voided === true || entryTag === null) return
    const id = int(trade.id)
    const size = int(trade.size)
    if (id === null || size === null || size <= 0 || this.#trades.has(id)) return
    // One fill after another: the first places the legs, the next ones grow what it placed.
    this.#enqueue([entryTag], async () => {
      if (!this.#tags.has(entryTag) || this.#trades.has(id)) return
      await this.#count(entryTag, id, size)
      await this.#cover(entryTag)
    })
  }

  /** `entries`: the tags (`sig-<record id>`) the work covers, logged with its failure. */
  #enqueue(entries: readonly string[], work: () => Promise<void>): void {
    // A failure (the database or ProjectX away) leaves the plan as kept: the next fill or session open takes it up.
    this.#chain = this.#chain.then(work).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error)
      this.logger.warn({ brokerAccountId: this.#accountId, entries, reason }, 'the stop and target placed by the connector could not be brought up to the fills; taken up at the next fill or session open')
    })
  }

  #remember(tag: string): void {
    this.#tags.add(tag)
    if (this.#tags.size > REMEMBERED) this.#tags.delete(this.#tags.values().next().value as string)
  }

  async #count(tag: string, tradeId: number, size: number): Promise<void> {
    await this.store.countFill(tag, tradeId, size)
    this.#trades.add(tradeId)
    if (this.#trades.size > REMEMBERED) this.#trades.delete(this.#trades.values().next().value as number)
  }

  /** Brings each leg of the entry's plan up to its fills, reading the plan again after each step. */
  async #cover(tag: string): Promise<void> {
    for (let step = 0; step < MAX_STEPS; step++) {
      const [plan] = await this.store.plans([tag])
      if (!plan || !(await this.#step(plan))) return
    }
  }

  /** One step for the first leg behind: placed, found, or grown. False when nothing more can be done now. */
  async #step(plan: OwnLegPlanRow): Promise<boolean> {
    for (const leg of plan.legs) {
      if (!behind(plan, leg)) continue
      if (leg.orderId === null) {
        if (await this.#place(plan, leg)) return true
      } else if (await this.#grow(plan, leg)) return true
    }
    return false
  }

  async #place(plan: OwnLegPlanRow, leg: OwnLegRow): Promise<boolean> {
    const legTag = `${plan.tag}.${leg.leg}`
    // Sent before (here or by an instance since gone) and its answer lost: looked for by its tag, sent once more if not listed.
    if (leg.sent) return (await this.#adopt(plan, leg, legTag)) || this.#resend(plan, leg, legTag)
    if (this.#call === null || !(await this.store.markSent(plan.tag, leg.leg))) return false
    return this.#send(plan, leg, legTag, false)
  }

  /**
   * Sends the leg once more, once: its first answer was lost and ProjectX does not list it (never arrived, or
   * a crash before it went). ProjectX refuses a customTag already used on the account, so whichever of the
   * two arrives second is refused: never two legs.
   */
  async #resend(plan: OwnLegPlanRow, leg: OwnLegRow, legTag: string): Promise<boolean> {
    if (leg.resent || this.#call === null || !(await this.store.markResent(plan.tag, leg.leg))) return false
    return this.#send(plan, leg, legTag, true)
  }

  /** One Order/place of the leg (marked sent, or resent, before): placed, found by its tag, refused, or lost. */
  async #send(plan: OwnLegPlanRow, leg: OwnLegRow, legTag: string, resent: boolean): Promise<boolean> {
    const call = this.#call
    if (call === null) return false
    const { type, field } = LEGS[leg.leg]
    const body = { accountId: this.#accountId, contractId: plan.contractId, type, side: plan.side, size: plan.filled, [field]: Number(leg.price), customTag: legTag }
    let lost: string
    try {
      const orderId = int((await call('Order/place', body)).orderId)
      if (orderId !== null) {
        await this.store.placed(plan.tag, leg.leg, orderId, plan.filled)
        return true
      }
      lost = 'ProjectX answered without its order id'
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      lost = error.message
      if (error.kind === 'rejected' || error.kind === 'credentials_refused') {
        if (await this.#adopt(plan, leg, legTag)) return true
        // A refusal is final (the market past the level); the one of a resend may be the used tag of a first
        // sending not listed yet: that leg is still looked for at each fill and session open.
        if (!resent) await this.store.refused(plan.tag, leg.leg, error.message)
        await this.#tell(plan, leg, `was not placed: ${error.message}`)
        return true
      }
    }
    if (await this.#adopt(plan, leg, legTag)) return true
    if (!resent) return this.#resend(plan, leg, legTag)
    await this.#tell(plan, leg, `may not be placed: sent twice, each answer lost (${lost}), and ProjectX does not list it; looked for again at the next fill`)
    return false
  }

  /** A leg that could not be placed or grown: logged, and told on the record (the position may lack it). */
  async #tell(plan: OwnLegPlanRow, leg: OwnLegRow, what: string): Promise<void> {
    const name = leg.leg === 'sl' ? `the stop (${plan.tag}.sl, Stop at ${leg.price})` : `the target (${plan.tag}.tp, Limit at ${leg.price})`
    this.logger.warn({ userId: plan.userId, recordId: plan.recordId, leg: `${plan.tag}.${leg.leg}`, reason: what }, 'a stop or target placed by the connector did not go as planned')
    await this.store.note(plan.recordId, `${name} ${what}`)
  }

  /** The leg found by its tag at ProjectX (asked now, not the hub's state): kept as placed for the size it was placed with. */
  async #adopt(plan: OwnLegPlanRow, leg: OwnLegRow, legTag: string): Promise<boolean> {
    const found = (await this.#listed(true)).find((order) => order.customTag === legTag && order.status !== REJECTED)
    const id = found ? int(found.id) : null
    const size = found ? int(found.size) : null
    if (id === null || size === null) return false
    await this.store.placed(plan.tag, leg.leg, id, size)
    return true
  }

  /**
   * Grows a working leg by the fills it was not sized for, from the size ProjectX shows now (a part the trade
   * keeper cut meanwhile stays cut). The growth is written first: one caller grows it, once.
   */
  async #grow(plan: OwnLegPlanRow, leg: OwnLegRow): Promise<boolean> {
    const call = this.#call
    const shown = (await this.#listed(false)).find((order) => int(order.id) === leg.orderId)
    const size = shown ? int(shown.size) : null
    if (call === null || !shown || size === null) return false
    if (!LIVE.has(shown.status)) {
      // Filled or cancelled (one leg closed the trade) while the entry still rests: its later fills have no
      // leg from us (a new leg would need a new tag); said once, and the leg is not looked at again.
      const why = `it is no longer working (ProjectX status ${String(shown.status)}): the contracts filled since are without it`
      await this.store.refused(plan.tag, leg.leg, why)
      await this.#tell(plan, leg, `was not grown to the ${plan.filled} filled: ${why}`)
      return true
    }
    if (!(await this.store.claimGrowth(plan.tag, leg.leg, leg.covered, plan.filled))) return true
    const body = { accountId: this.#accountId, orderId: leg.orderId, size: size + plan.filled - leg.covered }
    const failure = await sendOnce(() => call('Order/modify', body))
    if (failure !== null) await this.#tell(plan, leg, `was not grown to the ${plan.filled} filled: ${failure}`)
    return true
  }

  async #listed(fresh: boolean): Promise<Record<string, unknown>[]> {
    return this.#orders === null ? [] : this.#orders(fresh)
  }
}

/** A leg not refused and sized for fewer contracts than the entry filled. */
const behind = (plan: OwnLegPlanRow, leg: OwnLegRow): boolean => leg.outcome === null && leg.covered < plan.filled

/**
 * An Order/modify to a whole size, sent again once when its outcome is unknown: the same size twice is one
 * change. A refusal is final. Returns why it failed (told on the record), or null.
 */
async function sendOnce(send: () => Promise<Answer>): Promise<string | null> {
  let failure = ''
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await send()
      return null
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error)
      if (!(error instanceof BrokerError) || error.kind === 'rejected' || error.kind === 'credentials_refused') return failure
    }
  }
  return failure
}
