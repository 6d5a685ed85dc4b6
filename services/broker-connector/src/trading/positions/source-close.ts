import { exitSideOf } from '@signals/contracts'
import type { Database, Kysely, Side } from '@signals/db'
import type { BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { TargetTrade } from '../../repositories/exit-targets.ts'
import type { PendingFlatten } from '../../repositories/flatten-requests.ts'
import { markPartSent } from '../../repositories/partial-closes.ts'
import { noPairOnItsWay, pairMovedSince, pairOnItsWay } from '../targets/pairs-on-their-way.ts'
import { makeRoomForClose, putBackAfterRefusedClose, roomForClose, type CutForClose } from '../targets/room-for-close.ts'
import { withExitLock } from './exit-lock.ts'
import { partialCloseTagOf } from './close-tag.ts'
import { lookForSent, putBackUnsent } from './partial-close.ts'

/**
 * A source's exit in a contract where other sources' trades (or the spec route's) are open on the same side
 * (issue 22 item 4, docs/decisions/signal-sources.md): a Market closing order of the exit's trades' quantity
 * (at most the position), under our partial-close tag, marked before it leaves so a crash or a redelivery
 * never sends it twice. Its fill goes to the trades asked to exit first (exit-allocation), and their legs
 * are cancelled by the trade keeper; the other trades keep their quantity and bracket. A trade of the exit
 * with target pairs has them cut first (makeRoomForClose, as a partial close does): between the close's fill
 * and the keeper's cancel, its stops would otherwise close the other trades' contracts. Not carried out (a
 * refusal, a wait): what was cut is put back; an unknown outcome is only looked for.
 */
export async function closeSourceTrades(
  db: Kysely<Database>,
  session: BrokerSession,
  exit: { flatten: PendingFlatten; contract: { id: number; name: string }; held: Side; netPos: number; trades: readonly TargetTrade[] },
): Promise<string> {
  const { flatten, contract, held } = exit
  const tag = partialCloseTagOf(flatten.id)
  const ours = exit.trades.filter((trade) => trade.side === held).reduce((sum, trade) => sum + Number(trade.quantity), 0)
  const quantity = Math.min(Math.abs(exit.netPos), ours)
  if (quantity === 0) return `nothing of this source's ${held} trades is left to close in ${contract.name}`
  // Its cut and send are exclusive with the stops check of the contract (which would take the cut for a gap).
  return withExitLock(db, flatten.user_id, contract.name, "the source's exit", async (locked) => {
    // Not while the keeper sends a target pair (as a partial close: pairs-on-their-way.ts).
    const pairs = { userId: flatten.user_id, contractId: contract.id, contract: contract.name, what: "the source's exit" }
    const pairsBefore = await noPairOnItsWay(locked, session, pairs)
    const cut: CutForClose[] = []
    const send = { marked: false, sending: false }
    try {
      const leftToKeeper = await makeRoomForClose(locked, session, flatten.user_id, exit.trades.filter((trade) => trade.side === held), quantity, cut, contract.id)
      // Sized again from what the broker holds now, the cut made (as a partial close's).
      const room = await roomForClose(session, held, contract.id, quantity, leftToKeeper)
      if (await pairMovedSince(locked, pairs, pairsBefore)) {
        // The cut stands (grown back now, a stop could sit beside the pair on its way); the next try cuts again.
        cut.length = 0
        throw pairOnItsWay(pairs)
      }
      if (room.quantity <= 0) {
        await putBackAfterRefusedClose(locked, session, flatten.user_id, cut, "the source's exit was not carried out")
        return `nothing closed: ${room.why}`
      }
      send.marked = await markPartSent(locked, flatten.id)
      if (send.marked) {
        send.sending = true
        const { orderId } = await session.placeClosingOrder({ tag, contract, action: exitSideOf(held), quantity: room.quantity })
        const capped = room.why === null ? '' : ` (${quantity} asked: ${room.why})`
        return `exit sent to the broker: ${room.quantity} of the ${held} ${contract.name} position of ${Math.abs(exit.netPos)}${capped} (order ${orderId}), this source's trades only; the others keep their stop and target`
      }
    } catch (error) {
      // Not carried out (a refusal, a wait, no connection, a failure after the cut): it may go again. An unknown outcome is only looked for.
      await putBackUnsent(locked, session, flatten, cut, send, error, "the source's exit was not carried out")
      throw error
    }
    // Marked already: another run sent it (its cut stands); only looked for.
    return lookForSent(session, tag, new Date())
  })
}
