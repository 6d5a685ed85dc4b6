import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerSession } from '../broker/broker-adapter.ts'
import type { Logger } from '../consumers/close-trades.ts'
import { loadEntryRecords, markDecided, markPlaced, markSending, noteWaiting, type EntryRecord } from '../repositories/entry-records.ts'
import { findPlacedBracket } from './reconcile.ts'
import { withRecordLock } from './record-lock.ts'
import { orderTagOf } from './order-plan.ts'
import { sizeOrder } from './size-order.ts'

/** Where a user's broker session is found (the feed manager). */
export interface SessionSource {
  session(userId: string): BrokerSession | null
}

export interface PlaceDeps {
  db: Kysely<Database>
  sessions: SessionSource
  /** The account's cash balance as the broker last told it, or null. */
  cashBalanceOf(userId: string, session: BrokerSession): string | null
  /** Flattens every position of the user (a hard daily-loss refusal). */
  flattenAll(userId: string, session: BrokerSession): Promise<void>
  logger: Logger
  now(): Date
  /** An entry older than this is never sent (first send or after a crash). */
  maxAlertAgeMs: number
  /** How long a record waits for the user's broker session before it fails. */
  sessionWaitMs: number
}

/**
 * settled: the record has its outcome (or another holder is on it); retry: it waits for the broker and
 * the message should come back later; waiting: an order may be at the broker and the session is down,
 * so it is reconciled when the session opens again.
 */
export type RecordOutcome = 'settled' | 'retry' | 'waiting'

/** Decides one record under its lock; a record someone else holds is theirs to settle. */
export async function placeRecord(deps: PlaceDeps, recordId: number, lastAttempt: boolean): Promise<RecordOutcome> {
  const outcome = await withRecordLock(deps.db, recordId, (connection) => settleRecord({ ...deps, db: connection }, recordId, lastAttempt))
  return outcome ?? 'settled'
}

/** Outcomes that need nothing from the broker: trading switched off, auto-place off, an alert with no order in it. */
async function settleWithoutBroker(db: Kysely<Database>, record: EntryRecord): Promise<boolean> {
  const live = record.live_trading
  if (live?.enabled !== true) {
    await markDecided(db, record.id, { status: 'not_placed', reason: 'live trading was switched off before the order could be placed' })
    return true
  }
  if (live.autoPlaceOrders !== true) {
    await markDecided(db, record.id, { status: 'not_placed', reason: 'automatic order placement is off: the alert is recorded and no order was placed' })
    return true
  }
  if (record.action === null || record.symbol === null) {
    await markDecided(db, record.id, { status: 'refused', code: 'incomplete_alert', reason: 'the alert lacks an action or a symbol, so no order can be made from it' })
    return true
  }
  return false
}

async function settleRecord(deps: PlaceDeps, recordId: number, lastAttempt: boolean): Promise<RecordOutcome> {
  const [record] = await loadEntryRecords(deps.db, [recordId])
  if (!record || (record.status !== 'received' && record.status !== 'placing')) return 'settled'
  if (await settleWithoutBroker(deps.db, record)) return 'settled'
  const now = deps.now()
  const ageMs = now.getTime() - record.received_at.getTime()
  const session = deps.sessions.session(record.user_id)
  if (!session) return awaitSession(deps, record, ageMs, lastAttempt)
  try {
    return await reconcileThenSend(deps, session, record as EntryRecord & { action: 'LONG' | 'SHORT'; symbol: string }, ageMs, now)
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    return brokerFailure(deps, record, error, lastAttempt)
  }
}

async function awaitSession(deps: PlaceDeps, record: EntryRecord, ageMs: number, lastAttempt: boolean): Promise<RecordOutcome> {
  if (record.send_attempts > 0) {
    await noteWaiting(deps.db, record.id, 'the broker connection dropped while placing this order; it is checked with the broker when the connection is back')
    return 'waiting'
  }
  if (ageMs < deps.sessionWaitMs && !lastAttempt) return 'retry'
  await markDecided(deps.db, record.id, {
    status: 'failed',
    reason: `broker connection not up: no connected broker session for ${Math.round(ageMs / 1000)} s after the alert (check the broker credentials and the connection status)`,
  })
  return 'settled'
}

/**
 * Nothing is sent for a record that may already have an order (attempts > 0) before the broker was asked
 * for it by tag; an entry older than the age limit is never sent.
 */
async function reconcileThenSend(
  deps: PlaceDeps,
  session: BrokerSession,
  record: EntryRecord & { action: 'LONG' | 'SHORT'; symbol: string },
  ageMs: number,
  now: Date,
): Promise<RecordOutcome> {
  const seconds = Math.round(ageMs / 1000)
  const limit = Math.round(deps.maxAlertAgeMs / 1000)
  if (record.send_attempts > 0) {
    const found = await findPlacedBracket(session, record.order_tag ?? orderTagOf(record.id))
    if (found) {
      await markPlaced(deps.db, record.id, found)
      deps.logger.info({ recordId: record.id, entryOrderId: found.entryOrderId }, 'entry order found at the broker by its tag; recorded as placed')
      return 'settled'
    }
    if (ageMs > deps.maxAlertAgeMs) {
      const reason = `not placed: sending was interrupted, the broker holds no order with this record's tag, and the alert is now ${seconds} s old (limit ${limit} s)`
      await markDecided(deps.db, record.id, { status: 'failed', code: 'stale_alert', reason })
      return 'settled'
    }
  } else if (ageMs > deps.maxAlertAgeMs) {
    await markDecided(deps.db, record.id, { status: 'failed', code: 'stale_alert', reason: `not placed: the alert was ${seconds} s old when it could be placed (limit ${limit} s)` })
    return 'settled'
  }
  const sized = await sizeOrder({ db: deps.db, session, cashBalance: deps.cashBalanceOf(record.user_id, session), now }, record)
  if (sized.kind === 'refuse') {
    await markDecided(deps.db, record.id, { status: 'refused', code: sized.code, reason: sized.reason, contract: sized.contract })
    if (sized.flatten) await deps.flattenAll(record.user_id, session)
    return 'settled'
  }
  const { request } = sized
  await markSending(deps.db, record.id, { tag: request.tag, quantity: request.quantity, contract: request.contract.name })
  const placed = await session.placeBracket(request)
  await markPlaced(deps.db, record.id, placed)
  return 'settled'
}

/**
 * A refusal by the broker is final and its text is the reason. A rate limit or an unreachable broker
 * leaves the outcome open: the record says why it waits and the message comes back (reconciled first).
 */
async function brokerFailure(deps: PlaceDeps, record: EntryRecord, error: BrokerError, lastAttempt: boolean): Promise<RecordOutcome> {
  const [current] = await loadEntryRecords(deps.db, [record.id])
  const sent = (current?.send_attempts ?? record.send_attempts) > 0
  const retryable = error.kind === 'rate_limited' || error.kind === 'unavailable'
  if (!retryable || (lastAttempt && !sent)) {
    await markDecided(deps.db, record.id, { status: 'failed', reason: `the broker did not take the order: ${error.message}` })
    return 'settled'
  }
  await noteWaiting(deps.db, record.id, `waiting for the broker: ${error.message}`)
  deps.logger.warn({ recordId: record.id, kind: error.kind }, 'broker did not answer the entry; it is reconciled and retried')
  return lastAttempt ? 'waiting' : 'retry'
}
