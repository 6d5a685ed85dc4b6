import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { pairClaimsInContract, type PairClaim } from '../../repositories/trade-targets.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import { PAIR_IN_FLIGHT_MS } from './cover-gaps.ts'

/**
 * A close (a partial close, a source's exit) and the keeper's sends of target pairs (keep-targets.ts) do not
 * share a lock: the keeper sends each pair in two steps, the whole-position stop shrunk by the pair's
 * contract, then the pair with its own stop. A close reading the broker between the two took that contract
 * for one without a stop and sold it; the pair's stop then came for a contract no longer held (the
 * order-path model's seed -1114788195: the LONG account ended SHORT 1). So a close waits, as the stops check
 * does (cover-gaps.ts), while a pair of the user's trades in the contract is on its way (claimed, no answer
 * stored, and not listed by the broker under its tag), and is not sent when a pair was claimed or went on its
 * way while it read the broker.
 */

/** Where the close is: the user's pairs in the contract, and what the close is called in its error. */
interface CloseOfPairs {
  userId: string
  contractId: number
  contract: string
  what: string
}

/** The pairs when a close began (`noPairOnItsWay`): how many were claimed, and those without an answer that the broker listed. */
export interface PairsBefore {
  claimed: number
  listed: ReadonlySet<string>
}

const keyOf = (pair: Pick<PairClaim, 'recordId' | 'level'>) => `${pair.recordId}:${pair.level}`

/** The close's BrokerError: nothing was sent, the request waits and is tried again. */
export const pairOnItsWay = (close: CloseOfPairs): BrokerError =>
  new BrokerError('unavailable', `${close.what} waits: a target pair of a ${close.contract} trade is on its way to the broker (its contract may be without a stop for that moment, and a close now could sell it)`, null, true)

/** Before the close's cut: throws (nothing cut, the close waits) while a pair is on its way; else the pairs as they are now. */
export async function noPairOnItsWay(db: Kysely<Database>, session: Pick<BrokerSession, 'listOrders'>, close: CloseOfPairs): Promise<PairsBefore> {
  const claims = await pairClaimsInContract(db, close.userId, close.contractId, PAIR_IN_FLIGHT_MS)
  const unanswered = claims.filter((pair) => pair.onItsWay)
  const listed = new Set<string>()
  if (unanswered.length > 0) {
    // Its answer not stored yet (or lost by a crash), but its legs at the broker: sent, not on its way.
    for (const order of await session.listOrders({ fresh: true })) {
      const tag = parseOrderTag(order.tag)
      if ((tag?.leg === 'target' || tag?.leg === 'stop') && tag.level !== undefined) listed.add(keyOf({ recordId: tag.recordId, level: tag.level }))
    }
    if (unanswered.some((pair) => !listed.has(keyOf(pair)))) throw pairOnItsWay(close)
  }
  return { claimed: claims.length, listed }
}

/**
 * After the close's room was read from the broker, before its send: true when a pair was claimed since
 * `before`, or is on its way and was not listed then (the room read may have counted its contract as one
 * without a stop): the close is not sent.
 */
export async function pairMovedSince(db: Kysely<Database>, close: CloseOfPairs, before: PairsBefore): Promise<boolean> {
  const claims = await pairClaimsInContract(db, close.userId, close.contractId, PAIR_IN_FLIGHT_MS)
  return claims.length > before.claimed || claims.some((pair) => pair.onItsWay && !before.listed.has(keyOf(pair)))
}
