import { parseDecimal, toFixed } from '@signals/instruments'

type Side = 'LONG' | 'SHORT'
type Direction = 'up' | 'down'

/** A price on the contract's tick grid, rounded `direction`, as exact text with the tick's decimals. */
export function roundToTick(price: string, tickSize: string, direction: Direction): string {
  const p = parseDecimal(price)
  const t = parseDecimal(tickSize)
  const scale = Math.max(p.scale, t.scale)
  const units = p.units * 10n ** BigInt(scale - p.scale)
  const tick = t.units * 10n ** BigInt(scale - t.scale)
  let ticks = units / tick
  const exact = ticks * tick === units
  // BigInt division truncates toward zero; step to the floor or ceiling from there.
  if (!exact && direction === 'down' && units < 0n) ticks -= 1n
  if (!exact && direction === 'up' && units > 0n) ticks += 1n
  return toFixed({ units: ticks * tick, scale }, t.scale)
}

/**
 * Stop and target go onto the tick grid toward the entry: a stop is never further away than the alert
 * asked (the loss sized for is never exceeded) and a target never beyond it. A limit entry rounds to
 * the side that never pays more than the alert's price.
 */
const towardEntry = {
  LONG: { stop: 'up', target: 'down', limit: 'down' },
  SHORT: { stop: 'down', target: 'up', limit: 'up' },
} as const satisfies Record<Side, Record<'stop' | 'target' | 'limit', Direction>>

export interface OrderPrices {
  entryType: 'Market' | 'Limit'
  /** The price sized at: the limit price, else the alert's entry price (null when it gave none). */
  entryPrice: string | null
  stopPrice: string | null
  targetPrice: string | null
}

/** True when the original payload asks for a limit entry (`orderType` / `order_type` "limit", PickMyTrade "LMT"). */
export function asksForLimit(raw: unknown): boolean {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return false
  const fields = raw as Record<string, unknown>
  const type = fields.orderType ?? fields.order_type
  return typeof type === 'string' && ['limit', 'lmt'].includes(type.trim().toLowerCase())
}

/**
 * Whether a record's entry is a limit: what ingest read (`entry_order`, however the sender spelled or
 * wrapped the field), else, for records written before ingest published it, the payload's own field.
 */
export function isLimitEntry(raw: unknown, entryOrder: { type: string } | null): boolean {
  return entryOrder?.type === 'limit' || asksForLimit(raw)
}

/** The entry's prices on the tick grid. A limit is only honoured with an entry price to put it at. */
export function planPrices(
  alert: { side: Side; entryPrice: string | null; stop: string | null; target: string | null; limit: boolean },
  tickSize: string,
): OrderPrices {
  const rules = towardEntry[alert.side]
  const limit = alert.limit && alert.entryPrice !== null
  return {
    entryType: limit ? 'Limit' : 'Market',
    entryPrice: limit && alert.entryPrice !== null ? roundToTick(alert.entryPrice, tickSize, rules.limit) : alert.entryPrice,
    stopPrice: alert.stop === null ? null : roundToTick(alert.stop, tickSize, rules.stop),
    targetPrice: alert.target === null ? null : roundToTick(alert.target, tickSize, rules.target),
  }
}

/** Our tag for a record's entry order; its legs carry `.sl` and `.tp` (see BracketRequest.tag). */
export const orderTagOf = (recordId: number) => `sig-${recordId}`

/**
/**
 * A limit entry's unfilled remainder sent at the market at its deadline (issue 24 item 6), its own order:
 * `${tag}.m` with its own legs `.m.sl` / `.m.tp` when nothing of the limit had filled (the limit's legs went
 * with it); `${tag}.ma` without legs when part had filled (the limit's legs grow to cover it once it fills:
 * trade keeper). The tag says which, so a fill never has to guess.
 */
export const remainderTagOf = (entryTag: string, withLegs: boolean) => `${entryTag}.${withLegs ? 'm' : 'ma'}`

/** What a tag of ours names: the record, the order of its bracket, a target pair's number, a remainder's kind. */
export interface ParsedOrderTag {
  recordId: number
  leg: 'entry' | 'stop' | 'target'
  /** The number of one of several targets' pairs of one contract (1 the nearest; docs/decisions/targets-breakeven.md). */
  level?: number
  /** An order of a limit's rest sent at the market: `.m` with its own legs, `.ma` without (remainderTagOf). */
  remainder?: 'bracket' | 'added'
}

/**
 * The record a tag belongs to and which order of its bracket it names, or null for any other tag. One of
 * several targets' pairs (`.tp1`, `.tp2`, ..., one per contract, issue 24 item 4) is a target with its pair's number
 * as `level`; the stop paired with it at the broker (`.sl1`, ...) a stop with that `level`; an order of the remainder sent at the market (`.m`,
 * `.ma`) says `remainder` (never with several targets: such entries are not converted).
 */
export function parseOrderTag(tag: string | null): ParsedOrderTag | null {
  if (tag === null) return null
  const match = /^sig-(\d{1,15})(\.ma?)?(?:\.(sl|tp)([1-9]\d{0,3})?)?$/.exec(tag)
  if (!match) return null
  const leg: ParsedOrderTag['leg'] = match[3] === 'sl' ? 'stop' : match[3] === undefined ? 'entry' : 'target'
  const parsed: ParsedOrderTag = match[4] === undefined ? { recordId: Number(match[1]), leg } : { recordId: Number(match[1]), leg, level: Number(match[4]) }
  if (match[2] === undefined) return parsed
  // A remainder added without legs has none (`.ma.sl` is no tag of ours), and a remainder has no levels.
  if ((match[2] === '.ma' && leg !== 'entry') || match[4] !== undefined) return null
  return { ...parsed, remainder: match[2] === '.m' ? 'bracket' : 'added' }
}
