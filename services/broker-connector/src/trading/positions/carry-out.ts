import type { Database, Kysely } from '@signals/db'
import { isDone, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { mayHaveWorkingEntries, noteEntriesCancelled, otherSourcesQuantity, recordsEnteredBy, requestLateExits, targetTrades, type ExitScope, type TargetTrade } from '../../repositories/exit-targets.ts'
import type { PendingFlatten } from '../../repositories/flatten-requests.ts'
import { carryOutPartialClose, lookForSentClose } from './partial-close.ts'
import { cancelQuietly } from './cancel-quietly.ts'
import { noCloseOnItsWay } from './closes-on-their-way.ts'
import { noPairOnItsWay, pairMovedSince, pairOnItsWay } from '../targets/pairs-on-their-way.ts'
import { closeSourceTrades } from './source-close.ts'

/**
 * Our entry orders still working in the contract, on the side the exit closes, of records received up to
 * the exit: cancelled first, so a limit entry cannot fill after the exit (its suspended legs go with it).
 * Returns how many were cancelled.
 */
async function cancelWorkingEntries(db: Kysely<Database>, session: BrokerSession, scope: ExitScope): Promise<number> {
  const action = scope.side === null ? null : scope.side === 'LONG' ? 'Buy' : 'Sell'
  const entries = (await session.listOrders()).flatMap((order) => {
    const tag = parseOrderTag(order.tag)
    const ours = tag?.leg === 'entry' && order.contractId === scope.contractId && !isDone(order.status) && (action === null || order.action === action)
    return ours ? [{ order, recordId: tag.recordId }] : []
  })
  const theExits = await recordsEnteredBy(db, scope, entries.map((entry) => entry.recordId))
  const cancelled: number[] = []
  for (const { order, recordId } of entries) {
    if (theExits.has(recordId) && (await cancelQuietly(session, order.id))) cancelled.push(recordId)
  }
  await noteEntriesCancelled(db, cancelled)
  return cancelled.length
}

/**
 * Whether an order of ours working in the contract is not the exit's (another source's entry or legs, the
 * spec route's, or a later signal's): liquidating would cancel it with the position, so a source's exit
 * closes its own quantity instead (issue 22 item 4).
 */
async function othersWorking(db: Kysely<Database>, session: BrokerSession, scope: ExitScope): Promise<boolean> {
  const tagged = (await session.listOrders()).flatMap((order) => {
    const tag = parseOrderTag(order.tag)
    return tag !== null && order.contractId === scope.contractId && !isDone(order.status) ? [tag.recordId] : []
  })
  if (tagged.length === 0) return false
  const theExits = await recordsEnteredBy(db, scope, tagged)
  return tagged.some((recordId) => !theExits.has(recordId))
}

/**
 * With the broker flat, a trade's legs still working would open a position of their own: cancelled, found
 * by id and by their record's tag (`.sl`, `.tp`, several targets' `.tp1`, `.tp2`, ...) whether or not an id was stored.
 */
async function cancelLegs(session: BrokerSession, trades: readonly TargetTrade[]): Promise<void> {
  const working = (await session.listOrders()).filter((order) => !isDone(order.status))
  const records = new Set(trades.flatMap((trade) => (trade.alert_record_id === null ? [] : [trade.alert_record_id])))
  const legs = new Set(trades.flatMap((trade) => [trade.stop_order_id, trade.target_order_id]))
  for (const order of working) {
    const tag = parseOrderTag(order.tag)
    if (legs.has(order.id) || (tag !== null && tag.leg !== 'entry' && records.has(tag.recordId))) await cancelQuietly(session, order.id)
  }
}

/**
 * One flatten at the broker, in order: our working entries of the exit's records are cancelled; trades of
 * those records that opened meanwhile are asked to exit too; then, checked against the broker's position,
 * the contract is flattened (`order/liquidateposition`, which cancels the remaining legs) when the broker
 * holds it on the side the exit closes and some of our trades on the session's account are in it. A short
 * is never flattened by an exit of the long side, and a position none of our trades is in (the user's trades
 * on other accounts and venues included) is left to the trader. Returns what was done, in words for the
 * trader; a BrokerError leaves the request waiting.
 */
export async function carryOutFlatten(db: Kysely<Database>, session: BrokerSession, account: BrokerScope, flatten: PendingFlatten): Promise<string> {
  if (flatten.close_part) return carryOutPartialClose(db, session, account, { ...flatten, close_part: flatten.close_part })
  const contractId = flatten.broker_contract_id ?? (await session.findContract(flatten.contract)).id
  const source = flatten.source_scoped ? { id: flatten.source_id } : undefined
  const scope: ExitScope = { userId: flatten.user_id, account, contractId, side: flatten.side, signalAt: flatten.signal_at, source }
  // A source's exit sent as a closing order of its trades' quantity (below): looked for, never sent again;
  // given up, what was cut for it is put back where the broker still holds the position. Joined since by an
  // exit of every source's trades (the kill switch, a halt, another source's exit: no longer source-scoped),
  // that exit is carried out below, its sent close counted as any close on its way (never swallowed by the look).
  const ownCloseSent = flatten.part_sent_at !== null
  if (flatten.part_sent_at !== null && flatten.source_scoped) return lookForSentClose(db, session, { ...flatten, part_sent_at: flatten.part_sent_at }, scope)
  const cancelled = (await mayHaveWorkingEntries(db, { ...scope, contract: flatten.contract })) ? await cancelWorkingEntries(db, session, scope) : 0
  // Not while a close of the contract whose outcome is unknown may still be carried out: its sale is not in the
  // position yet. An exit no alert asked for (the kill switch, a halt's or session end's flatten, the trader's close) never waits.
  const waits = flatten.alert_id !== null
  const unconfirmed = await noCloseOnItsWay(db, session, { userId: flatten.user_id, contract: flatten.contract, flattenId: flatten.id, ownCloseSent, what: 'the exit', waits })
  // Not while a target pair is on its way either: a liquidation cannot cancel an order the broker has not
  // placed yet, and the pair carried out after it opens a position of its own (its target marketable by then:
  // the order-path model's seed 2012554249, the SHORT account ended LONG 1). As a partial close: pairs-on-their-way.ts.
  // The urgent exits above do not wait for a pair either (a pair landing late is the reconciliation's untracked position).
  const pairs = { userId: flatten.user_id, contractId, contract: flatten.contract, what: 'the exit' }
  const pairsBefore = waits ? await noPairOnItsWay(db, session, pairs) : null
  // Read after the entries are cancelled: a trade whose entry filled meanwhile is among them.
  const [positions, trades] = await Promise.all([session.listPositions({ fresh: true }), targetTrades(db, scope)])
  await requestLateExits(db, trades.filter((trade) => trade.late).map((trade) => trade.id), { alertId: flatten.alert_id, result: flatten.result, signalExitPrice: flatten.signal_exit_price })
  const netPos = positions.find((position) => position.contractId === contractId)?.netPos ?? 0
  const held = netPos > 0 ? 'LONG' : netPos < 0 ? 'SHORT' : null
  const entries = cancelled === 0 ? '' : `; ${cancelled} working entry order(s) cancelled`
  if (held === null) {
    if (trades.length === 0) return `nothing to flatten: the broker holds no ${flatten.contract} position${entries}`
    await cancelLegs(session, trades)
    return `the broker holds no ${flatten.contract} position, so nothing was flattened; the trade stays open until it is reconciled with the broker${entries}`
  }
  if (flatten.side !== null && held !== flatten.side) {
    return `the broker holds a ${held} ${flatten.contract} position: an exit of the ${flatten.side} side leaves it alone${entries}`
  }
  if (trades.length === 0) return `nothing of these signals is left to flatten in ${flatten.contract} (the ${held} position at the broker is not theirs)${entries}`
  // Another source's trades share the position, or its orders work in the contract (a liquidation cancels
  // every working order there): only this source's quantity is closed, never the whole of it.
  if (source !== undefined && ((await otherSourcesQuantity(db, { ...scope, source, side: held })) > 0 || (await othersWorking(db, session, scope)))) {
    return (await closeSourceTrades(db, session, { flatten, contract: { id: contractId, name: flatten.contract }, held, netPos, trades })) + entries + unconfirmed
  }
  if (pairsBefore !== null && (await pairMovedSince(db, pairs, pairsBefore))) throw pairOnItsWay(pairs)
  await session.liquidatePosition(contractId)
  return `exit sent to the broker: the ${held} ${flatten.contract} position of ${Math.abs(netPos)} is being flattened, and the trade closes at its fill${entries}${unconfirmed}`
}
