import type { Logger } from '../../../shared/logger.ts'
import { BrokerError } from '../broker-adapter.ts'
import type { OwnLegPlanRow, OwnLegRow } from '../../../repositories/own-leg-plans.ts'
import { int, isFields, OWN_LEGS_SUFFIX as OWN_SUFFIX } from './mapping.ts'
import { LateCloses, type LateClose } from './late-closes.ts'
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

/** OrderType: 1 Limit, 4 Stop. OrderStatus: 0 None, 1 Open, 6 Pending are live; 2 Filled, 3 Cancelled, 4 Expired done; 5 Rejected. */
const LEGS = { sl: { type: 4, field: 'stopPrice' }, tp: { type: 1, field: 'limitPrice' } } as const
const LIVE: ReadonlySet<unknown> = new Set([0, 1, 6])
const DONE: Readonly<Record<number, string>> = { 2: 'filled', 3: 'cancelled', 4: 'expired' }
const REJECTED = 5
const CANCELLED = 3
const LEG_NAMES = { sl: 'stop', tp: 'target' } as const
/** A leg we placed: `<entry tag>.sl|tp`. */
const OWN_LEG_TAG = /^(.+)\.(sl|tp)$/
const REMEMBERED = 20_000
/** A plan is brought up to its fills in a few steps (place, grow, per leg); more means another caller is at it. */
const MAX_STEPS = 6
/** A failed bringing-up (ProjectX or the database away) is tried again after this long, a few times (then at the next session open). */
const RETRY_MS = 5_000
const RETRIES = 5
/** The late closes a session open looks for in its snapshot: those sent within the sessions' look-back (a day). */
const LATE_CLOSES_LOOKBACK_MS = 24 * 3_600_000

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
 *
 * A resting entry may still work when its legs are done (one closed the trade, the other was cancelled with
 * it): the plan is then closed (written first, with the contracts the legs stood for) and the entry's rest
 * cancelled, looked for again at each later fill and session open. A fill that lands past them anyway (the
 * cancel raced it, or it came while no connector listened) has no stop: it is closed at the market
 * (`Position/partialCloseContract`, untagged: ProjectX takes no tag there), not given legs, and the record says so.
 * Its order is reported under `<tag>.late` (late-closes.ts; the close and its order's id kept in Postgres for the
 * next instance), so its fill goes to the record's trade alone.
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
  /** Tags whose bringing-up failed, tried again by one timer (`#retryLater`). */
  readonly #failed = new Set<string>()
  #retryTimer: NodeJS.Timeout | null = null
  #retries = 0
  /**
   * Fills whose counting failed (the database away), by trade id: counted first by the retry. Nothing else
   * counts them before the next session open (no other event of the fill comes), and uncounted, the plan
   * is not behind them: the position would be held without its stop.
   */
  readonly #uncounted = new Map<number, { tag: string; size: number }>()
  /** The app closed (`close`): nothing more is queued or timed (its database pool is gone). */
  #closed = false
  /** The orders of our late closes, named so their fills go to their record's trade alone; the name is kept (the next instance's too). */
  readonly #lateCloses = new LateCloses((close, orderId) => this.#keepLateCloseName(close, orderId))

  constructor(
    private readonly store: OwnLegStore,
    private readonly logger: Logger,
    private readonly restingEntries: boolean,
    /** How long a failed bringing-up waits before it is tried again (tests shorten it). */
    private readonly retryMs = RETRY_MS,
  ) {}

  /** A resting entry may wait for its fill: taken with PROJECTX_RESTING_OWN_LEGS on (default off) and the plans kept past a restart. */
  get takesRestingEntries(): boolean {
    return this.restingEntries && this.store.durable
  }

  attach(call: Call, accountId: number, orders: Orders): void {
    this.#call = call
    this.#accountId = accountId
    this.#orders = orders
    this.#retries = 0
  }

  /** The app closes: the retry timer is cleared, nothing more is queued, and the work under way is waited for (its pool closes next). */
  async close(): Promise<void> {
    this.#closed = true
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer)
    this.#retryTimer = null
    await this.#chain
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
      for (const plan of known) await this.#resumePlan(plan)
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

  /**
   * An order event of the account: a leg of ours done (filled: it closed the trade; cancelled or expired: the
   * trade closed otherwise) while its entry may still work closes the plan, and the entry's rest is cancelled
   * (or found cancelled already with contracts left, by the trade keeper: the plan closes all the same).
   */
  orderSeen(order: Record<string, unknown>): void {
    const own = typeof order.customTag === 'string' ? OWN_LEG_TAG.exec(order.customTag) : null
    const done = DONE[order.status as number]
    if (!own || done === undefined || !this.#tags.has(own[1] as string)) return
    const tag = own[1] as string
    const name = own[2] as 'sl' | 'tp'
    this.#enqueue([tag], async () => {
      const [plan] = await this.store.plans([tag])
      const leg = plan?.legs.find((kept) => kept.leg === name)
      if (!plan || !leg || leg.orderId === null || plan.closedFilled !== null) return
      // An entry filled in full (its Filled event came before its legs could fill) has no rest: nothing to close,
      // unless its trade closed before its last fills (they are late).
      if ((await this.#restOf(tag, false)) !== null || (await this.#lateToClosedTrade(plan))) await this.#close(plan, doneWhy(name, done))
    })
  }

  /** The tag an untagged order of the account is reported under when it is one of our late closes (`<tag>.late`), else null. */
  untaggedTagOf(order: Record<string, unknown>): string | null {
    return this.#lateCloses.tagOf(order)
  }

  /**
   * A session of the account opens: its late closes kept (sent before a restart, or by another instance) are
   * read before its snapshot is mapped, so their orders are named there. A read that fails fails the open
   * (tried again as a lost session): its fills would go first in, first out to another record's trade.
   */
  async loadLateCloses(accountId: number): Promise<void> {
    this.#lateCloses.load(await this.store.lateCloses(accountId, new Date(Date.now() - LATE_CLOSES_LOOKBACK_MS)))
  }

  #keepLateCloseName(close: LateClose, orderId: number): void {
    // Named in this process from now on; kept for the next instance (a failure leaves it to the creation-time match there).
    void this.store.lateCloseNamed(close.tag, close.sentAt, orderId).catch((error: unknown) => {
      this.logger.warn({ entry: close.tag, orderId, reason: error instanceof Error ? error.message : String(error) }, "a late close's order could not be kept by its id")
    })
  }

  /** `entries`: the tags (`sig-<record id>`) the work covers, logged with its failure. */
  #enqueue(entries: readonly string[], work: () => Promise<void>): void {
    if (this.#closed) return
    // A failure (the database or ProjectX away) leaves the plan as kept: tried again shortly (a late fill has no
    // other fill or event to bring it up), and at the next fill or session open.
    this.#chain = this.#chain.then(work).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error)
      this.logger.warn({ brokerAccountId: this.#accountId, entries, reason }, 'the stop and target placed by the connector could not be brought up to the fills; tried again shortly, and at the next fill or session open')
      this.#retryLater(entries, error instanceof BrokerError ? error.retryAfterMs : null)
    })
  }

  /** The plans of `entries` read again and brought up (as at a session open) after a while; a few times, then left to the next session open. */
  #retryLater(entries: readonly string[], afterMs: number | null): void {
    for (const tag of entries) this.#failed.add(tag)
    if (this.#closed || this.#retryTimer !== null || this.#retries >= RETRIES) return
    this.#retries++
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null
      const tags = [...this.#failed]
      this.#failed.clear()
      this.#enqueue(tags, async () => {
        for (const [id, fill] of [...this.#uncounted]) await this.#count(fill.tag, id, fill.size)
        for (const plan of await this.store.plans(tags)) await this.#resumePlan(plan)
        this.#retries = 0
      })
    }, Math.max(this.retryMs, afterMs ?? 0))
    this.#retryTimer.unref()
  }

  #remember(tag: string): void {
    this.#tags.add(tag)
    if (this.#tags.size > REMEMBERED) this.#tags.delete(this.#tags.values().next().value as string)
  }

  async #count(tag: string, tradeId: number, size: number): Promise<void> {
    try {
      await this.store.countFill(tag, tradeId, size)
    } catch (error) {
      this.#uncounted.set(tradeId, { tag, size })
      throw error
    }
    this.#uncounted.delete(tradeId)
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

  /**
   * A plan read at a session open: brought up to its fills when behind them; a closed one whose entry still
   * works, or with late contracts not closed, settled; one whose leg was done while nobody listened, its entry
   * still working, closed (read from the session's seeded state: no request for the plans that need nothing).
   */
  async #resumePlan(plan: OwnLegPlanRow): Promise<void> {
    if (plan.legs.some((leg) => behind(plan, leg))) return this.#cover(plan.tag)
    if (plan.closedFilled !== null) {
      if (plan.filled - plan.closedFilled > plan.flattened || (await this.#entryWorks(plan.tag, false))) await this.#settle(plan)
      return
    }
    const done = doneLeg(plan, await this.#listed(false))
    if (done && ((await this.#entryWorks(plan.tag, false)) || (await this.#lateToClosedTrade(plan)))) await this.#close(plan, done.why)
  }

  /**
   * One step: a leg found done (it closed the trade, or was cancelled with it) while the entry filled past it
   * closes the plan; else the first leg behind is placed, found, or grown. False when nothing more can be done now.
   */
  async #step(plan: OwnLegPlanRow): Promise<boolean> {
    if (plan.closedFilled !== null) return this.#settle(plan)
    const due = plan.legs.filter((leg) => behind(plan, leg))
    if (due.length === 0) return false
    // Asked of ProjectX now, not the hub's state: the hub may not show yet a cut the trade keeper just made
    // (a partial close), and a leg grown from the size before it would close more than is held.
    const orders = plan.legs.some((leg) => leg.orderId !== null) ? await this.#listed(true) : []
    const done = doneLeg(plan, orders)
    if (done) {
      // What the entry filled past the done leg has no stop: never grow the other leg for it (it would close
      // more than is held once the trade keeper cancels it or the late part is closed at the market).
      await this.#close(plan, done.why)
      return false
    }
    // The record's trade closed (otherwise than by its legs: the trader's close, an exit) before the legs were
    // placed or grown for these fills: a leg placed or grown now would close more than is held, or open a
    // position of its own. The plan closes; what the trade never counted is late.
    const counted = await this.store.closedTradeCounted(plan.tag)
    if (counted !== null) {
      await this.#close(plan, 'its trade was closed', counted)
      return false
    }
    for (const leg of due) {
      if (leg.orderId === null) {
        if (await this.#place(plan, leg)) return true
      } else if (await this.#grow(plan, leg, orders)) return true
    }
    return false
  }

  async #place(plan: OwnLegPlanRow, leg: OwnLegRow): Promise<boolean> {
    const legTag = `${plan.tag}.${leg.leg}`
    // Sent before (here or by an instance since gone) and its answer lost: looked for by its tag, sent once more if not listed.
    if (leg.sent) return (await this.#adopt(plan, leg, legTag)) || this.#resend(plan, leg, legTag)
    const size = this.#call === null ? 0 : await this.#sizeNow(plan)
    if (size <= 0 || !(await this.store.markSent(plan.tag, leg.leg))) return false
    return this.#send(plan, leg, legTag, false, size)
  }

  /**
   * What a leg placed or grown now stands for: the plan's fills less what was closed off the record's trade
   * while it stays open (a partial exit made before the leg: placed late, after a retry or a session open),
   * never more than the account holds on the entry's side.
   */
  async #sizeNow(plan: OwnLegPlanRow): Promise<number> {
    const [cut, held] = await Promise.all([this.store.openTradeCut(plan.tag), this.#held(plan)])
    return Math.min(plan.filled - cut, held)
  }

  /**
   * Sends the leg once more, once: its first answer was lost and ProjectX does not list it (never arrived, or
   * a crash before it went). ProjectX refuses a customTag already used on the account, so whichever of the
   * two arrives second is refused: never two legs.
   */
  async #resend(plan: OwnLegPlanRow, leg: OwnLegRow, legTag: string): Promise<boolean> {
    if (leg.resent || this.#call === null) return false
    const size = await this.#sizeNow(plan)
    if (size <= 0 || !(await this.store.markResent(plan.tag, leg.leg))) return false
    return this.#send(plan, leg, legTag, true, size)
  }

  /**
   * One Order/place of the leg (marked sent, or resent, before) for `size` (#sizeNow): placed, found by its tag,
   * refused, or lost. Placed, it stands for the plan's fills (a part cut off stays cut: growth adds fills only).
   */
  async #send(plan: OwnLegPlanRow, leg: OwnLegRow, legTag: string, resent: boolean, size: number): Promise<boolean> {
    const call = this.#call
    if (call === null) return false
    const { type, field } = LEGS[leg.leg]
    const body = { accountId: this.#accountId, contractId: plan.contractId, type, side: plan.side, size, [field]: Number(leg.price), customTag: legTag }
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
  async #grow(plan: OwnLegPlanRow, leg: OwnLegRow, orders: readonly Record<string, unknown>[]): Promise<boolean> {
    const call = this.#call
    // `orders` asked of ProjectX now (#step): the size shown is the one after any cut just made.
    const shown = orders.find((order) => int(order.id) === leg.orderId)
    const size = shown ? int(shown.size) : null
    if (call === null || !shown || size === null || !LIVE.has(shown.status)) return false
    if (!(await this.store.claimGrowth(plan.tag, leg.leg, leg.covered, plan.filled))) return true
    // Never past what the trade holds now and the account on the entry's side (a cut the size shown may not show yet).
    const grown = Math.min(size + plan.filled - leg.covered, await this.#sizeNow(plan))
    if (grown <= size) return true
    const body = { accountId: this.#accountId, orderId: leg.orderId, size: grown }
    const failure = await sendOnce(() => call('Order/modify', body))
    if (failure !== null) await this.#tell(plan, leg, `was not grown to the ${plan.filled} filled: ${failure}`)
    return true
  }

  /**
   * Closes the plan (written before anything is sent: whichever instance holds the session carries it on)
   * with the entry's contracts its legs stood for, and cancels the entry's rest; the record says so. The
   * record's trade closed already (by its legs, or otherwise: the trader's close, an exit), what it counted is
   * what was covered: legs grown for a fill it never counted (grown while the trade keeper's cancels of them
   * were on their way) covered nothing, and that fill is late.
   */
  async #close(plan: OwnLegPlanRow, why: string, counted?: number): Promise<void> {
    const stood = (counted ?? (await this.store.closedTradeCounted(plan.tag))) ?? stoodFor(plan)
    if (!(await this.store.close(plan.tag, stood))) return
    this.logger.info({ userId: plan.userId, recordId: plan.recordId, entry: plan.tag, why }, 'the legs placed by the connector are done while the entry may still work: its rest is cancelled')
    await this.#settle({ ...plan, closedFilled: stood }, why, true)
  }

  /**
   * A closed plan (at its close, and at each later fill and session open): the entry's rest cancelled if it
   * still works (a cancel whose answer was lost, a restart), and the contracts filled past what the legs
   * stood for closed at the market. Returns false: nothing more is to be done for the plan now.
   */
  async #settle(plan: OwnLegPlanRow, why = 'its stop and target are done', closing = false): Promise<boolean> {
    // At the close, a rest cancelled already is told too: the trade keeper cancels a closed trade's working
    // entries (trade-keeper.ts #followLegs), first when this account's queue is busy.
    const rest = (await this.#cancelRest(plan)) ?? (closing ? await this.#cancelledRest(plan.tag) : null)
    if (rest !== null) await this.#say(plan, `the entry's rest${rest.what} ${rest.outcome}: ${why}`)
    const late = plan.filled - (plan.closedFilled ?? plan.filled) - plan.flattened
    if (late > 0) await this.#flatten(plan, late)
    return false
  }

  /**
   * Cancels the entry's working rest, found by its tag at ProjectX now: null when none works. A cancel whose
   * answer is lost is sent once more (a second cancel of a cancelled order is refused, nothing more); one
   * still working after that is looked for again at the next fill and session open.
   */
  async #cancelRest(plan: OwnLegPlanRow): Promise<{ what: string; outcome: string } | null> {
    const call = this.#call
    const entry = await this.#workingEntry(plan.tag)
    if (call === null || entry === null) return null
    const what = entry.left === null ? '' : ` (${entry.left} of ${entry.size})`
    const failure = await sendOnce(() => call('Order/cancel', { accountId: this.#accountId, orderId: entry.id }))
    if (failure === null || (await this.#workingEntry(plan.tag)) === null) return { what, outcome: 'was cancelled' }
    this.logger.warn({ userId: plan.userId, recordId: plan.recordId, entry: plan.tag, reason: failure }, "the entry's rest could not be cancelled after its legs were done")
    return { what, outcome: `could not be cancelled (${failure}); tried again at its next fill and session open` }
  }

  /** The record's trade is closed, and counted fewer of the entry's contracts than filled: the others are late. */
  async #lateToClosedTrade(plan: OwnLegPlanRow): Promise<boolean> {
    const counted = await this.store.closedTradeCounted(plan.tag)
    return counted !== null && counted < plan.filled
  }

  /** Whether the entry under the plan's tag still works: `fresh` asked of ProjectX now, else as the session's state shows it. */
  async #entryWorks(tag: string, fresh: boolean): Promise<boolean> {
    return (await this.#listed(fresh)).some((order) => isEntryOf(tag, order) && LIVE.has(order.status))
  }

  /**
   * The entry's rest (`fresh`: asked of ProjectX now, else as the session's state shows it): still working, or cancelled with contracts left unfilled
   * (`what`: " (4 of 5)"); null when the entry filled in full or is not listed.
   */
  async #restOf(tag: string, fresh: boolean): Promise<{ working: boolean; what: string } | null> {
    const found = (await this.#listed(fresh)).filter((order) => isEntryOf(tag, order) && order.status !== REJECTED)
    const entry = found.find((order) => LIVE.has(order.status)) ?? found.find((order) => order.status === CANCELLED)
    if (entry === undefined) return null
    const size = int(entry.size)
    const filled = int(entry.fillVolume)
    if (!LIVE.has(entry.status) && (size === null || filled === null || filled >= size)) return null
    return { working: LIVE.has(entry.status), what: size !== null && filled !== null ? ` (${size - filled} of ${size})` : '' }
  }

  /** The entry's rest found cancelled already (asked now), as `#cancelRest` tells one it cancelled; null when none. */
  async #cancelledRest(tag: string): Promise<{ what: string; outcome: string } | null> {
    const rest = await this.#restOf(tag, true)
    return rest !== null && !rest.working ? { what: rest.what, outcome: 'was cancelled' } : null
  }

  /** The entry under the plan's tag (`<tag>`, or `<tag>.own` sent again without brackets) still working at ProjectX, asked now. */
  async #workingEntry(tag: string): Promise<{ id: number; size: number | null; left: number | null } | null> {
    const found = (await this.#listed(true)).find((order) => isEntryOf(tag, order) && LIVE.has(order.status))
    const id = found ? int(found.id) : null
    if (!found || id === null) return null
    const size = int(found.size)
    const filled = int(found.fillVolume)
    return { id, size, left: size !== null && filled !== null ? size - filled : null }
  }

  /**
   * Closes at the market the contracts the entry filled past what its legs stood for (they have no stop).
   * What the account holds on the entry's side is read first (asked now), then the close is claimed (one
   * caller, once): a read that fails claims nothing. `Position/partialCloseContract`, sized to what is held
   * and no more: ProjectX refuses a size past the position, so it never turns the account over, even when the
   * reconciliation's flatten of the same contract (a position none of our trades is in) lands first. The close
   * is kept and its order looked for before it goes and reported as the record's late close (`untaggedTagOf`). Certainly
   * not carried out (refused with the contracts still held, a 429, our own rate window, never sent), the claim is moved back; an answer lost is not
   * sent again (it may have closed them) and the reconciliation compares the position at its next pass. Left
   * open either way, the record says so and the failure goes up: tried again shortly and at the session open.
   */
  async #flatten(plan: OwnLegPlanRow, late: number): Promise<void> {
    const call = this.#call
    if (call === null) return
    const contracts = late === 1 ? '1 contract' : `${late} contracts`
    const said = `${contracts} the entry filled after its stop and target were done had no stop`
    let held: number
    try {
      held = await this.#held(plan)
    } catch (error) {
      await this.#say(plan, `${said} and is not closed yet: ${error instanceof Error ? error.message : String(error)}; tried again`)
      throw error
    }
    const size = Math.min(late, held)
    // Kept before it is claimed and goes (a restart before its order is seen: the next instance names it), and
    // looked for: its order's events may come before the answer.
    const close: LateClose = { tag: plan.tag, contractId: plan.contractId, side: plan.side, size, sentAt: new Date() }
    if (size > 0) await this.store.lateCloseSent(close.tag, close.sentAt, size)
    const withdraw = size > 0 ? this.#lateCloses.due(close) : () => undefined
    const notPlaced = async () => {
      withdraw()
      await this.store.lateCloseWithdrawn(close.tag, close.sentAt).catch((error: unknown) => {
        // Left kept, it may name a trader's order of its shape created within the minute after it: logged.
        this.logger.warn({ entry: close.tag, reason: error instanceof Error ? error.message : String(error) }, 'a late close not placed could not be withdrawn')
      })
    }
    if (!(await this.store.claimFlatten(plan.tag, plan.flattened, plan.flattened + late))) return notPlaced()
    if (size === 0) return this.#say(plan, `${said}: the position was closed already`)
    let failure: BrokerError | null = null
    try {
      await call('Position/partialCloseContract', { accountId: this.#accountId, contractId: plan.contractId, size })
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      failure = error
      if (error.kind === 'rejected' || notCarriedOut(error)) await notPlaced()
    }
    this.logger.warn({ userId: plan.userId, recordId: plan.recordId, entry: plan.tag, late, size, reason: failure?.message ?? null }, 'entry contracts filled after the legs placed by the connector were done: closed at the market')
    const closed = size === 1 ? '1 closed' : `${size} closed`
    if (failure === null) return this.#say(plan, `${said}: ${closed} at the market`)
    // Refused because the position went meanwhile (the reconciliation's flatten of it came first): nothing is left to close.
    if (failure.kind === 'rejected' && (await this.#held(plan).catch(() => null)) === 0) return this.#say(plan, `${said}: the position was closed already`)
    if (failure.kind !== 'rejected' && !notCarriedOut(failure)) return this.#say(plan, `${said} and may not be closed: ${failure.message}`)
    // ProjectX did not carry it out (refused with the contracts still held, rate limited, never sent): the claim
    // moved back, so the retry (or the next session open) closes them.
    await this.store.claimFlatten(plan.tag, plan.flattened + late, plan.flattened)
    await this.#say(plan, `${said} and is not closed yet: ${failure.message}; tried again`)
    throw failure
  }

  /** The contracts the account holds on the entry's side of the plan's contract, asked of ProjectX now. */
  async #held(plan: OwnLegPlanRow): Promise<number> {
    const call = this.#call
    if (call === null) return 0
    const positions = (await call('Position/searchOpen', { accountId: this.#accountId })).positions
    const position = (Array.isArray(positions) ? positions : []).filter(isFields).find((held) => held.contractId === plan.contractId)
    const size = position ? int(position.size) : null
    // PositionType 1 long, 2 short; the legs' side is the entry's opposite (0 buy: the entry sold, short).
    const entrySide = plan.side === 1 ? 1 : 2
    return position && size !== null && position.type === entrySide ? size : 0
  }

  /** What the trader is told on the record about the plan as a whole. */
  async #say(plan: OwnLegPlanRow, what: string): Promise<void> {
    await this.store.note(plan.recordId, what)
  }

  async #listed(fresh: boolean): Promise<Record<string, unknown>[]> {
    return this.#orders === null ? [] : this.#orders(fresh)
  }
}

/** The order is the plan's entry: under its tag, or under `<tag>.own` (sent again without brackets, mapping.ts). */
const isEntryOf = (tag: string, order: Record<string, unknown>): boolean => order.customTag === tag || order.customTag === `${tag}${OWN_SUFFIX}`

/** Why a plan closes, said on the record: a leg filled closed the trade; one cancelled or expired went with it. */
const doneWhy = (leg: 'sl' | 'tp', done: string): string => (done === 'filled' ? `its ${LEG_NAMES[leg]} closed the trade` : `its ${LEG_NAMES[leg]} was ${done}`)

/**
 * The entry's contracts the legs stood for when the plan closes: the largest a leg was placed or grown for.
 * The done leg may have been sized before the entry's last fill while the other was grown for it: that
 * contract is still protected by the other (the trade keeper resizes it), not late.
 */
const stoodFor = (plan: OwnLegPlanRow): number => Math.max(0, ...plan.legs.map((leg) => leg.covered))

/** Certainly not carried out by ProjectX (rate limited, never sent): nothing to fear from sending it later. */
const notCarriedOut = (error: BrokerError): boolean => error.kind === 'rate_limited' || (error.kind === 'unavailable' && error.neverSent)

/** A placed leg of the plan that `orders` show done (filled, cancelled, expired), with why, or null. */
function doneLeg(plan: OwnLegPlanRow, orders: readonly Record<string, unknown>[]): { leg: OwnLegRow; why: string } | null {
  for (const leg of plan.legs) {
    const shown = leg.orderId === null ? undefined : orders.find((order) => int(order.id) === leg.orderId)
    const done = shown ? DONE[shown.status as number] : undefined
    if (done !== undefined) return { leg, why: doneWhy(leg.leg, done) }
  }
  return null
}

/** A leg not refused and sized for fewer contracts than the entry filled, while the plan is not closed. */
const behind = (plan: OwnLegPlanRow, leg: OwnLegRow): boolean => plan.closedFilled === null && leg.outcome === null && leg.covered < plan.filled

/**
 * A request whose repeat changes nothing more (an Order/modify to a whole size, an Order/cancel), sent again
 * once when its outcome is unknown (`again`; off: sent once). A refusal is final. Returns why it failed
 * (told on the record), or null.
 */
async function sendOnce(send: () => Promise<Answer>, again = true): Promise<string | null> {
  let failure = ''
  for (let attempt = 0; attempt < (again ? 2 : 1); attempt++) {
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
