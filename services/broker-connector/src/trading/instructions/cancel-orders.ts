import type { CancelScope } from '@signals/contracts'
import { frontMonthContract } from '@signals/instruments'
import type { Database, Kysely } from '@signals/db'
import { noteEntriesCancelledByAlert, ordersInReach } from '../../repositories/instruction-records.ts'
import { BrokerError, isDone, type BrokerOrder, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { parseOrderTag } from '../entry/order-plan.ts'
import { cancelQuietly } from '../positions/cancel-quietly.ts'
import type { InstructionOutcome } from './instruction-outcome.ts'

const LEG_OF: Record<Exclude<CancelScope, 'all'>, 'entry' | 'stop' | 'target'> = { entry: 'entry', stop: 'stop', target: 'target' }
const WHAT: Record<CancelScope, string> = { all: 'working order(s)', entry: 'working entry order(s)', stop: 'stop order(s)', target: 'target order(s)' }

/**
 * `cancel` (TradersPost; CrossTrade CANCEL, CANCELALLORDERS): the account's working orders in the symbol's
 * contract (every contract without a symbol) are cancelled. `all` reaches every working order, ours or
 * placed by hand (TradersPost cancels the ticker's open orders); a type reaches only the orders whose part
 * we know by their tag: our entries, or the stop or target legs of our brackets. Cancelling a stop leaves
 * its position without one: the record says so. Only the alert's source's orders are reached (issue 22
 * item 4): those of its records; orders placed by hand belong to no source, so only the spec route's
 * `all` reaches them (unless the trader opted out of it).
 */
export async function cancelOrders(
  db: Kysely<Database>,
  session: BrokerSession,
  request: { userId: string; source: { id: string | null }; symbol: string | null; at: Date; orders: CancelScope },
): Promise<InstructionOutcome> {
  let contractId: number | null = null
  let where = 'every contract'
  if (request.symbol !== null) {
    const dated = frontMonthContract(request.symbol, request.at)
    if (!dated) return { kind: 'refused', code: 'unknown_contract', reason: `no futures contract is known for the symbol ${request.symbol}` }
    contractId = (await session.findContract(dated.name)).id
    where = dated.name
  }
  const accountId = session.snapshot.account.id
  const reached = (order: BrokerOrder) =>
    order.accountId === accountId && !isDone(order.status) && (contractId === null || order.contractId === contractId) && (request.orders === 'all' || parseOrderTag(order.tag)?.leg === LEG_OF[request.orders])
  const atBroker = (await session.listOrders()).filter(reached)
  const reach = await ordersInReach(db, request.userId, request.source, atBroker.flatMap((order) => parseOrderTag(order.tag)?.recordId ?? []))
  const working = atBroker.filter((order) => {
    const tag = parseOrderTag(order.tag)
    return tag === null ? reach.untagged : reach.records.has(tag.recordId)
  })
  let cancelled = 0
  const entries: number[] = []
  const problems: string[] = []
  for (const order of working) {
    try {
      if (!(await cancelQuietly(session, order.id))) continue
      cancelled++
      const tag = parseOrderTag(order.tag)
      if (tag?.leg === 'entry') entries.push(tag.recordId)
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      if (error.kind === 'rate_limited' || error.kind === 'unavailable') return { kind: 'retry', note: `waiting for the broker: ${error.message}` }
      problems.push(`order ${order.id} not cancelled: ${error.message}`)
    }
  }
  await noteEntriesCancelledByAlert(db, request.userId, entries)
  const stopWarning = request.orders === 'stop' || request.orders === 'all' ? ' (a position whose stop was cancelled has none now)' : ''
  const reason = `${cancelled} ${WHAT[request.orders]} cancelled in ${where} on account ${session.snapshot.account.name}${cancelled > 0 ? stopWarning : ''}${problems.length === 0 ? '' : `; not done: ${problems.join('; ')}`}`
  const ofSource = request.source.id === null ? ' working' : ' of this signal source'
  if (working.length === 0) return { kind: 'refused', code: 'nothing_to_cancel', reason: `nothing to cancel: no ${WHAT[request.orders]}${ofSource} in ${where} on account ${session.snapshot.account.name}` }
  return problems.length === 0 ? { kind: 'done', reason } : { kind: 'failed', reason }
}
