import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerOrder, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { targetTrades } from '../../repositories/exit-targets.ts'
import { closePutBack, markClosePutBack, noteCloseOrderEnded } from '../../repositories/partial-closes.ts'
import { hasTargetPairs } from '../../repositories/trade-targets.ts'
import { growBracketBack, type BracketTrade } from '../targets/bracket-for-close.ts'
import { withExitLock } from './exit-lock.ts'
import { flattenIdOfCloseTag } from './close-tag.ts'

/** The close's request (its id, and its contract: the exit lock's name), or null when the tag is not a close's of the user. */
async function closeRequestOf(db: Kysely<Database>, userId: string, order: BrokerOrder): Promise<{ id: number; contract: string } | null> {
  const flattenId = flattenIdOfCloseTag(order.tag)
  if (flattenId === null) return null
  const request = await db.selectFrom('flatten_requests').select('contract').where('id', '=', flattenId).where('user_id', '=', userId).executeTakeFirst()
  return request ? { id: flattenId, contract: request.contract } : null
}

/** How many times a put-back waits its turn for the exit lock (30 s each, exit-lock.ts) before it gives up and says so. */
const LOCK_TRIES = 10

/**
 * A partial close's (or a source's exit's) order that the broker accepted and then ended short of its quantity
 * (rejected after its id, cancelled by the trader, expired, its rest cancelled): the brackets shrunk or cancelled
 * for it are put back (targets/bracket-for-close.ts: capped by what the broker's position leaves without a stop),
 * and the trade and its record say why. Every open bracket trade of ours on the side it closed is looked at: one
 * it did not cut is already whole and changes nothing. Trades with target pairs are the stops check's
 * (cover-gaps.ts). The request's outcome says how the order ended. Holds the contract's exit lock, waiting for the
 * close that may still hold it, and waiting again (LOCK_TRIES) rather than leaving the cut for good. Done once per
 * order (`put_back_orders`): called for the order's end as heard, and for each ended close a session's snapshot
 * lists (the order may have ended while the connector was away).
 */
export async function putBackAfterCloseEnded(db: Kysely<Database>, session: BrokerSession, userId: string, account: BrokerScope, order: BrokerOrder): Promise<void> {
  if (order.status === 'Filled') return
  const request = await closeRequestOf(db, userId, order)
  // Put back already (the order's end heard live, then listed again by a session's snapshot): never twice.
  if (request === null || (await closePutBack(db, request.id, order.id))) return
  const [versions, fills] = await Promise.all([session.orderVersions([order.id]), session.listFills()])
  const quantity = versions.get(order.id)?.quantity ?? 0
  const filled = fills.filter((fill) => fill.orderId === order.id).reduce((sum, fill) => sum + fill.quantity, 0)
  if (quantity > 0 && filled >= quantity) return
  const side = order.action === 'Sell' ? 'LONG' : 'SHORT'
  const why = `the partial close (order ${order.id}) ended ${order.status} at the broker with ${filled} of ${quantity} filled`
  // The request's outcome said "sent": it says what became of the order too.
  await noteCloseOrderEnded(db, request.id, why)
  const putBack = () =>
    withExitLock(db, userId, request.contract, 'the put-back of a close ended unfilled', async (locked) => {
      if (await closePutBack(locked, request.id, order.id)) return
      const trades = await targetTrades(locked, { userId, account, contractId: order.contractId, side, signalAt: new Date() })
      for (const trade of trades) {
        if (await hasTargetPairs(locked, trade.alert_record_id)) continue
        await growBracketBack(locked, session, { id: trade.id, side: trade.side, stop_order_id: trade.stop_order_id, target_order_id: trade.target_order_id, contractId: order.contractId }, why, true)
      }
      await markClosePutBack(locked, request.id, order.id)
    })
  // The lock held longer than a wait (a close whose broker requests hang): waited for again, never dropped silently.
  for (let attempt = 1; ; attempt++) {
    try {
      return await putBack()
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      if (attempt >= LOCK_TRIES) {
        await noteCloseOrderEnded(db, request.id, `what was cut for it was NOT put back (${error.message}): check its trades' stops at the broker`)
        throw error
      }
    }
  }
}

/**
 * A close's fill that left open a bracket trade whose stop is not working: the cut cancelled its legs for a close
 * that was to take it whole, and the trade held more when the fill came (its limit entry's rest filled
 * meanwhile, with no leg left for the broker to grow). Its stop is placed again, for at most what the broker's
 * position leaves without one (growBracketBack: nothing while the close's rest still works), and the trade and
 * its record say so. Holds the contract's exit lock, waiting for the close that may still hold it.
 */
export async function stopAfterCloseLeftOpen(db: Kysely<Database>, session: BrokerSession, userId: string, order: BrokerOrder, trade: BracketTrade & { contractId: number; recordId: number | null }): Promise<void> {
  // Trades with target pairs are the stops check's (cover-gaps.ts), asked when the close is done.
  const request = await closeRequestOf(db, userId, order)
  if (request === null || (await hasTargetPairs(db, trade.recordId))) return
  const why = `the partial close (order ${order.id}) was to take the whole trade and left part of it open (more of its entry filled meanwhile)`
  await withExitLock(db, userId, request.contract, 'the stop of a trade a close left open', (locked) => growBracketBack(locked, session, trade, why, true))
}
