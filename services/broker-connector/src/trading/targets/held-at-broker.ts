import type { Database, Kysely } from '@signals/db'
import { filledOnTrade } from '../../repositories/trade-exits.ts'
import type { FoundTarget } from './find-targets.ts'

/**
 * What the broker holds of a trade now: its quantity as the database has applied it, less the contracts of
 * pairs the broker shows filled whose fills the keeper has not applied yet (they are closed at the broker;
 * counting them would let the whole-position stop or a partial close's cut cover contracts no longer held).
 * Never below 0.
 */
export async function heldAtBroker(db: Kysely<Database>, tradeId: number, applied: number, pairs: readonly FoundTarget[]): Promise<number> {
  let inFlight = 0
  for (const pair of pairs.filter((pair) => pair.closedAtBroker)) {
    const legsApplied = (await filledOnTrade(db, tradeId, pair.orderId)) + (pair.stop === null ? 0 : await filledOnTrade(db, tradeId, pair.stop.orderId))
    inFlight += Math.max(pair.quantity - legsApplied, 0)
  }
  return Math.max(applied - inFlight, 0)
}
