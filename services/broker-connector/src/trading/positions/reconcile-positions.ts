import type { Database, DiscrepancyKind, Kysely } from '@signals/db'
import { BrokerError, isDone, type BrokerFill, type BrokerOrder, type BrokerOrderVersion, type BrokerPosition, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import { OUTCOME_UNKNOWN } from '../../repositories/entry-records.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import {
  closeUnbacked,
  contractNames,
  entryInFlight,
  openDiscrepancyContracts,
  openTradeBooks,
  recordDiscrepancy,
  resolveDiscrepancies,
  taggedRecords,
  type ContractBook,
  type Discrepancy,
} from '../../repositories/position-discrepancies.ts'
import { pairsOnTheirWay } from '../../repositories/trade-targets.ts'
import { PAIR_IN_FLIGHT_MS } from '../targets/cover-gaps.ts'
import { cancelQuietly } from './cancel-quietly.ts'
import { marketCloses, stopCoverage } from './stop-coverage.ts'

export interface ReconcileDeps {
  db: Kysely<Database>
  logger: Logger
  /**
   * Applies the fills the broker lists that the session has not applied (the trade keeper); false when the
   * keeper no longer keeps this session (its feed dropped here during the pass): nothing applied.
   */
  applyListedFills(userId: string, session: BrokerSession, fills: Awaited<ReturnType<BrokerSession['listFills']>>): Promise<boolean>
  /**
   * Stops found not matching a position on the last pass, by user, account and contract: told only when the
   * next pass finds them not matching still (a fill the keeper has not followed yet is not a difference).
   * Without it, at once.
   */
  stopsSuspected?: Map<string, string>
  /**
   * After a pass: the stops of the user's trades with target pairs checked against the broker and a gap
   * covered (the trade keeper, behind its other work for the user; targets/cover-gaps.ts).
   */
  coverStopGaps?(userId: string): Promise<void>
}

/** One user's session to reconcile: whose, and where its broker ids live. */
export interface HeldSession {
  userId: string
  session: BrokerSession
  scope: BrokerScope
}

const signed = (quantity: number) => (quantity > 0 ? `+${quantity}` : String(quantity))
const netOf = (positions: readonly BrokerPosition[], contractId: number) => positions.find((position) => position.contractId === contractId)?.netPos ?? 0

/**
 * Compares the broker's positions and working orders with our open trades and records for one session's
 * account, contract by contract, repairs what has a clear rule and returns every difference found, with
 * what was done and why (docs/decisions/broker-connector.md, "Reconciliation with the broker"); null, having
 * compared nothing, when the session's feed was dropped here meanwhile. The broker's positions are
 * read before and after our side (the fills it lists applied first, then our trades read), and its fills
 * listed again after: a contract whose position moved meanwhile, or was filled at all, is left to the next
 * pass, so a fill on its way is never taken for a difference. Broker failures are thrown (the pass is
 * tried again on the next open or timer tick).
 */
