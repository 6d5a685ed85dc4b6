import { computePnl } from '@signals/instruments'
import type { Database, Kysely, Side, TradeResult } from '@signals/db'
import { isDone, type BrokerEvent, type BrokerFill, type BrokerOrder, type BrokerSession, type BrokerVenue } from '../broker/broker-adapter.ts'
import { pointValueOf, type Logger } from '../consumers/close-trades.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import {
  applyEntryFill,
  closeTradeAtFill,
  lockRecordTrade,
  lockTradesExitedBy,
  recordBrokerExit,
  type BrokerScope,
  type ExitTrade,
} from '../repositories/broker-trades.ts'
import { setAsideEvent } from '../repositories/set-aside-events.ts'
import { isOutage, setAsideNote } from './set-aside.ts'

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
  cashBalance: string | null
}

/**
 * Trades from the broker's fills (DESIGN decision 17), fed by the feed manager's session hooks: the entry
 * order's fill opens the record's trade; a bracket leg's fill closes it (SL / TP at the fill price); a
 * fill without our tag in the other direction (a liquidation) closes what is still open as Session End,
 * or keeps the broker's exit beside a trade a result alert closed. One user's events are applied in the
 * order received; every write is conditional, so a snapshot replayed after a reconnect changes nothing.
 */
export class TradeKeeper {
  readonly #books = new Map<string, UserBook>()
  readonly #queues = new Map<string, Promise<void>>()
  /** Fills that arrived before their session was handed over: applied right after its snapshot. */
  readonly #early = new Map<string, BrokerFill[]>()

  constructor(private readonly options: { db: Kysely<Database>; logger: Logger }) {}

  /**
   * A new session: its snapshot replaces what was known, and its fills are applied (idempotently), each on
   * its own: one that cannot be applied is set aside, and the session opens. A dependency down (Postgres)
   * rejects instead: the session is opened again later and the fill replayed, never skipped.
   */
  sessionOpened(userId: string, session: BrokerSession, venue: BrokerVenue): Promise<void> {
    const { snapshot } = session
    const scope = { ...venue, accountId: snapshot.account.id }
    const book: UserBook = { session, scope, setAside: 0, orders: new Map(snapshot.orders.map((order) => [order.id, order])), filled: new Set(), cashBalance: snapshot.cashBalance }
    this.#books.set(userId, book)
    const fills = [...snapshot.fills, ...(this.#early.get(userId) ?? [])].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id)
    this.#early.delete(userId)
    return this.#serial(userId, async () => {
      for (const fill of fills) await this.#applyOrSetAside(userId, book, fill)
      // The snapshot lists the day's done orders too: those whose fills are applied are dropped at once.
      for (const order of [...book.orders.values()]) this.#prune(book, order.id)
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
      return
    }
    if (event.type === 'cashBalance') {
      if (book) book.cashBalance = event.amount
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

  /** The user's session ended: what it told is dropped (the next snapshot tells it again). */
  sessionClosed(userId: string): void {
    this.#books.delete(userId)
  }

  /** Waits for every event handed over so far (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.#queues.values()])
  }

  #serial(userId: string, work: () => Promise<void>): Promise<void> {
    const next = (this.#queues.get(userId) ?? Promise.resolve()).then(work, work)
    const settled = next.catch(() => undefined)
    this.#queues.set(userId, settled)
    void settled.finally(() => {
      if (this.#queues.get(userId) === settled) this.#queues.delete(userId)
    })
    return next
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

  /** A fill of the order was applied: a filled order is done with. */
  #fillApplied(userId: string, orderId: number): void {
    const book = this.#books.get(userId)
    if (!book?.orders.has(orderId)) return
    book.filled.add(orderId)
    this.#prune(book, orderId)
  }

  async #applyFill(userId: string, scope: BrokerScope, fill: BrokerFill): Promise<void> {
    await this.#applyFillToTrades(userId, scope, fill)
    this.#fillApplied(userId, fill.orderId)
  }

  /** Applies a fill; one that can never be applied is kept aside with the reason (a dependency down is thrown). */
  async #applyOrSetAside(userId: string, book: UserBook, fill: BrokerFill): Promise<void> {
    try {
      await this.#applyFill(userId, book.scope, fill)
    } catch (error) {
      if (isOutage(error)) throw error
      const reason = error instanceof Error ? error.message : String(error)
      await setAsideEvent(this.options.db, { userId, scope: book.scope, entityType: 'fill', entityId: fill.id, orderId: fill.orderId, event: fill, reason })
      book.setAside++
      this.options.logger.warn({ userId, fillId: fill.id, orderId: fill.orderId, accountId: book.scope.accountId, reason }, 'broker event set aside')
      this.#fillApplied(userId, fill.orderId)
    }
  }

  async #applyFillToTrades(userId: string, scope: BrokerScope, fill: BrokerFill): Promise<void> {
    const order = await this.#orderOf(userId, fill.orderId)
    const tag = parseOrderTag(order?.tag ?? null)
    if (tag?.leg === 'entry') {
      const legId = (suffix: string) => [...(this.#books.get(userId)?.orders.values() ?? [])].find((o) => o.tag === `${order?.tag}${suffix}`)?.id ?? null
      const tradeId = await applyEntryFill(this.options.db, {
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
      })
      if (tradeId !== null) this.options.logger.info({ userId, tradeId, recordId: tag.recordId, price: fill.price }, 'trade opened from the entry fill')
      return
    }
    if (tag) return this.#closeByLeg(userId, fill, tag.recordId, tag.leg === 'stop' ? 'SL' : 'TP')
    return this.#closeByLiquidation(userId, scope, fill)
  }

  async #closeByLeg(userId: string, fill: BrokerFill, recordId: number, result: TradeResult): Promise<void> {
    await this.options.db.transaction().execute(async (trx) => {
      const trade = await lockRecordTrade(trx, recordId, userId)
      if (trade) await this.#exit(trx, trade, fill, result)
    })
  }

  async #closeByLiquidation(userId: string, scope: BrokerScope, fill: BrokerFill): Promise<void> {
    const side: Side = fill.action === 'Sell' ? 'LONG' : 'SHORT'
    await this.options.db.transaction().execute(async (trx) => {
      const trades = await lockTradesExitedBy(trx, { userId, scope, contractId: fill.contractId, side, at: fill.timestamp })
      for (const trade of trades) await this.#exit(trx, trade, fill, 'Session End')
    })
  }

  /** Closes an open trade at the fill, or keeps the fill as the broker's exit of a closed one. */
  async #exit(trx: Kysely<Database>, trade: ExitTrade, fill: BrokerFill, result: TradeResult): Promise<void> {
    if (trade.status === 'open') {
      const pnl = computePnl({ side: trade.side, entryPrice: trade.entry_price, exitPrice: fill.price, quantity: trade.quantity, pointValue: pointValueOf(trade, this.options.logger) })
      if (await closeTradeAtFill(trx, { id: trade.id, result, price: fill.price, pnl, fillId: fill.id, at: fill.timestamp })) {
        this.options.logger.info({ tradeId: trade.id, result, price: fill.price, pnl }, 'trade closed by a broker fill')
      }
      return
    }
    if (trade.broker_exit_price === null) await recordBrokerExit(trx, trade.id, fill.price, fill.id)
  }
}

/** The account an event names (a fill names none: the adapter scoped it by its order). */
const accountOf = (event: BrokerEvent): number | undefined =>
  event.type === 'order' ? event.order.accountId : event.type === 'position' ? event.position.accountId : event.type === 'cashBalance' ? event.accountId : undefined
