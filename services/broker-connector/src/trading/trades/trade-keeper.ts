import type { Database, Kysely } from '@signals/db'
import { isDependencyDown } from '@signals/http-kit'
import { BrokerError, isDone, lateCloseRecordOf, type BrokerEvent, type BrokerFill, type BrokerOrder, type BrokerSession, type BrokerVenue, type DayRealizedPnl } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import { applyEntryFill, type BrokerScope, type EntryFill } from '../../repositories/broker-trades.ts'
import { openLatePart } from '../../repositories/late-entry-fills.ts'
import { linkLateLeg, type EntryLeg } from '../../repositories/late-legs.ts'
import { setAsideEvent } from '../../repositories/set-aside-events.ts'
import { filledOnTrade, noteTrade } from '../../repositories/trade-exits.ts'
import { ConcurrencyLimit } from '../../shared/concurrency-limit.ts'
import { cancelQuietly } from '../positions/cancel-quietly.ts'
import { putBackAfterCloseEnded, stopAfterCloseLeftOpen } from '../positions/close-ended.ts'
import { allocateExitFill, type Allocation, type LegFill } from './exit-allocation.ts'
import { isOutage, setAsideNote } from './set-aside.ts'
import { growLegsToTrade } from './grow-legs.ts'
import { SerialQueues } from '../../shared/serial-queues.ts'
import { checkStops, followTargets, placeTargetsAfterEntry } from '../targets/keep-targets.ts'
import type { TargetContext } from '../targets/target-context.ts'
import { hasTargetPairs, openTradesWithPairs, pairsInFlight } from '../../repositories/trade-targets.ts'
import { PAIR_IN_FLIGHT_MS } from '../targets/cover-gaps.ts'

interface UserBook {
  session: BrokerSession
  /** The session's venue and account: where its broker ids live. */
  scope: BrokerScope
  /** Events of this session set aside (could not be applied): the feed status says so. */
  setAside: number
  /** The session's live orders, and done ones until their fills are applied (then pruned). */
  orders: Map<number, BrokerOrder>
  /** Orders with a fill applied while still held: a `Filled` update for one of these needs no more waiting. */
  filled: Set<number>
  /** Fills applied (or set aside) in this session: a reconciliation's `fill/list` applies only the others. */
  seenFills: Set<number>
  /** Entry legs already offered to their trade (linkLeg): each once per session, not at every update. */
  legsLinked: Set<number>
  cashBalance: string | null
  /** The day's realized pnl as the broker last told it (with the cash balance). */
  realizedPnl: DayRealizedPnl | null
}

/**
 * Trades from the broker's fills (DESIGN decisions 17 and 21), fed by the feed manager's session hooks: the
 * entry order's fill opens the record's trade; a closing fill is allocated to trades by quantity (a bracket
 * leg's to its record's trade, SL / TP, as is a late close's; one without our tag, our flatten or a trader's
 * own order, first in first out across the open trades of the contract), at the fill's price. A part closed splits off and the
 * rest keeps working with its legs resized at the broker; a trade closed in full has no leg left working.
 * One user's events are applied in the order received; every write is conditional or counted by fill, so
 * a snapshot replayed after a reconnect changes nothing.
 */
export class TradeKeeper {
  readonly #books = new Map<string, UserBook>()
  readonly #queues = new SerialQueues()
  /** Fills that arrived before their session was handed over: applied right after its snapshot. */
  readonly #early = new Map<string, BrokerFill[]>()

  /** Fills applied at once across users (each a transaction): a burst of fills waits here, not in the pool. */
  readonly #limit: ConcurrencyLimit

  /** `closeSoon`: carries out the user's pending flattens now (a late entry fill's close; the flatten sweep would, later). */
  constructor(private readonly options: { db: Kysely<Database>; logger: Logger; maxConcurrent?: number; closeSoon?: (userId: string) => void }) {
    this.#limit = new ConcurrencyLimit(options.maxConcurrent ?? 4)
  }

