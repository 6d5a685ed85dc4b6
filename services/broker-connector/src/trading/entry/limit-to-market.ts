import type { Database, Kysely } from '@signals/db'
import { BrokerError, isDone, outcomeUnknown, type BrokerOrder, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { claimMarketRemainder, type DueLimitEntry } from '../../repositories/limit-entry-timeouts.ts'
import { loadEntryRecords, type EntryRecord } from '../../repositories/entry-records.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { loadAccountRows } from '../../repositories/account-rows.ts'
import { withAccountLock } from '../../repositories/entry-locks.ts'
import { remainderTagOf } from './order-plan.ts'
import type { PlanDeps } from './plan-record.ts'
import { sizeOrder, SizingMemo } from './size-order.ts'

/** What re-sizing the remainder needs of the entry flow's deps (the same sizing, the same limits). */
export type RemainderSizing = Pick<PlanDeps, 'cashBalanceOf' | 'realizedPnlOf' | 'platformMaxContracts' | 'marketPriceMaxAgeMs' | 'workingEntryRecords' | 'positionDifference'> & {
  scopeOf(session: BrokerSession): BrokerScope
}

export interface RemainderDeps {
  db: Kysely<Database>
  sizing: RemainderSizing
  /** The session rules' clock (trading windows, news, the day's counts): the test's in tests. */
  clock: () => Date
}

/** What the deadline did, for the row and the record; null: not known yet, looked at again on a later pass. */
export type RemainderOutcome = { outcome: string; cancelled: boolean } | null

/**
 * `limit_timeout` with the market (issue 24 item 6; docs/decisions/limit-entry-timeout.md): the limit entry,
 * already cancelled at its deadline with `filled` of its contracts filled, has its unfilled rest sent at the
 * market, re-sized at the market price against the account's limits as a new entry would be (the whole
 * position, the part filled included, at most what the limits allow at that price; never more than the
 * rest). Written before it is sent (`claimMarketRemainder`): a pass taken again looks for it by its tag.
 */
export async function sendRemainderAtMarket(deps: RemainderDeps, session: BrokerSession, due: DueLimitEntry, entry: BrokerOrder, filled: number): Promise<RemainderOutcome> {
  const [record] = await loadEntryRecords(deps.db, [due.record_id])
  const within = `not filled within ${due.timeout_seconds} s (limit_timeout)`
  const ordered = record?.order_quantity ?? null
  if (!record || ordered === null || record.symbol === null) return { outcome: `${within}: cancelled; the rest was not sent at the market: the record's order is not known`, cancelled: true }
  const rest = ordered - filled
  const notSent = (why: string) => ({ outcome: `${within}: ${filledWords(filled)}the rest was cancelled and not sent at the market: ${why}`, cancelled: true })
  if (rest < 1) return { outcome: `limit entry filled as its ${due.timeout_seconds} s deadline came: nothing left to send at the market`, cancelled: false }
  if (record.exit_plan != null || record.trailing_stop != null) return notSent('an entry with several targets or a trailing stop is not turned into a market order')
  const legs = (await session.listOrders()).filter((leg) => leg.parentId === entry.id && !isDone(leg.status)).length
  if (filled > 0 && legs < 2) return notSent('the part filled has no working stop and target at the broker to cover it')
  const tag = remainderTagOf(due.order_tag ?? entry.tag ?? '', filled === 0)
  // Sized and claimed in turn with the account's entry decisions (its lock): a decision either sees the claim
  // (an open trade of its quantity) or was marked before the rest was sized, never both passing the limits alone.
  // Every read of the sizing (the account rows, the position difference) is on the lock's connection.
  const claimed = await withAccountLock(deps.db, record.user_id, async (connection) => {
    const sized = await resize({ ...deps, db: connection }, session, record as EntryRecord & { symbol: string })
    if (sized.kind === 'refuse') return { kind: 'refused' as const, reason: sized.reason }
    const quantity = Math.min(rest, sized.request.quantity - filled)
    if (quantity < 1) return { kind: 'refused' as const, reason: `at the market price the account's limits allow ${sized.request.quantity} contract(s) in all, and ${filled} already filled` }
    // Written before it goes out: a crash, or an unknown outcome, is looked for by this tag, never sent again.
    return (await claimMarketRemainder(connection, due.record_id, tag, quantity)) ? { kind: 'claimed' as const, request: sized.request, quantity } : null
  })
  if (claimed === null) return null
  if (claimed.kind === 'refused') return notSent(claimed.reason)
  const { request, quantity } = claimed
  try {
    if (filled === 0) await session.placeBracket({ ...request, tag, quantity })
    else await session.placeClosingOrder({ tag, contract: request.contract, action: request.action, quantity })
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    // Looked for by its tag on later passes (remainderSentBefore).
    if (outcomeUnknown(error)) return null
    return notSent(`the broker refused it: ${error.message}`)
  }
  return { outcome: sentWords(within, filled, quantity, rest), cancelled: true }
}

/** A pass taken again after the remainder was written: it is looked for by its tag, never sent again. */
export async function remainderSentBefore(session: BrokerSession, due: DueLimitEntry & { market_tag: string }, lookedForUntil: boolean): Promise<RemainderOutcome> {
  const within = `not filled within ${due.timeout_seconds} s (limit_timeout)`
  const found = (await session.listOrders()).find((order) => order.tag === due.market_tag && order.accountId === session.snapshot.account.id)
  if (found) return { outcome: `${within}: ${due.market_quantity ?? '?'} remaining sent at the market (${due.market_tag}, ${found.status.toLowerCase()})`, cancelled: true }
  if (lookedForUntil) return null
  return { outcome: `${within}: the rest was cancelled; its market order (${due.market_tag}) was sent but never confirmed, and the broker does not list it: check the broker; it is not sent again`, cancelled: true }
}

/** The whole position re-sized as a market entry now, with the account's limits and its other trades (its own left out). */
async function resize(deps: RemainderDeps, session: BrokerSession, record: EntryRecord & { symbol: string }) {
  const { sizing } = deps
  const now = new Date()
  const scope = sizing.scopeOf(session)
  // As a new entry now: the account's other working entries count, and a position the broker and our trades disagree on waits.
  const accounts = await loadAccountRows(deps.db, [record.user_id], [record.id], new Map([[record.user_id, scope]]), deps.clock(), sizing.workingEntryRecords?.(record.user_id) ?? [])
  const { positionDifference } = sizing
  // As a market entry of the quantity first sized (never more), its own word, order type and timeout dropped;
  // a record sized by its subscription's multiplier keeps that rule, applied once (x 1 of what it was sized to).
  const asMarket: EntryRecord & { symbol: string } = { ...record, entry_order: null, raw_data: null, order_word: null, alert_quantity: String(record.order_quantity), size_multiplier: record.size_multiplier == null ? null : '1' }
  return sizeOrder(
    {
      accounts,
      memo: new SizingMemo(),
      session,
      cashBalance: sizing.cashBalanceOf(record.user_id, session),
      realizedPnl: sizing.realizedPnlOf?.(record.user_id, session) ?? null,
      now,
      platformMaxContracts: sizing.platformMaxContracts,
      marketPriceMaxAgeMs: sizing.marketPriceMaxAgeMs,
      ...(positionDifference ? { positionDifference: (contract: { id: number }) => positionDifference(deps.db, record.user_id, scope, contract.id) } : {}),
    },
    asMarket,
  ).then((sized) => (sized.kind === 'close_first' ? { kind: 'refuse' as const, reason: `the account holds a ${sized.closes} position in ${sized.contract.name} the other way` } : sized))
}

const filledWords = (filled: number) => (filled > 0 ? `${filled} contract(s) filled (kept with their stop and target); ` : '')

function sentWords(within: string, filled: number, quantity: number, rest: number): string {
  const cut = quantity < rest ? ` (the account's limits allow no more at the market price; ${rest - quantity} not sent)` : ''
  const legs = filled > 0 ? `; the stop and target of the ${filled} filled grow to cover it once it fills` : ', with its own stop and target'
  return `${within}: ${quantity} of ${rest} remaining sent at the market${cut}${legs}`
}
