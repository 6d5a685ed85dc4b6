import type { TrailingStop } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { compare, contractSpec, parseDecimal, subtract, add, multiply, toFixed } from '@signals/instruments'
import { BrokerError, type BrokerSession } from '../broker/broker-adapter.ts'
import type { Logger } from '../consumers/close-trades.ts'
import { roundToTick } from '../entry/order-plan.ts'
import { SweepTimer } from '../entry/sweep-timer.ts'
import { trailingTradesOf, type TrailingTrade } from '../repositories/trailing-trades.ts'

export interface TrailingDeps {
  db: Kysely<Database>
  /** The sessions this instance holds, by user. */
  sessions: { session(userId: string): BrokerSession | null; heldUsers(): string[] }
  logger: Logger
  /** A quote older than this moves no stop (MARKET_PRICE_MAX_AGE_MS). */
  maxAgeMs: number
}

/**
 * Trailing stops (docs/decisions/targets-breakeven.md), carried out by the connector: each pass, for every
 * open trade with one on a session held here, the stop follows the market's exit side (the bid for a long)
 * at its distance (a fresh quote of that side only, never the last trade), once the market has reached the trigger, in steps of at least `stepTicks`, and never
 * back. Nothing is placed: the trade's own stop is moved (`repriceOrder`), an absolute price, so a pass
 * repeated changes nothing. The price each stop was last seen at is remembered, so the broker is asked for
 * it only when a move looks due (and then always, so a stop moved tighter elsewhere is never loosened).
 */
export class TrailingStops {
  readonly timer: SweepTimer
  /** The stop price each trade's stop was last seen at or moved to. */
  readonly #stops = new Map<number, string>()

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
    for (const id of this.#stops.keys()) if (!open.has(id)) this.#stops.delete(id)
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
    // A move is due by what was remembered: the stop is read at the broker first, since breakeven or a modify
    // alert may have moved it tighter since (moving it by the remembered price would loosen it).
    const current = (await session.orderVersions([trade.stop_order_id])).get(trade.stop_order_id)?.stopPrice ?? null
    if (current === null) return null
    this.#stops.set(trade.id, current)
    if (compare(gainOver(current), step) < 0) return null
    await session.repriceOrder!(trade.stop_order_id, { stopPrice: candidate })
    this.#stops.set(trade.id, candidate)
    return candidate
  }
}