  /**
   * A new session: its snapshot replaces what was known, and its fills are applied (idempotently), each on
   * its own: one that cannot be applied is set aside, and the session opens. A dependency down (Postgres)
   * rejects instead: the session is opened again later and the fill replayed, never skipped.
   */
  sessionOpened(userId: string, session: BrokerSession, venue: BrokerVenue): Promise<void> {
    const { snapshot } = session
    const scope = { ...venue, accountId: snapshot.account.id }
    const book: UserBook = { session, scope, setAside: 0, orders: new Map(snapshot.orders.map((order) => [order.id, order])), filled: new Set(), seenFills: new Set(), legsLinked: new Set(), cashBalance: snapshot.cashBalance, realizedPnl: snapshot.realizedPnl }
    this.#books.set(userId, book)
    const fills = [...snapshot.fills, ...(this.#early.get(userId) ?? [])].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id)
    this.#early.delete(userId)
    return this.#serial(userId, async () => {
      for (const fill of fills) await this.#applyOrSetAside(userId, book, fill)
      for (const order of book.orders.values()) await this.#linkLeg(userId, book, order)
      // A close that ended short of its fill while no session listened (the connector away): what it cut is put
      // back now, its fills applied above (which drop it from the book). A request put back already is skipped (close-ended.ts).
      for (const order of snapshot.orders) if (order.status !== 'Filled' && isDone(order.status) && order.tag?.startsWith('pc-')) this.#putBack(userId, book, order)
      // The snapshot lists the day's done orders too: those whose fills are applied are dropped at once.
      for (const order of [...book.orders.values()]) this.#prune(book, order.id)
    })
  }