export async function reconcilePositions(deps: ReconcileDeps, held: HeldSession): Promise<Discrepancy[] | null> {
  const { db } = deps
  const { userId, session, scope } = held
  const before = await session.listPositions()
  const fills = await session.listFills()
  // A session no longer kept here: the fills listed reach our trades through its next holder, not now.
  if (!(await deps.applyListedFills(userId, session, fills))) return null
  const books = await openTradeBooks(db, userId, scope)
  const listed = (await session.listOrders()).filter((order) => !isDone(order.status))
  const after = await session.listPositions()
  // A position may move and come back during the pass (flat, an entry filled, its stop filled: flat again),
  // which the two reads alone would take for no move: the fills listed again tell it.
  const filledDuring = contractsFilledBetween(fills, await session.listFills())
  const moved = (contractId: number) => netOf(after, contractId) !== netOf(before, contractId) || filledDuring.has(contractId)
  // A contract whose position moved during the pass keeps its orders to the next pass as well: the list may
  // predate the fill of the very order it shows working (a stop that closed the trade read closed just after).
  const strays = await strayOrders(deps, held, listed.filter((order) => !moved(order.contractId)), (contractId) => netOf(after, contractId) === (books.find((book) => book.broker_contract_id === contractId)?.quantity ?? 0))
  const working = listed.filter((order) => !strays.some((stray) => stray.orderId === order.id))
  const open = await openDiscrepancyContracts(db, userId, scope)
  const contractIds = [...new Set([...after.filter((position) => position.netPos !== 0).map((position) => position.contractId), ...books.map((book) => book.broker_contract_id), ...open.map((row) => row.contractId)])]
  const names = await contractNames(db, userId, [...contractIds, ...strays.map((stray) => stray.contractId)])
  const found: Discrepancy[] = strays.map((stray) => ({ ...stray, contract: names.get(stray.contractId) ?? null }))
  const stops: StopsSeen = { working, versions: await session.orderVersions(working.map((order) => order.id)), fills }
  for (const contractId of contractIds) {
    const brokerQty = netOf(after, contractId)
    if (moved(contractId)) continue
    const book = books.find((candidate) => candidate.broker_contract_id === contractId)
    const contract = { id: contractId, name: book?.contract ?? names.get(contractId) ?? null }
    const difference = await compareContract(deps, held, contract, brokerQty, book, working)
    if (difference === null || difference.resolved) await resolveDiscrepancies(db, userId, scope, contractId, POSITION_KINDS)
    if (difference !== null) found.push(difference)
    const pairStops = difference === null && brokerQty !== 0 ? await pairStopsOnTheirWay(db, held, contractId, working) : 0
    const uncovered = confirmed(deps, `${userId}:${scope.accountId}:${contractId}`, difference === null ? stopsDiffer(contract, brokerQty, stops, pairStops) : null)
    if (uncovered === null) await resolveDiscrepancies(db, userId, scope, contractId, ['stops_differ'])
    else found.push(uncovered)
  }
  // A stray order not found again is gone (cancelled, or its record settled).
  for (const { contractId } of open.filter((row) => row.kind === 'stray_order' && !moved(row.contractId) && !strays.some((stray) => !stray.resolved && stray.contractId === row.contractId))) {
    await resolveDiscrepancies(db, userId, scope, contractId, ['stray_order'])
  }
  for (const difference of found) {
    const id = await recordDiscrepancy(db, userId, scope, difference)
    deps.logger.warn({ userId, discrepancyId: id, accountId: scope.accountId, ...difference }, 'broker and trades differ')
  }
  return found
}

const POSITION_KINDS: readonly DiscrepancyKind[] = ['untracked_position', 'broker_flat', 'quantity_differs']

/** The contracts of the fills in one list and not the other (a day's fills only grow; a new day's list is moved too). */
function contractsFilledBetween(first: readonly BrokerFill[], second: readonly BrokerFill[]): Set<number> {
  const ids = (fills: readonly BrokerFill[]) => new Set(fills.map((fill) => fill.id))
  const [firstIds, secondIds] = [ids(first), ids(second)]
  return new Set([...second.filter((fill) => !firstIds.has(fill.id)), ...first.filter((fill) => !secondIds.has(fill.id))].map((fill) => fill.contractId))
}

/** The working orders of a pass with their latest versions and the fills listed: what a stop still closes. */
interface StopsSeen {
  working: readonly BrokerOrder[]
  versions: ReadonlyMap<number, BrokerOrderVersion>
  fills: readonly BrokerFill[]
}

/**
 * A position our trades hold as the broker does: its working stops must close exactly what is held (the
 * whole-position stop plus each target's stop). Fewer leaves contracts unprotected; more could reverse the
 * position. Nothing is placed or cancelled on a count (which stop is missing or extra is the trade keeper's
 * to know); the trader is told, and new entries are not held up by it.
 */
