import type { TrailingStop } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { compare, contractSpec, parseDecimal, subtract, add, multiply, toFixed } from '@signals/instruments'
import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { roundToTick } from '../entry/order-plan.ts'
import { SweepTimer } from '../entry/sweep-timer.ts'
import { trailingTradesOf, type TrailingTrade } from '../../repositories/trailing-trades.ts'
import { noteFailure } from '../../repositories/trade-targets.ts'
import { workingStops } from '../targets/find-targets.ts'
import { tightenStop } from '../targets/move-stops.ts'

export interface TrailingDeps {
  db: Kysely<Database>
  /** The sessions this instance holds, by user. */
  sessions: { session(userId: string): BrokerSession | null; heldUsers(): string[] }
  logger: Logger
  /** A quote older than this moves no stop (MARKET_PRICE_MAX_AGE_MS). */
  maxAgeMs: number
  /** Least time between two moves of one trade's stops (TRAILING_STOP_MIN_GAP_MS: the broker's rate limits). */
  minGapMs?: number
}

/**
 * Trailing stops (docs/decisions/targets-breakeven.md), carried out by the connector: each pass, for every
 * open trade with one on a session held here, the stop follows the market's exit side (the bid for a long)
 * at its distance (a fresh quote of that side only, never the last trade), once the market has reached the trigger, in steps of at least `stepTicks`, and never
 * back. Nothing is placed: every stop of the trade (the whole-position stop and each target's paired stop)
 * is moved to an absolute price, so a pass repeated changes nothing. The price the stops were last seen at is
 * remembered, so the broker is asked only when a move looks due; each stop is then read and moved in its
 * order's own queue (`tightenStop`), so a stop moved tighter elsewhere (breakeven, a modify alert) is never
 * loosened and no other change of it comes between. One trade's stops move at most once per `minGapMs`. A
 * failure is noted on the record (once per reason) and looked at again on the next pass.
 */
export class TrailingStops {
  readonly timer: SweepTimer
  /** The stop price each trade's stop was last seen at or moved to. */
  readonly #stops = new Map<number, string>()
  /** When each trade's stops last moved (the least gap between moves). */
  readonly #movedAt = new Map<number, number>()
  /** The last failure noted on each trade's record: the same one is not noted again every pass. */
  readonly #noted = new Map<number, string>()

  constructor(
    private readonly deps: TrailingDeps,
    intervalMs: number,
  ) {
    this.timer = new SweepTimer(() => this.pass(), intervalMs, deps.logger, 'trailing stop pass')
  }

  /** One look at the market for every trailing stop held here; returns the stops moved. */
  async pass(): Promise<{ tradeId: number; stopPrice: string }[]> {
    const moved: { tradeId: number; stopPrice: string }[] = []
    const trades = await trailingTradesOf(this.deps.db, this.deps.sessions.heldUsers())
    const open = new Set(trades.map((trade) => trade.id))
    for (const map of [this.#stops, this.#movedAt, this.#noted]) for (const id of map.keys()) if (!open.has(id)) map.delete(id)
    for (const trade of trades) {
      const session = this.deps.sessions.session(trade.user_id)
      if (!session?.repriceOrder) continue
      try {
        const stopPrice = await this.#follow(session, trade)
        if (stopPrice !== null) moved.push({ tradeId: trade.id, stopPrice })
      } catch (error) {
        // A stop already done (filled, cancelled), a broker that refused, or this trade's own fault: looked at
        // again on the next pass, and never a reason to leave the other trades' stops where they are.
        this.#stops.delete(trade.id)
        const reason = error instanceof Error ? error.message : String(error)
        this.deps.logger.warn({ tradeId: trade.id, reason, broker: error instanceof BrokerError }, 'the trailing stop was not moved')
        if (this.#noted.get(trade.id) !== reason) {
          this.#noted.set(trade.id, reason)
          await noteFailure(this.deps.db, trade.alert_record_id, trade.id, `the trailing stop was not moved: ${reason}`).catch(() => undefined)
        }
      }
    }
    return moved
  }

  async #follow(session: BrokerSession, trade: TrailingTrade): Promise<string | null> {
    const spec = trade.root === null ? undefined : contractSpec(trade.root)
    if (!spec || trade.contract === null || trade.broker_contract_id === null) return null
    const trail = trade.trailing_stop as TrailingStop
    const long = trade.side === 'LONG'
    const market = await session.marketPrice({ id: trade.broker_contract_id, name: trade.contract }, long ? 'Sell' : 'Buy')
    // The exit side only (the bid for a long, the offer for a short), and fresh: the last trade or an old
    // quote is not where the position could be closed now.
    if (market.kind !== 'price' || market.source !== (long ? 'bid' : 'offer')) return null
    if (Date.now() - market.at.getTime() > this.deps.maxAgeMs) return null
    const price = parseDecimal(market.price)
    if (trail.triggerPrice !== null && compare(price, parseDecimal(String(trail.triggerPrice))) === (long ? -1 : 1)) return null
    const tick = parseDecimal(spec.tickSize)
    const distance = trail.distanceTicks !== null ? multiply(tick, parseDecimal(String(trail.distanceTicks))) : parseDecimal(String(trail.distancePrice))
    const raw = long ? subtract(price, distance) : add(price, distance)
    // On the grid at least the distance away from the market: down for a long's stop, up for a short's.
    const candidate = roundToTick(toFixed(raw, raw.scale), spec.tickSize, long ? 'down' : 'up')
    const step = multiply(tick, parseDecimal(String(trail.stepTicks)))
    const gainOver = (current: string) => (long ? subtract(parseDecimal(candidate), parseDecimal(current)) : subtract(parseDecimal(current), parseDecimal(candidate)))
    const remembered = this.#stops.get(trade.id)
    if (remembered !== undefined && compare(gainOver(remembered), step) < 0) return null
    if (Date.now() - (this.#movedAt.get(trade.id) ?? 0) < (this.deps.minGapMs ?? 0)) return null
    // A move is due by what was remembered: each stop is read at the broker and moved in one change of its
    // queue, since breakeven or a modify alert may have moved it tighter since (the remembered price would loosen it).
    const stops = await workingStops(session, trade.alert_record_id, trade.stop_order_id)
    let moved = false
    for (const stop of stops) {
      if ((await tightenStop(session, stop, { side: trade.side, stopPrice: candidate, atLeast: toFixed(step, step.scale) })) !== null) moved = true
    }
    this.#stops.set(trade.id, candidate)
    if (!moved) return null
    this.#movedAt.set(trade.id, Date.now())
    return candidate
  }
}
