import { absolute, compare, type Decimal, subtract } from '@signals/instruments'
import { stopRiskFrom, ticksIn, type EntryPrices, type StopRisk } from './entry-prices.ts'
import { decimal, plain } from './money.ts'
import { refuse, type Refusal } from './refusal.ts'
import type { SizingInput } from './sizing-types.ts'

/** Where the entry fills and, with a stop, what one contract loses there. */
export interface Fill {
  price: Decimal
  stop: StopRisk | null
}

const plural = (count: bigint | number, word: string) => `${count} ${word}${count === 1n || count === 1 ? '' : 's'}`

/**
 * The price the entry fills at, checked against the broker's market: a market entry fills at the market
 * (never the alert's price), a limit at its limit. Refused: no usable market price (a limit needs one too,
 * to see the stop is not already passed), the market at or through the stop, a market entry whose market is
 * at or beyond its target or too far from the alert's entry, and a stop closer than `minStopTicks` to the
 * fill; a stop or stop-limit entry whose trigger the market has passed (`stop_entry_passed`).
 */
export function fillOf(input: SizingInput, prices: EntryPrices): Fill | Refusal {
  const { alert, contract, market, config } = input
  const limit = alert.orderType === 'limit' && prices.entry !== null
  if (market.price === null) {
    const why = limit ? 'a limit entry is checked against the market before it is placed' : "a market entry is sized from the broker's price, never the alert's"
    return refuse('no_market_price', `There is no usable market price for ${contract.root} (${market.reason}), and ${why}.`)
  }
  const now = decimal(market.price)
  const direction = alert.side === 'LONG' ? 1 : -1
  if (prices.stop !== null && compare(now, prices.stop) !== direction) {
    return refuse('market_past_stop', `The market (${plain(now)}) is already at or ${direction === 1 ? 'below' : 'above'} the stop (${plain(prices.stop)}) of this ${alert.side} entry.`)
  }
  const trigger = alert.stopTrigger ?? null
  if (trigger !== null && compare(decimal(trigger), now) !== direction) {
    return refuse('stop_entry_passed', `The ${alert.side} stop entry's trigger (${plain(decimal(trigger))}) is at or ${direction === 1 ? 'below' : 'above'} the market (${plain(now)}): it would fill at once, beyond the price it was sized at.`)
  }
  if (!limit) {
    const beyond = marketBeyond(input, prices, now, direction)
    if (beyond) return beyond
  }
  const price = limit ? (prices.entry as Decimal) : now
  if (prices.stop === null) return { price, stop: null }
  const stop = stopRiskFrom(price, prices.stop, contract)
  const minimum = config.limits.minStopTicks
  if (stop.ticks < BigInt(minimum)) {
    return refuse('stop_too_close', `The stop (${plain(prices.stop)}) is ${plural(stop.ticks, 'tick')} from the price the entry fills at (${plain(price)}), closer than the ${minimum}-tick minimum.`)
  }
  return { price, stop }
}

/** A market entry whose market is at or past the target, or further from the alert's entry than allowed. */
function marketBeyond(input: SizingInput, prices: EntryPrices, now: Decimal, direction: number): Refusal | null {
  const { alert, config, contract } = input
  if (prices.target !== null && compare(prices.target, now) !== direction) {
    return refuse('market_past_target', `The market (${plain(now)}) is already at or ${direction === 1 ? 'above' : 'below'} the target (${plain(prices.target)}) of this ${alert.side} entry.`)
  }
  if (prices.entry === null) return null
  const limit = config.limits.maxEntryDistanceTicks
  const ticks = ticksIn(absolute(subtract(now, prices.entry)), decimal(contract.tickSize))
  if (ticks <= BigInt(limit)) return null
  return refuse('market_too_far', `The market (${plain(now)}) is ${plural(ticks, 'tick')} from the alert's entry (${plain(prices.entry)}), beyond the ${limit}-tick limit.`)
}