function stopsDiffer(contract: { id: number; name: string | null }, brokerQty: number, seen: StopsSeen, pairStops: number): Discrepancy | null {
  if (brokerQty === 0) return null
  const held = { contractId: contract.id, netPos: brokerQty }
  // A partial close filling in parts has its stops cut beforehand: what it has still to take needs none.
  const coverage = stopCoverage(held, seen.working, seen.versions, seen.fills, marketCloses(held, seen.working, seen.versions, seen.fills), pairStops)
  if (coverage.note === null) return null
  const label = contractLabel(contract)
  const reason = `${label}: ${coverage.note}`
  const action = `nothing changed at the broker: check the ${label} stops (the whole-position stop and each target's stop)`
  return { kind: 'stops_differ', contractId: contract.id, contract: contract.name, brokerQty, ourQty: brokerQty, orderId: null, action, reason, resolved: false }
}

/**
 * The contracts of the account's trades in the contract whose target pair is on its way to the broker (sent
 * within the grace, no answer or an unknown outcome) and not among the orders listed: the keeper shrank the
 * whole-position stop for them before the send and adds no stop beside the pair while it may land (the exit-plans
 * model's seed 1249993397: told as without a stop meanwhile). Past the grace the keeper covers them, and a pass
 * finding them uncovered then tells it.
 */
async function pairStopsOnTheirWay(db: Kysely<Database>, held: HeldSession, contractId: number, working: readonly BrokerOrder[]): Promise<number> {
  const pairs = await pairsOnTheirWay(db, held.userId, held.scope, contractId, PAIR_IN_FLIGHT_MS)
  if (pairs.length === 0) return 0
  const listed = new Set<string>()
  for (const order of working) {
    const tag = parseOrderTag(order.tag)
    if (tag?.leg === 'stop' && tag.level !== undefined) listed.add(`${tag.recordId}:${tag.level}`)
  }
  return pairs.filter((pair) => !listed.has(`${pair.recordId}:${pair.level}`)).reduce((sum, pair) => sum + pair.quantity, 0)
}

/** A stops difference seen on two passes in a row (or at once without memory); null otherwise. */
function confirmed(deps: ReconcileDeps, key: string, found: Discrepancy | null): Discrepancy | null {
  const suspected = deps.stopsSuspected
  if (suspected === undefined) return found
  const before = suspected.get(key)
  if (found === null) suspected.delete(key)
  else suspected.set(key, found.reason)
  return found !== null && before !== undefined ? found : null
}

/** How the trader reads a contract: its name, or the broker's id for one we never traded. */
const contractLabel = (contract: { id: number; name: string | null }) => contract.name ?? `contract ${contract.id}`

/** One contract: null when the broker and our trades agree, else the difference and what was done. */
async function compareContract(
  deps: ReconcileDeps,
  held: HeldSession,
  contract: { id: number; name: string | null },
  brokerQty: number,
  book: ContractBook | undefined,
  working: readonly BrokerOrder[],
): Promise<Discrepancy | null> {
  const ourQty = book?.quantity ?? 0
  if (brokerQty === ourQty) return null
  const base = { contractId: contract.id, contract: contract.name, brokerQty, ourQty, orderId: null }
  const label = contractLabel(contract)
  if (brokerQty === 0 && book) {
    const note = `ended by reconciliation: the broker holds no ${label} position and lists no fill that closed this trade, so no exit price or PnL is known`
    const ended = await closeUnbacked(deps.db, book.trade_ids, note)
    return { ...base, kind: 'broker_flat', action: `${ended.length} open trade(s) ended as cancelled, without an exit price or PnL`, reason: `the broker holds no ${label} position while our trades held ${signed(ourQty)}`, resolved: true }
  }
  if (ourQty === 0) return untrackedPosition(deps, held, base, label, working)
  return {
    ...base,
    kind: 'quantity_differs',
    action: `nothing changed at the broker; new entries in ${label} are refused until the broker and our trades agree`,
    reason: `the broker holds ${signed(brokerQty)} ${label} while our open trades hold ${signed(ourQty)}`,
    resolved: false,
  }
}

/**
 * A position none of our trades is in. With a working order on its closing side at the broker (a stop the
 * trader placed, a leg), someone protects it: it is left, and the trader told. With none, nobody does: it
 * is flattened (where a stop would go cannot be known without guessing). Only a `Working` order protects:
 * a leg held `Suspended` until its entry fills (an OSO's bracket) or one not accepted yet closes nothing.
 */
