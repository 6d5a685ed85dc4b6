import { BrokerError, type BracketRequest, type BrokerSession } from '../broker/broker-adapter.ts'
import type { DecidedMark, EntryRecord, PlacedMark } from '../repositories/entry-records.ts'
import type { AccountRows } from './account-state.ts'
import { orderTagOf } from './order-plan.ts'
import { findPlacedBracket } from './reconcile.ts'
import { sizeOrder, type SizingMemo } from './size-order.ts'

/** Where a user's broker session is found (the feed manager). */
export interface SessionSource {
  session(userId: string): BrokerSession | null
}

export interface PlanDeps {
  sessions: SessionSource
  /** The account's cash balance as the broker last told it, or null. */
  cashBalanceOf(userId: string, session: BrokerSession): string | null
  /** An entry older than this is never sent (first send or after a crash). */
  maxAlertAgeMs: number
  /** How long a record waits for the user's broker session before it fails. */
  sessionWaitMs: number
  /** The platform's ceiling on one order's contracts. */
  platformMaxContracts: number
  /** A market price older than this is not used. */
  marketPriceMaxAgeMs: number
}

/**
 * What to do with one record: decided (an outcome without an order), placed (found at the broker), send,
 * waiting (an order may be at the broker and its session is down: reconciled when it opens again), or
 * retry (the message should come back: no session yet, or the broker did not answer).
 */
export type Plan =
  | { kind: 'decided'; mark: DecidedMark; flatten: { userId: string; session: BrokerSession } | null }
  | { kind: 'placed'; mark: PlacedMark }
  | { kind: 'send'; record: EntryRecord; session: BrokerSession; request: BracketRequest }
  | { kind: 'waiting' | 'retry'; id: number; note: string | null }

type Complete = EntryRecord & { action: 'LONG' | 'SHORT'; symbol: string }

const decided = (id: number, status: DecidedMark['status'], reason: string, code: string | null = null, contract: string | null = null): Plan => ({
  kind: 'decided',
  mark: { id, status, reason, code, contract },
  flatten: null,
})

/** Outcomes that need nothing from the broker: trading switched off, auto-place off, an alert with no order in it. */
function withoutBroker(record: EntryRecord): Plan | null {
  const live = record.live_trading
  if (live?.enabled !== true) return decided(record.id, 'not_placed', 'live trading was switched off before the order could be placed')
  if (live.autoPlaceOrders !== true) return decided(record.id, 'not_placed', 'automatic order placement is off: the alert is recorded and no order was placed')
  if (record.action === null || record.symbol === null) {
    return decided(record.id, 'refused', 'the alert lacks an action or a symbol, so no order can be made from it', 'incomplete_alert')
  }
  return null
}

function withoutSession(deps: PlanDeps, record: EntryRecord, ageMs: number, lastAttempt: boolean): Plan {
  if (record.send_attempts > 0) {
    return { kind: 'waiting', id: record.id, note: 'the broker connection dropped while placing this order; it is checked with the broker when the connection is back' }
  }
  if (ageMs < deps.sessionWaitMs && !lastAttempt) return { kind: 'retry', id: record.id, note: null }
  const seconds = Math.round(ageMs / 1000)
  return decided(record.id, 'failed', `broker connection not up: no connected broker session for ${seconds} s after the alert (check the broker credentials and the connection status)`)
}

/** Decides one locked record; the broker is asked only for what the decision needs. */
export async function planRecord(deps: PlanDeps & { accounts: AccountRows; memo: SizingMemo; now: Date }, record: EntryRecord, lastAttempt: boolean): Promise<Plan> {
  const early = withoutBroker(record)
  if (early) return early
  const ageMs = deps.now.getTime() - record.received_at.getTime()
  const session = deps.sessions.session(record.user_id)
  if (!session) return withoutSession(deps, record, ageMs, lastAttempt)
  try {
    return await reconcileThenSize(deps, session, record as Complete, ageMs)
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    return brokerFailure(record, error, lastAttempt, record.send_attempts > 0)
  }
}

/**
 * Nothing is sent for a record that may already have an order (attempts > 0) before the broker was asked
 * for it by tag; an entry older than the age limit is never sent.
 */
async function reconcileThenSize(deps: PlanDeps & { accounts: AccountRows; memo: SizingMemo; now: Date }, session: BrokerSession, record: Complete, ageMs: number): Promise<Plan> {
  const seconds = Math.round(ageMs / 1000)
  const limit = Math.round(deps.maxAlertAgeMs / 1000)
  if (record.send_attempts > 0) {
    const found = await findPlacedBracket(session, record.order_tag ?? orderTagOf(record.id))
    if (found) return { kind: 'placed', mark: { id: record.id, ...found } }
    if (ageMs > deps.maxAlertAgeMs) {
      const reason = `not placed: sending was interrupted, the broker holds no order with this record's tag, and the alert is now ${seconds} s old (limit ${limit} s)`
      return decided(record.id, 'failed', reason, 'stale_alert')
    }
  } else if (ageMs > deps.maxAlertAgeMs) {
    return decided(record.id, 'failed', `not placed: the alert was ${seconds} s old when it could be placed (limit ${limit} s)`, 'stale_alert')
  }
  const { accounts, memo, now, platformMaxContracts, marketPriceMaxAgeMs } = deps
  const sized = await sizeOrder({ accounts, memo, session, cashBalance: deps.cashBalanceOf(record.user_id, session), now, platformMaxContracts, marketPriceMaxAgeMs }, record)
  if (sized.kind === 'refuse') return { kind: 'decided', mark: { id: record.id, status: 'refused', reason: sized.reason, code: sized.code, contract: sized.contract }, flatten: sized.flatten ? { userId: record.user_id, session } : null }
  return { kind: 'send', record, session, request: sized.request }
}

/**
 * A refusal by the broker is final and its text is the reason. A rate limit or an unreachable broker
 * leaves the outcome open: the record says why it waits and the message comes back (reconciled first);
 * on the last delivery a record never sent fails with the broker's text. A BrokerError's message already
 * says what the broker did ("the broker refused the order: Insufficient margin"), so it is the reason as
 * it stands; only an open outcome that ends the record says that no order was placed.
 */
export function brokerFailure(record: EntryRecord, error: BrokerError, lastAttempt: boolean, sent: boolean): Plan {
  const retryable = error.kind === 'rate_limited' || error.kind === 'unavailable'
  if (!retryable) return decided(record.id, 'failed', error.message)
  if (lastAttempt && !sent) return decided(record.id, 'failed', `not placed: ${error.message}`)
  return { kind: lastAttempt ? 'waiting' : 'retry', id: record.id, note: `waiting for the broker: ${error.message}` }
}