  /**
   * Fills the broker lists now (a reconciliation's `fill/list`) that this session has not applied yet (a
   * fill whose event never came): applied in order behind the user's other events. Resolves true when
   * done; false, applying nothing, when the keeper no longer keeps this session (its feed was dropped here
   * meanwhile): our trades may then lag what was listed, and nothing may be compared with them.
   */
  async applyListedFills(userId: string, session: BrokerSession, fills: readonly BrokerFill[]): Promise<boolean> {
    const book = this.#books.get(userId)
    if (book?.session !== session) return false
    const unseen = fills.filter((fill) => !book.seenFills.has(fill.id)).sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id)
    await this.#serial(userId, async () => {
      for (const fill of unseen) await this.#applyOrSetAside(userId, book, fill)
    })
    return this.#books.get(userId) === book
  }

  /**
   * The records whose entry order is still working on the user's session account, as the broker last told:
   * they count as open trades however long ago they were placed, until they fill or end.
   */
  workingEntryRecords(userId: string): number[] {
    const book = this.#books.get(userId)
    if (!book) return []
    return [...book.orders.values()].flatMap((order) => {
      const tag = parseOrderTag(order.tag)
      return tag?.leg === 'entry' && !isDone(order.status) ? [tag.recordId] : []
    })
  }

  /** How many orders are held for the user's session (bounded by its working orders: tests, diagnostics). */
  heldOrders(userId: string): number {
    return this.#books.get(userId)?.orders.size ?? 0
  }

  /** How many events of the user's current session were set aside. */
  setAsideCount(userId: string): number {
    return this.#books.get(userId)?.setAside ?? 0
  }

  /** The feed status's sentence about set-aside events of the current session, or null. */
  statusNote(userId: string): string | null {
    return setAsideNote(this.setAsideCount(userId))
  }

  /** The account's cash balance as the broker last told it. */
  cashBalanceOf(userId: string, session: BrokerSession): string | null {
    return this.#books.get(userId)?.cashBalance ?? session.snapshot.cashBalance
  }

  /** The account's realized pnl of a trading day as the broker last told it, or null (the daily loss limit counts it). */
  realizedPnlOf(userId: string, session: BrokerSession): DayRealizedPnl | null {
    const book = this.#books.get(userId)
    return book ? book.realizedPnl : session.snapshot.realizedPnl
  }

  onEvent(userId: string, event: BrokerEvent): void {
    const book = this.#books.get(userId)
    // The adapter passes on the session's account only; an event naming another is never applied.
    if (book && accountOf(event) !== undefined && accountOf(event) !== book.scope.accountId) return
    if (event.type === 'order') {
      if (!book) return
      const done = isDone(event.order.status)
      // A done order not held was let go already (a repeated update): holding it again would keep it for good.
      if (done && !book.orders.has(event.order.id)) return
      book.orders.set(event.order.id, event.order)
      // Queued behind the fills already received, so a done order is dropped only after they are applied.
      if (done) void this.#serial(userId, async () => this.#prune(book, event.order.id))
      // A leg told after its entry's fill (ProjectX's brackets, placed from the fill): its trade is told it, once opened.
      else if (entryLegOf(event.order) !== null && !book.legsLinked.has(event.order.id)) {
        const leg = event.order
        void this.#serial(userId, () => this.#linkLeg(userId, book, leg)).catch((error: unknown) =>
          this.options.logger.warn({ userId, orderId: leg.id, err: error }, 'leg not linked to its trade (linked at the next session open)'),
        )
      }
      // A partial close done (filled, or its rest cancelled): what it did not close gets its stops back now,
      // not only at the next reconciliation's pass (targets/cover-gaps.ts).
      if (done && event.order.tag?.startsWith('pc-')) {
        void this.coverGaps(userId).catch((error: unknown) => this.options.logger.warn({ userId, orderId: event.order.id, err: error }, 'stops not checked after a partial close (checked on the next pass)'))
        // Ended short of a fill: the brackets it cut grow back. Started once the fills before it are applied,
        // and run beside the queue: it waits for the contract's exit lock, which the close may still hold.
        const ended = event.order
        void this.#serial(userId, async () => this.#putBack(userId, book, ended))
      }
      return
    }
    if (event.type === 'cashBalance') {
      if (book) {
        book.cashBalance = event.amount
        book.realizedPnl = event.realizedPnl ?? book.realizedPnl
      }
      return
    }
    if (event.type !== 'fill') return
    if (!book) {
      this.#early.set(userId, [...(this.#early.get(userId) ?? []), event.fill])
      return
    }
    void this.#serial(userId, () => this.#applyOrSetAside(userId, book, event.fill)).catch((error: unknown) =>
      this.options.logger.warn({ userId, fillId: event.fill.id, err: error }, 'fill not applied to trades (applied again from the next snapshot)'),
    )
  }

  /**
   * A close's order ended short of its fill: the brackets it cut grow back (positions/close-ended.ts). Run beside
   * the queue: it waits for the contract's exit lock, which the close may still hold.
   */
  #putBack(userId: string, book: UserBook, ended: BrokerOrder): void {
    void putBackAfterCloseEnded(this.options.db, book.session, userId, book.scope, ended).catch((error: unknown) =>
      this.options.logger.warn({ userId, orderId: ended.id, err: error }, 'brackets not put back after a partial close ended unfilled'),
    )
  }

  /** The user's feed is no longer held here: what its session told is dropped (the next snapshot tells it again). */
  sessionClosed(userId: string): void {
    this.#books.delete(userId)
  }

  /**
   * The stops of the user's open trades with target pairs added up against what the broker holds, and a gap
   * covered (targets/cover-gaps.ts): the reconciliation's pass asks, so a gap no fill shows (a crash between
   * a stop's cancel and a pair's send, a partial close filled only in part) lasts one pass at most. Run
   * behind the user's other events, never inside the keeper's own sends.
   */
  coverGaps(userId: string): Promise<void> {
    return this.#serial(userId, async () => {
      const context = this.#targetContext(userId)
      const book = this.#books.get(userId)
      if (!context || !book) return
      for (const recordId of await openTradesWithPairs(this.options.db, userId, book.scope)) await checkStops(context, recordId)
    })
  }

  /** Waits for every event handed over so far (tests, shutdown). */
  async idle(): Promise<void> {
    await this.#queues.idle()
  }

  #serial(userId: string, work: () => Promise<void>): Promise<void> {
    return this.#queues.run(userId, work)
  }

  /**
   * Drops a done order once nothing more is expected of it: a cancelled, rejected or expired one at once
   * (its fills, if any, were queued before), a filled one once its fill is applied (the broker may send
   * the `Filled` update before the fill). Without this the book grows by every order the session sees.
   */
  #prune(book: UserBook, orderId: number): void {
    const order = book.orders.get(orderId)
    if (!order || !isDone(order.status)) return
    if (order.status === 'Filled' && !book.filled.has(orderId)) return
    book.orders.delete(orderId)
    book.filled.delete(orderId)
    book.legsLinked.delete(orderId)
  }

  async #orderOf(userId: string, orderId: number): Promise<BrokerOrder | undefined> {
    const book = this.#books.get(userId)
    if (!book) return undefined
    if (!book.orders.has(orderId)) {
      // A fill can overtake its order's event: ask the broker once. Only the order sought and live ones
      // are kept: the list holds every done order of the day, which the book has already let go.
      for (const order of await book.session.listOrders()) if (order.id === orderId || !isDone(order.status)) book.orders.set(order.id, order)
    }
    return book.orders.get(orderId)
  }

  /**
   * A live stop or target of an entry (our `<entry>.sl|tp` hung on the entry) is told to the record's open trade
   * opened from that entry, when the trade knows no such leg (its fill came first: late-legs.ts). Without it the
   * trade keeper neither resizes nor cancels the leg with the trade, and the leg is the trade's at the broker.
   */
  async #linkLeg(userId: string, book: UserBook, order: BrokerOrder): Promise<void> {
    const leg = isDone(order.status) || book.legsLinked.has(order.id) ? null : entryLegOf(order)
    if (leg === null) return
    book.legsLinked.add(order.id)
    if (await linkLateLeg(this.options.db, userId, book.scope, leg)) this.options.logger.info({ userId, recordId: leg.recordId, orderId: order.id, leg: leg.leg }, 'a leg told after its entry filled is linked to the trade')
  }

  /** A fill of the order was applied: a filled order is done with. */
  #fillApplied(userId: string, orderId: number): void {
    const book = this.#books.get(userId)
    if (!book?.orders.has(orderId)) return
    book.filled.add(orderId)
    this.#prune(book, orderId)
  }

  /**
   * Applies a fill, trying again while the database is unreachable (about half a minute; the user's later
   * events wait behind it, in order), so a short outage does not leave a closed position showing open
   * until the next session.
   */
  async #applyFill(userId: string, scope: BrokerScope, fill: BrokerFill): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#limit.run(() => this.#applyFillToTrades(userId, scope, fill))
        break
      } catch (error) {
        if (!isDependencyDown(error) || attempt >= 5) throw error
        await new Promise((resolve) => setTimeout(resolve, 1_000 * 2 ** attempt))
      }
    }
    this.#fillApplied(userId, fill.orderId)
  }

  /** Applies a fill; one that can never be applied is kept aside with the reason (a dependency down is thrown). */
  async #applyOrSetAside(userId: string, book: UserBook, fill: BrokerFill): Promise<void> {
    if (book.seenFills.has(fill.id)) return
    try {
      await this.#applyFill(userId, book.scope, fill)
      book.seenFills.add(fill.id)
    } catch (error) {
      if (isOutage(error)) throw error
      const reason = error instanceof Error ? error.message : String(error)
      await setAsideEvent(this.options.db, { userId, scope: book.scope, entityType: 'fill', entityId: fill.id, orderId: fill.orderId, event: fill, reason })
      book.setAside++
      book.seenFills.add(fill.id)
      this.options.logger.warn({ userId, fillId: fill.id, orderId: fill.orderId, accountId: book.scope.accountId, reason }, 'broker event set aside')
      this.#fillApplied(userId, fill.orderId)
    }
  }

  async #applyFillToTrades(userId: string, scope: BrokerScope, fill: BrokerFill): Promise<void> {
    const order = await this.#orderOf(userId, fill.orderId)
    const tag = parseOrderTag(order?.tag ?? null)
    if (tag?.leg === 'entry') {
      const legId = (suffix: string) => [...(this.#books.get(userId)?.orders.values() ?? [])].find((o) => o.tag === `${order?.tag}${suffix}`)?.id ?? null
      const entryFill: EntryFill = {
        recordId: tag.recordId,
        userId,
        scope,
        fillId: fill.id,
        orderId: fill.orderId,
        contractId: fill.contractId,
        quantity: fill.quantity,
        price: fill.price,
        at: fill.timestamp,
        stopOrderId: legId('.sl'),
        targetOrderId: legId('.tp'),
      }
      const tradeId = await applyEntryFill(this.options.db, entryFill)
      if (tradeId !== null) this.options.logger.info({ userId, tradeId, recordId: tag.recordId, price: fill.price }, 'trade opened from the entry fill')
      else await this.#latePart(userId, entryFill)
      // A limit's remainder sent at the market without legs: the limit's legs grow to cover it (issue 24 item 6).
      const book = this.#books.get(userId)
      if (tag.remainder === 'added' && tradeId !== null && book) await growLegsToTrade(this.options.db, book.session, tradeId, (id): id is number => id !== null && book.orders.has(id) && !isDone((book.orders.get(id) as BrokerOrder).status))
      // Several targets go out once the entry has filled in full (each claimed once: a replayed fill sends nothing).
      const context = this.#targetContext(userId)
      if (context) {
        await placeTargetsAfterEntry(context, tag.recordId)
        await this.#checkStopsAfterGrace(userId, tag.recordId)
      }
      return
    }
    // A late close (its record's entry filled after its legs were done, closed at the market untagged by the
    // adapter) is its record's: first in, first out it would cut another record's trade the broker still holds.
    const lateClose = lateCloseRecordOf(order?.tag ?? null)
    const leg: LegFill | null = tag ? { recordId: tag.recordId, result: tag.leg === 'stop' ? 'SL' : 'TP' } : lateClose === null ? null : { recordId: lateClose, result: null }
    const allocations = await this.options.db.transaction().execute((trx) => allocateExitFill(trx, { userId, scope }, fill, leg, this.options.logger))
    await this.#followLegs(userId, fill, allocations)
    if (order?.tag?.startsWith('pc-')) this.#stopsLeftOpen(userId, order, fill, allocations)
  }

  /**
   * A close's fill that leaves open a trade whose stop is not working (cancelled by the close's cut, which was to
   * take the trade whole): its stop is placed again (positions/close-ended.ts). Run beside the queue: it waits
   * for the contract's exit lock, which the close may still hold.
   */
  #stopsLeftOpen(userId: string, order: BrokerOrder, fill: BrokerFill, allocations: readonly Allocation[]): void {
    const book = this.#books.get(userId)
    if (!book) return
    for (const { trade, closed } of allocations) {
      // No stop of its own (a late part), or its stop still working: nothing to place again.
      if (closed || trade.stop_order_id === null || !isDone(book.orders.get(trade.stop_order_id)?.status ?? 'Canceled')) continue
      const bracket = { id: trade.id, side: trade.side, stop_order_id: trade.stop_order_id, target_order_id: trade.target_order_id, contractId: fill.contractId, recordId: trade.alert_record_id }
      void stopAfterCloseLeftOpen(this.options.db, book.session, userId, order, bracket).catch((error: unknown) =>
        this.options.logger.warn({ userId, tradeId: trade.id, orderId: order.id, err: error }, 'no stop placed again for a trade a close left open'),
      )
    }
  }

  /**
   * A pair whose send ended with an unknown outcome is given its grace (the broker may still carry it out: a stop
   * beside it would close more than is held); once the grace is over, a contract it did not cover gets its stop
   * from a check then (cover-gaps.ts), not only at the next reconciliation's pass.
   */
  async #checkStopsAfterGrace(userId: string, recordId: number): Promise<void> {
    if (!(await pairsInFlight(this.options.db, recordId, PAIR_IN_FLIGHT_MS))) return
    setTimeout(() => {
      this.coverGaps(userId).catch((error: unknown) => this.options.logger.warn({ userId, recordId, err: error }, 'stops not checked after a pair\'s grace (checked on the next pass)'))
    }, PAIR_IN_FLIGHT_MS).unref()
  }

  /**
   * An entry fill its record's closed trade did not count (it filled after the trade's bracket closed it):
   * its contracts open a part of their own with a close at the market written beside it
   * (repositories/late-entry-fills.ts), carried out now rather than at the next flatten sweep.
   */
  async #latePart(userId: string, fill: EntryFill): Promise<void> {
    const part = await openLatePart(this.options.db, fill)
    if (!part) return
    this.options.logger.warn({ userId, tradeId: part.tradeId, recordId: fill.recordId, fillId: fill.fillId, quantity: part.quantity }, 'an entry fill after its trade had closed: its contracts are closed at the market')
    this.options.closeSoon?.(userId)
  }

  /**
   * Each trade's bracket at the broker follows what is left of it: a trade closed in full has its legs still
   * working cancelled (they would open a position of their own), a trade closed in part has its other legs
   * shrunk to what is left (`resizeOrder`: the leg's whole quantity, its own fills on the trade included; never grown).
   * A broker that refuses says so on the trade (and the log): a reconciliation with the broker puts it right.
   */
  async #followLegs(userId: string, fill: BrokerFill, allocations: readonly Allocation[]): Promise<void> {
    const book = this.#books.get(userId)
    if (!book) return
    const live = (id: number | null): id is number => id !== null && book.orders.has(id) && !isDone((book.orders.get(id) as BrokerOrder).status)
    for (const { trade, quantity, closed } of allocations) {
      const legs = [trade.stop_order_id, trade.target_order_id].filter(live)
      try {
        if (closed) {
          for (const id of legs) await cancelQuietly(book.session, id)
          // The entry's rest still working would fill with no stop (its bracket covered the part filled): cancelled with it.
          for (const id of workingEntriesOf(book, trade.alert_record_id)) await cancelQuietly(book.session, id)
        } else {
          // With target pairs claimed (found at the broker or not: refused, their answers lost), the trade's
          // stops are sized by followTargets (targets/balance-exits.ts), every `.sl` of the record counted and
          // merged: the stored one resized here alone would sit beside a lone or gap stop and exceed the position.
          const pairs = await hasTargetPairs(this.options.db, trade.alert_record_id)
          const left = Number(trade.quantity) - quantity
          const resized = legs.filter((id) => id !== fill.orderId && !(pairs && id === trade.stop_order_id))
          const versions = await book.session.orderVersions(resized)
          for (const id of resized) {
            const whole = (await filledOnTrade(this.options.db, trade.id, id)) + left
            // An exit fill only shrinks a leg: one shrunk already for a close whose rest still works stays so
            // (grown, it would close the rest's contracts too); a close ended short grows it back (close-ended.ts).
            const now = versions.get(id)?.quantity
            if (now === undefined || now > whole) await book.session.resizeOrder(id, whole)
          }
        }
      } catch (error) {
        if (!(error instanceof BrokerError)) throw error
        const note = `the trade's bracket could not be ${closed ? 'cancelled' : 'resized'} at the broker: ${error.message}`
        this.options.logger.warn({ userId, tradeId: trade.id, reason: error.message }, note)
        await noteTrade(this.options.db, trade.id, note)
      }
      const context = this.#targetContext(userId)
      if (trade.alert_record_id === null || !context) continue
      try {
        await followTargets(context, trade.alert_record_id, fill, closed)
      } catch (error) {
        if (!(error instanceof BrokerError)) throw error
        const note = `the trade's targets could not follow it at the broker: ${error.message}`
        this.options.logger.warn({ userId, tradeId: trade.id, reason: error.message }, note)
        await noteTrade(this.options.db, trade.id, note)
      }
    }
  }

  /** The user's session and its live orders, for carrying out several targets and breakeven (targets/keep-targets.ts). */
  #targetContext(userId: string): TargetContext | null {
    const book = this.#books.get(userId)
    if (!book) return null
    return {
      db: this.options.db,
      logger: this.options.logger,
      userId,
      session: book.session,
      isLive: (orderId) => { const order = book.orders.get(orderId); return order !== undefined && !isDone(order.status) },
      orders: () => book.orders.values(),
    }
  }
}

/** The record's entry orders still working at the broker (its limit, a remainder sent at the market), as last told. */
function workingEntriesOf(book: UserBook, recordId: number | null): number[] {
  if (recordId === null) return []
  return [...book.orders.values()].flatMap((order) => {
    const tag = parseOrderTag(order.tag)
    return tag?.leg === 'entry' && tag.recordId === recordId && !isDone(order.status) ? [order.id] : []
  })
}

/** The order as a stop or target of its record's entry (not one of several targets' pairs, nor a remainder's), or null. */
function entryLegOf(order: BrokerOrder): EntryLeg | null {
  const tag = parseOrderTag(order.tag)
  if (tag === null || tag.leg === 'entry' || tag.level !== undefined || tag.remainder !== undefined || order.parentId === null) return null
  return { recordId: tag.recordId, leg: tag.leg, orderId: order.id, entryOrderId: order.parentId }
}

/** The account an event names (a fill names none: the adapter scoped it by its order). */
const accountOf = (event: BrokerEvent): number | undefined =>
  event.type === 'order' ? event.order.accountId : event.type === 'position' ? event.position.accountId : event.type === 'cashBalance' ? event.accountId : undefined