async function untrackedPosition(deps: ReconcileDeps, held: HeldSession, base: Omit<Discrepancy, 'kind' | 'action' | 'reason' | 'resolved'>, label: string, working: readonly BrokerOrder[]): Promise<Discrepancy> {
  const closing = base.brokerQty > 0 ? 'Sell' : 'Buy'
  const reason = `the broker holds ${signed(base.brokerQty)} ${label} and none of our open trades is in it`
  const protectors = working.filter((order) => order.contractId === base.contractId && order.action === closing && order.status === 'Working')
  if (protectors.length > 0) {
    const action = `left as it is: ${protectors.length} working order(s) at the broker close it (order ${protectors.map((order) => order.id).join(', ')}); new entries in ${label} are refused until it is gone`
    return { ...base, kind: 'untracked_position', action, reason, resolved: false }
  }
  // An entry of ours on its way (sent, outcome unknown) may be this very position: never flattened on a
  // guess; the next pass sees its trade. The position is read again just before the flatten, so a fill
  // that arrived during this pass is not flattened either.
  const wait = (why: string) => ({ ...base, kind: 'untracked_position' as const, action: `left for the next pass: ${why}; new entries in ${label} are refused meanwhile`, reason, resolved: false })
  if (await entryInFlight(deps.db, held.userId)) return wait('an entry of ours is on its way to the broker')
  try {
    if (netOf(await held.session.listPositions(), base.contractId) !== base.brokerQty) return wait('the position changed during this pass')
    await held.session.liquidatePosition(base.contractId)
    return { ...base, kind: 'untracked_position', action: `flattened at the broker: no working order protected it`, reason, resolved: true }
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    const action = `flatten refused by the broker (${error.message}); tried again on the next pass, and new entries in ${label} are refused meanwhile`
    return { ...base, kind: 'untracked_position', action, reason, resolved: false }
  }
}

/** Why a working order of ours has no business at the broker any more, or null while its record may still want it. */
function strayReason(record: { status: string; refusal_code: string | null; trade_status: string | null } | undefined): string | null {
  if (!record) return null
  if (record.trade_status === 'closed' || record.trade_status === 'cancelled') return `its trade is ${record.trade_status}`
  // A record failed "outcome unknown" is turned placed when its order turns up: the entry flow settles it.
  if (record.trade_status === null && (record.status === 'refused' || record.status === 'not_placed' || (record.status === 'failed' && record.refusal_code !== OUTCOME_UNKNOWN))) {
    return `its alert record is ${record.status.replace('_', ' ')}`
  }
  return null
}

/**
 * Our working orders (by tag) whose trade is closed or whose record was never placed: cancelled, but only
 * where the broker's position in the contract agrees with our trades. Where it does not, the order may be
 * all that protects a position we have lost track of: it is left working and told.
 */
async function strayOrders(deps: ReconcileDeps, held: HeldSession, working: readonly BrokerOrder[], agrees: (contractId: number) => boolean): Promise<Discrepancy[]> {
  const tagged = working.flatMap((order) => {
    const tag = parseOrderTag(order.tag)
    return tag ? [{ order, ...tag }] : []
  })
  const records = await taggedRecords(deps.db, held.userId, [...new Set(tagged.map((entry) => entry.recordId))])
  const found: Discrepancy[] = []
  for (const { order, recordId } of tagged) {
    const why = strayReason(records.get(recordId))
    if (why === null) continue
    const base = { kind: 'stray_order' as const, contractId: order.contractId, contract: null, brokerQty: 0, ourQty: 0, orderId: order.id, reason: `order ${order.tag} (${order.id}) was working at the broker although ${why}` }
    if (!agrees(order.contractId)) {
      found.push({ ...base, action: 'left working: the broker\'s position in its contract differs from our trades, and the order may be what protects it', resolved: false })
      continue
    }
    try {
      const cancelled = await cancelQuietly(held.session, order.id)
      found.push({ ...base, action: cancelled ? 'cancelled at the broker' : 'the broker had finished it meanwhile', resolved: true })
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      found.push({ ...base, action: `cancel refused by the broker (${error.message}); tried again on the next pass`, resolved: false })
    }
  }
  return found
}
