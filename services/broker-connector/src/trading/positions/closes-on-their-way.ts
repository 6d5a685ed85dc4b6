import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { closesSentNotDone } from '../../repositories/partial-closes.ts'
import { partialCloseTagOf, SENT_GRACE_MS } from './close-tag.ts'

/** How soon an exit waiting for a close on its way looks again (the flatten sweep's period is about as long). */
const LOOK_AGAIN_MS = 1_000

/**
 * A close (a partial close, a source's exit) whose send ended with an unknown outcome (no answer before the
 * client's time-out, a lost connection) may still be carried out by the broker, and the broker does not list
 * it yet: the position read now does not show what it will sell. An exit's liquidation, or another close,
 * sized from that read would sell the same contracts again and turn the account over (the order-path model's
 * seed -495680393 path "11": LONG 3, `pc-2` Sell 1 late, the liquidation's Sell 3, then `pc-2`: SHORT 1). So
 * they wait (nothing sent, the request looked at again in `LOOK_AGAIN_MS`) until each such close is known: the
 * broker lists its tag (filled: the position shows it; working: a liquidation cancels it with the contract's
 * orders; ended), or its grace is over (`SENT_GRACE_MS`, after which the close itself is given up: never
 * confirmed). Returns what the exit should say of the closes given up that way (empty when none).
 * `waits` false (an exit no alert asked for: the kill switch, a halt's flatten, the trader's close) goes at
 * once: the kill switch cancels every working order after it (a waiting exit would leave the position without
 * its stop), and a halt must not hold a position for a close that may never land; it says which closes it did
 * not wait for (a late one turns the account over by its quantity: the reconciliation flattens that).
 */
export async function noCloseOnItsWay(db: Kysely<Database>, session: Pick<BrokerSession, 'listOrders'>, exit: { userId: string; contract: string; flattenId: number; ownCloseSent?: boolean; what: string; waits: boolean }): Promise<string> {
  // `ownCloseSent`: the asking request's own close was sent (a source's exit joined since by a wider exit): counted too.
  const sent = await closesSentNotDone(db, exit.userId, exit.contract, exit.ownCloseSent === true ? null : exit.flattenId)
  if (sent.length === 0) return ''
  const listed = new Set((await session.listOrders({ fresh: true })).flatMap((order) => (order.tag === null ? [] : [order.tag])))
  const unknown = sent.filter((close) => !listed.has(partialCloseTagOf(close.id)))
  const now = Date.now()
  const agoOf = (close: { part_sent_at: Date }) => Math.round((now - close.part_sent_at.getTime()) / 1000)
  const inGrace = (close: { part_sent_at: Date }) => now - close.part_sent_at.getTime() < SENT_GRACE_MS
  const waiting = exit.waits ? unknown.find(inGrace) : undefined
  if (waiting) {
    throw new BrokerError(
      'unavailable',
      `${exit.what} waits for the partial close ${partialCloseTagOf(waiting.id)} sent ${agoOf(waiting)} s ago whose outcome is unknown (the broker does not list it yet): sent now, both could sell the same contracts; it waits at most ${SENT_GRACE_MS / 1000} s from the close's send`,
      LOOK_AGAIN_MS,
      true,
    )
  }
  return unknown
    .map((close) =>
      inGrace(close)
        ? `; the partial close ${partialCloseTagOf(close.id)} sent ${agoOf(close)} s ago is not confirmed by the broker yet (its outcome is unknown) and ${exit.what} did not wait for it: if the broker carries it out after all, check the ${exit.contract} position`
        : `; the partial close ${partialCloseTagOf(close.id)} was never confirmed by the broker (past its ${SENT_GRACE_MS / 1000} s): if the broker carries it out after all, check the ${exit.contract} position`,
    )
    .join('')
}
