import type { Side } from '@signals/db'
import { compare, parseDecimal, subtract } from '@signals/instruments'
import type { BrokerSession } from '../../feeds/broker/broker-adapter.ts'

/**
 * How far `next` is tighter than `current` for a trade's stop: up for a long's, down for a short's
 * (negative: looser). Exact decimals.
 */
function tighterBy(side: Side, current: string, next: string) {
  return side === 'LONG' ? subtract(parseDecimal(next), parseDecimal(current)) : subtract(parseDecimal(current), parseDecimal(next))
}

/**
 * Moves one stop to `stopPrice` only when that is tighter than where it stands at the broker by at least
 * `atLeast` (a price distance; more than 0 in any case): never loosened, whoever moved it last. The read and
 * the move are one change in the order's own queue where the session has one (`moveStop`), so a modify
 * alert's move cannot come between them. Returns the price moved to, or null (left: already as tight, or
 * its price unknown).
 */
export async function tightenStop(session: Pick<BrokerSession, 'moveStop' | 'repriceOrder' | 'orderVersions'>, orderId: number, move: { side: Side; stopPrice: string; atLeast?: string }): Promise<string | null> {
  const decide = (current: string | null): string | null => {
    if (current === null) return null
    const gain = tighterBy(move.side, current, move.stopPrice)
    if (compare(gain, parseDecimal('0')) <= 0) return null
    return move.atLeast !== undefined && compare(gain, parseDecimal(move.atLeast)) < 0 ? null : move.stopPrice
  }
  if (session.moveStop) return session.moveStop(orderId, decide)
  if (!session.repriceOrder) return null
  const next = decide((await session.orderVersions([orderId])).get(orderId)?.stopPrice ?? null)
  if (next !== null) await session.repriceOrder(orderId, { stopPrice: next })
  return next
}
