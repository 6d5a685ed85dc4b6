import { exitSideOf } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { closeInAccount, partialCloseQuantity } from '@signals/risk-engine'
import { BrokerError, isDone, outcomeUnknown, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { targetTrades, type ExitScope } from '../../repositories/exit-targets.ts'
import type { PendingFlatten } from '../../repositories/flatten-requests.ts'
import { closePutBack, markClosePutBack, markPartSent, markPartUnsent } from '../../repositories/partial-closes.ts'
import { noPairOnItsWay, pairMovedSince, pairOnItsWay } from '../targets/pairs-on-their-way.ts'
import { makeRoomForClose, putBackAfterGivenUp, putBackAfterRefusedClose, roomForClose, type CutForClose } from '../targets/room-for-close.ts'
import { partialCloseTagOf, SENT_GRACE_MS } from './close-tag.ts'
import { noCloseOnItsWay } from './closes-on-their-way.ts'
import { withExitLock } from './exit-lock.ts'

/**
 * One partial close at the broker (issue 24 item 3). The part is taken off the smaller of the broker's
 * position and our trades in it (on the side the alert names, or the one held), so a close never exceeds
 * what is held nor touches a position that is not ours; the order is a Market order under our tag, marked
 * before it leaves, so a crash or a redelivery never sends it twice (a marked one is only looked for by its
 * tag). Its fill closes our trades first in, first out, and the legs of a trade left open are resized to
 * what is left (trade keeper). Returns what was done, in words for the trader; a BrokerError leaves the
 * request waiting.
 */
export async function carryOutPartialClose(db: Kysely<Database>, session: BrokerSession, account: BrokerScope, flatten: PendingFlatten & { close_part: NonNullable<PendingFlatten['close_part']> }): Promise<string> {
  const tag = partialCloseTagOf(flatten.id)
  const contract = flatten.broker_contract_id === null ? await session.findContract(flatten.contract) : { id: flatten.broker_contract_id, name: flatten.contract }
  const scope = { userId: flatten.user_id, account, contractId: contract.id, side: flatten.side, signalAt: flatten.signal_at }
  if (flatten.part_sent_at !== null) return lookForSentClose(db, session, { ...flatten, part_sent_at: flatten.part_sent_at }, scope)
  // Not while an earlier close whose outcome is unknown may still be carried out (its sale is not in the position yet).
  await noCloseOnItsWay(db, session, { userId: flatten.user_id, contract: flatten.contract, flattenId: flatten.id, what: 'the partial close', waits: true })
  // Its reads, cut and send are exclusive with the stops check of the contract (which would take the cut for a gap).
  return withExitLock(db, flatten.user_id, flatten.contract, 'the partial close', async (locked) => {
    const [positions, trades, orders] = await Promise.all([session.listPositions({ fresh: true }), targetTrades(locked, scope), session.listOrders({ fresh: true })])
    // One partial close at a time per contract: an earlier one still working (filled in part, say) would be
    // counted twice, once in the position it has not reduced yet and once when it fills, and the two could
    // sell more than is held. This one waits until the broker is done with it.
    const earlier = orders.find((order) => order.contractId === contract.id && order.tag?.startsWith('pc-') && order.tag !== tag && !isDone(order.status))
    if (earlier) throw new BrokerError('unavailable', `an earlier partial close (order ${earlier.id}) is still working in ${flatten.contract}; this one waits for it`)
    const netPos = positions.find((position) => position.contractId === contract.id)?.netPos ?? 0
    const held = netPos > 0 ? 'LONG' : netPos < 0 ? 'SHORT' : null
    if (held === null) return `partial close: nothing closed, the broker holds no ${flatten.contract} position`
    if (flatten.side !== null && held !== flatten.side) return `partial close: nothing closed, the broker holds a ${held} ${flatten.contract} position and the alert closes part of the ${flatten.side} side`
    const ours = trades.filter((trade) => trade.side === held).reduce((sum, trade) => sum + Number(trade.quantity), 0)
    if (ours === 0) return `partial close: nothing closed, the ${held} ${flatten.contract} position at the broker is not these signals'`
    const size = Math.min(Math.abs(netPos), ours)
    // A multiplied source counts in its strategy's contracts: its quantity and what remains are scaled here.
    const inAccount = closeInAccount(flatten.close_part, trades.filter((trade) => trade.side === held).map((trade) => trade.size_multiplier))
    if (inAccount.kind === 'none') return `partial close: nothing closed, ${inAccount.reason}`
    const decided = partialCloseQuantity(size, inAccount.asked)
    if (decided.kind === 'none') return `partial close: ${decided.reason}`
    // Not while the keeper sends a target pair (its stop shrunk, the pair not at the broker yet): pairs-on-their-way.ts.
    const pairs = { userId: flatten.user_id, contractId: contract.id, contract: flatten.contract, what: 'the partial close' }
    const pairsBefore = await noPairOnItsWay(locked, session, pairs)
    // Targets paired with their own stops are cut first (the farthest pair first): once the close fills, no
    // stop or target may close more than is left. Not carried out (a refusal, a wait, a cut failing half way):
    // what was cut is put back, and the close may go again. An unknown outcome is only looked for.
    const cut: CutForClose[] = []
    const send = { marked: false, sending: false }
    try {
      const leftToKeeper = await makeRoomForClose(locked, session, flatten.user_id, trades.filter((trade) => trade.side === held), decided.quantity, cut, contract.id)
      // Sized again from what the broker holds now, the cut made: never more than its position leaves without a stop.
      const room = await roomForClose(session, held, contract.id, decided.quantity, leftToKeeper)
      if (await pairMovedSince(locked, pairs, pairsBefore)) {
        // The cut stands (grown back now, a stop could sit beside the pair on its way); the next try cuts again.
        cut.length = 0
        throw pairOnItsWay(pairs)
      }
      if (room.quantity <= 0) {
        await putBackAfterRefusedClose(locked, session, flatten.user_id, cut, 'the partial close was not carried out')
        return `partial close: nothing closed, ${room.why}`
      }
      send.marked = await markPartSent(locked, flatten.id)
      if (send.marked) {
        send.sending = true
        const { orderId } = await session.placeClosingOrder({ tag, contract, action: exitSideOf(held), quantity: room.quantity })
        const capped = room.why === null ? '' : ` (${decided.quantity} asked: ${room.why})`
        return `partial close sent to the broker: ${room.quantity} of the ${held} ${flatten.contract} position of ${size}${capped} (order ${orderId}); the rest keeps its stop and target, resized`
      }
    } catch (error) {
      await putBackUnsent(locked, session, flatten, cut, send, error, 'the partial close was not carried out')
      throw error
    }
    // Marked already: another run sent it (its cut stands); only looked for.
    return lookForSent(session, tag, new Date())
  })
}

/**
 * A close that failed before its order could have left (a refusal, a wait, a database or any other error
 * after the cut) or whose send the broker refused: its mark is taken back and its cut put back, so it may go
 * again. A send whose outcome is unknown (a BrokerError saying so, or any other error once the send began)
 * is only looked for: its cut stands.
 */
export async function putBackUnsent(db: Kysely<Database>, session: BrokerSession, flatten: PendingFlatten, cut: readonly CutForClose[], send: { marked: boolean; sending: boolean }, error: unknown, why: string): Promise<void> {
  const refused = error instanceof BrokerError && !outcomeUnknown(error)
  if (send.sending && !refused) return
  if (send.marked) await markPartUnsent(db, flatten.id)
  await putBackAfterRefusedClose(db, session, flatten.user_id, cut, why)
}

/** A closing order marked sent: looked for by its tag, never sent again. */
export async function lookForSent(session: BrokerSession, tag: string, sentAt: Date): Promise<string> {
  return (await findSent(session, tag, sentAt)).text
}

/**
 * What became of a closing order marked sent: found (in words), found ended short of a fill (rejected after its
 * id, cancelled by the trader, expired: not carried out, `givenUp` with `why`), or given up once not listed for
 * SENT_GRACE_MS (`givenUp`).
 */
async function findSent(session: BrokerSession, tag: string, sentAt: Date): Promise<{ text: string; givenUp: boolean; why?: string; orderId?: number }> {
  const sent = (await session.listOrders({ fresh: true })).find((order) => order.tag === tag)
  if (sent && isDone(sent.status) && sent.status !== 'Filled') {
    return { text: `partial close not carried out: the broker ended its order (${sent.id}) ${sent.status}`, givenUp: true, why: `ended ${sent.status} at the broker`, orderId: sent.id }
  }
  if (sent) return { text: `partial close sent to the broker (order ${sent.id}, ${sent.status})`, givenUp: false }
  if (Date.now() - sentAt.getTime() < SENT_GRACE_MS) {
    throw new BrokerError('unavailable', `the partial close's order (${tag}) is not listed by the broker yet; it is looked for again and never sent twice`)
  }
  return { text: `partial close: outcome unknown, check the broker for an order tagged ${tag}; it was never confirmed and is not sent again`, givenUp: true }
}

/**
 * A closing order marked sent (a partial close, a source's exit) looked for by its tag; once given up, what
 * was cut for it is put back, holding the contract's exit lock, where the broker's position shows it did not
 * happen (`scope`: the trades it closes).
 */
export async function lookForSentClose(db: Kysely<Database>, session: BrokerSession, flatten: PendingFlatten & { part_sent_at: Date }, scope: ExitScope): Promise<string> {
  const sent = await findSent(session, partialCloseTagOf(flatten.id), flatten.part_sent_at)
  if (!sent.givenUp) return sent.text
  // Under the exit lock, as a refused close's put-back: a stops check reading meanwhile would add its own stop.
  return sent.text + (await withExitLock(db, flatten.user_id, flatten.contract, 'the put-back of a close given up', async (locked) => {
    // Its ended order may have been put back already by the trade keeper (close-ended.ts): never twice.
    const ended = sent.orderId
    if (ended !== undefined && (await closePutBack(locked, flatten.id, ended))) return ''
    const said = await putBackGivenUp(locked, session, flatten, scope, sent.why ?? 'was never confirmed')
    if (ended !== undefined) await markClosePutBack(locked, flatten.id, ended)
    return said
  }))
}

/** A given-up (or ended unfilled) close's trades, on the side the broker holds (the alert's, when it names one): their cut put back (room-for-close.ts). */
async function putBackGivenUp(db: Kysely<Database>, session: BrokerSession, flatten: PendingFlatten, scope: ExitScope, why: string): Promise<string> {
  const netPos = (await session.listPositions({ fresh: true })).find((position) => position.contractId === scope.contractId)?.netPos ?? 0
  const held = netPos > 0 ? 'LONG' : netPos < 0 ? 'SHORT' : null
  if (held === null || (flatten.side !== null && held !== flatten.side)) return ''
  const trades = (await targetTrades(db, scope)).filter((trade) => trade.side === held)
  // Against every trade of ours on that side (a source's exit closes its own, the position holds all of them).
  const ours = scope.source === undefined ? trades : (await targetTrades(db, { ...scope, source: undefined })).filter((trade) => trade.side === held)
  return putBackAfterGivenUp(db, session, flatten.user_id, { onSide: Math.abs(netPos), ours: ours.reduce((sum, trade) => sum + Number(trade.quantity), 0), trades, why: `${scope.source === undefined ? 'the partial close' : "the source's exit"} ${why}`, contractId: scope.contractId })
}
