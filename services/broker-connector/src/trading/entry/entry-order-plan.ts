import type { EntryOrder } from '@signals/contracts'
import type { BracketRequest } from '../../feeds/broker/broker-adapter.ts'
import { roundToTick, type OrderPrices } from './order-plan.ts'

type Side = 'LONG' | 'SHORT'

/** What a stop or stop-limit entry adds to the bracket request: its type, trigger and time in force. */
export type EntryOrderFields = Pick<BracketRequest, 'entryType' | 'entryPrice' | 'entryStopPrice' | 'timeInForce'>

/** The record's `entry_order` when it is one (ingest checked it; a record written before has none). */
export function entryOrderOf(stored: unknown): EntryOrder | null {
  if (stored === null || typeof stored !== 'object') return null
  const order = stored as Partial<EntryOrder>
  return typeof order.type === 'string' ? (order as EntryOrder) : null
}

/**
 * A stop or stop-limit entry, or one with a time in force, as the broker takes it (issue 24, item 6). The
 * trigger goes on the tick grid the way that never enters earlier than asked (a buy stop up, a sell stop
 * down); a stop-limit's limit as a limit entry's (never paying more). Sized (`prices.entryPrice`) at the
 * trigger for a stop entry, at the limit for a stop-limit: where it fills, as a limit is sized at its limit.
 * Null for an order the plain plan already covers (market or limit without a time in force).
 */
export function entryOrderFields(order: EntryOrder | null, side: Side, prices: OrderPrices, limitPrice: string | null, tickSize: string): EntryOrderFields | null {
  if (order === null) return null
  const timeInForce = order.timeInForce ?? 'Day'
  if (order.type === 'market' || order.type === 'limit') return { entryType: prices.entryType, entryPrice: prices.entryType === 'Limit' ? prices.entryPrice : null, timeInForce }
  if (order.stopPrice === null) return null
  const trigger = roundToTick(String(order.stopPrice), tickSize, side === 'LONG' ? 'up' : 'down')
  if (order.type === 'stop') return { entryType: 'Stop', entryPrice: null, entryStopPrice: trigger, timeInForce }
  if (limitPrice === null) return null
  return { entryType: 'StopLimit', entryPrice: roundToTick(limitPrice, tickSize, side === 'LONG' ? 'down' : 'up'), entryStopPrice: trigger, timeInForce }
}

/** The price a stop or stop-limit entry is sized at (its trigger, its limit), or null for other entries. */
export function sizingPriceOf(fields: EntryOrderFields | null): string | null {
  if (fields === null) return null
  if (fields.entryType === 'Stop') return fields.entryStopPrice ?? null
  return fields.entryType === 'StopLimit' ? fields.entryPrice : null
}
