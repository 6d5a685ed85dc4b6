import type { Database, Kysely } from '@signals/db'
import { BrokerError, outcomeUnknown, type BracketRequest, type BrokerSession, type DayRealizedPnl } from '../../feeds/broker/broker-adapter.ts'
import { pastWaitLimit, type WaitLimits } from './wait-limit.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { OUTCOME_UNKNOWN, REVERSAL_NOTE, type DecidedMark, type EntryRecord, type PlacedMark } from '../../repositories/entry-records.ts'
import type { ReversalClose } from '../../repositories/reversal-close.ts'
import type { AccountRows } from '../../repositories/account-rows.ts'
import { orderTagOf } from './order-plan.ts'
import type { BrokerOrdersMemo } from './reconcile.ts'
import { sizeOrder, type SizedOrder, type SizingMemo } from './size-order.ts'
import { followStrategy, positionOutOfSync } from './position-guard.ts'
import { exitPlanRefusal, exitPlansOff } from '../targets/exit-plan-support.ts'

/** Where a user's broker session is found (the feed manager). */
export interface SessionSource {
  session(userId: string): BrokerSession | null
  /** Whether a session of the user is being opened here (not handed out yet); absent: never. */
  opening?(userId: string): boolean
}

export interface PlanDeps {
  sessions: SessionSource
  /** The account's cash balance as the broker last told it, or null. */
  cashBalanceOf(userId: string, session: BrokerSession): string | null
  /** The account's realized pnl of the day as the broker last told it, or null (a loss outside our trades counts). */
  realizedPnlOf?(userId: string, session: BrokerSession): DayRealizedPnl | null
  /** An entry older than this is never sent. */
  maxAlertAgeMs: number
  /** How long a record waits for the user's broker session before it fails. */
  sessionWaitMs: number
  /** How long a record whose send's outcome is unknown waits for the broker to show the order, then fails. */
  outcomeGraceMs: number
  /** The platform's ceiling on one order's contracts. */
  platformMaxContracts: number
  /** A market price older than this is not used. */
  marketPriceMaxAgeMs: number
  /** The instant the session rules judge an entry at (trading windows, news, the trading day's counts); the system clock unless a test sets it. */
  sessionClock?: () => Date
  /** The records whose entry order still works at the broker (the trade keeper's book): open however old. */
  workingEntryRecords?(userId: string): readonly number[]
  /** Several targets, breakeven and trailing stops carried out (EXIT_PLANS_ENABLED); off or absent, such entries are refused. */
  exitPlansEnabled?: boolean
  /** Where a session's broker ids live: its venue and account (noted as it opened). */
  scopeOf(session: BrokerSession): BrokerScope
  /**
   * The account's open difference with the broker in a contract, as its reason, or null (the reconciliation's).
   * Read on `db`: the decision's connection (the account lock holder's own, entry-locks.ts).
   */
  positionDifference?(db: Kysely<Database>, userId: string, scope: BrokerScope, contractId: number): Promise<string | null>
  /**
   * A reversal's first leg: closes the position durably (carried out by the session's holder), written on
   * `db` (the decision's connection); absent, reversals are refused.
   */
  closeForReversal?(db: Kysely<Database>, close: ReversalClose): Promise<{ othersHold: number }>
}

/** What one batch shares while deciding: the users' account rows, memos, and Postgres' "now" of the read. */
export interface PlanContext extends PlanDeps {
  /**
   * Where the decision reads and writes: under the accounts' locks, the lock holder's own connection, so a
   * holder never waits for another pool connection while the lock's waiters hold theirs (entry-locks.ts).
   */
  db: Kysely<Database>
  accounts: AccountRows
  memo: SizingMemo
  orders: BrokerOrdersMemo
  now: Date
}

/**
 * What to do with one record: decided (an outcome without an order), placed (found at the broker), send,
 * unsent (the broker said it did not carry the send out: back to `received`, the message comes back),
 * waiting (an order may be at the broker: settled by its tag later, never sent again), retry (the message
 * should come back: no session yet, or the broker did not answer before anything was sent), or none
 * (nothing to write).
 */
export type Plan =
  | { kind: 'decided'; mark: DecidedMark; flatten: { userId: string; session: BrokerSession } | null }
  | { kind: 'placed'; mark: PlacedMark }
  | { kind: 'send'; record: EntryRecord; session: BrokerSession; request: BracketRequest }
  | { kind: 'unsent' | 'waiting' | 'retry'; id: number; note: string | null }
  | { kind: 'none'; id: number }

type Complete = EntryRecord & { symbol: string }

const decided = (id: number, status: DecidedMark['status'], reason: string, code: string | null = null, contract: string | null = null): Plan => ({
  kind: 'decided',
  mark: { id, status, reason, code, contract },
  flatten: null,
})

const seconds = (ms: number) => Math.round(ms / 1000)

/** Outcomes that need nothing from the broker: trading switched off, auto-place off, an alert with no order in it. */
function withoutBroker(record: EntryRecord): Plan | null {
  const live = record.live_trading
  if (live?.enabled !== true) return decided(record.id, 'not_placed', 'live trading was switched off before the order could be placed')
  if (live.autoPlaceOrders !== true) return decided(record.id, 'not_placed', 'automatic order placement is off: the alert is recorded and no order was placed')
  // `reverse` and `add` may leave the side to the open position (size-order.ts works it out).
  if ((record.action === null && record.order_word === null) || record.symbol === null) {
    return decided(record.id, 'refused', 'the alert lacks an action or a symbol, so no order can be made from it', 'incomplete_alert')
  }
  return null
}

function withoutSession(deps: PlanDeps, record: EntryRecord): Plan {
  if (record.age_ms < deps.sessionWaitMs) return { kind: 'retry', id: record.id, note: null }
  return decided(record.id, 'failed', `broker connection not up: no connected broker session for ${seconds(record.age_ms)} s after the alert (check the broker credentials and the connection status)`)
}

/**
 * Decides one locked record; the broker is asked only for what the decision needs. A record whose send
 * may have reached the broker (`placing`, or failed "outcome unknown") is only ever reconciled by its tag.
 */
export async function planRecord(context: PlanContext, record: EntryRecord): Promise<Plan> {
  if (record.status !== 'received') return reconcileSent(context, record)
  const early = withoutBroker(record)
  if (early) return early
  const session = context.sessions.session(record.user_id)
  if (!session) return withoutSession(context, record)
  try {
    return await checkThenSize(context, session, record as Complete)
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    return brokerFailure(record, error, context, false)
  }
}

/** An entry older than the age limit is never sent; a record sent before (the broker said not carried out) is looked for first all the same. */
async function checkThenSize(context: PlanContext, session: BrokerSession, record: Complete): Promise<Plan> {
  if (record.age_ms > context.maxAlertAgeMs) {
    return decided(record.id, 'failed', `not placed: the alert was ${seconds(record.age_ms)} s old when it could be placed (limit ${seconds(context.maxAlertAgeMs)} s)`, 'stale_alert')
  }
  if (record.send_attempts > 0) {
    const found = await context.orders.bracket(session, record.order_tag ?? orderTagOf(record.id))
    if (found) return { kind: 'placed', mark: { id: record.id, ...found } }
  }
  const cannot = context.exitPlansEnabled === true ? exitPlanRefusal(session, record.exit_plan, record.trailing_stop) : exitPlansOff(record.exit_plan, record.trailing_stop)
  if (cannot) return decided(record.id, 'refused', cannot, 'targets_not_supported')
  const guarded = await syncGuard(context, session, record)
  if ('kind' in guarded) return guarded
  const { accounts, memo, now, platformMaxContracts, marketPriceMaxAgeMs, positionDifference } = context
  const differs = positionDifference && ((contract: { id: number }) => positionDifference(context.db, guarded.user_id, context.scopeOf(session), contract.id))
  const sized = await sizeOrder({ accounts, memo, session, cashBalance: context.cashBalanceOf(guarded.user_id, session), realizedPnl: context.realizedPnlOf?.(guarded.user_id, session) ?? null, now, platformMaxContracts, marketPriceMaxAgeMs, positionDifference: differs }, guarded)
  if (sized.kind === 'close_first') return reverseFirst(context, guarded, sized, '')
  if (sized.kind === 'refuse') return { kind: 'decided', mark: { id: record.id, status: 'refused', reason: sized.reason, code: sized.code, contract: sized.contract }, flatten: sized.flatten ? { userId: record.user_id, session } : null }
  return { kind: 'send', record, session, request: sized.request }
}

/**
 * Issue 24, item 7: the strategy's position before this order against the account's (entry/position-guard.ts).
 * Out of sync: refused, or with `positionChanges.outOfSync: follow` the account is brought to the strategy's
 * position (entered as a plain entry, its `add` dropped; or an opposite position of ours closed first). Once
 * this record's reversal has asked for its close, the account between the legs is our doing: not checked
 * again, and the entry is sized as a plain one (an `add` never asks for a close, so it came from following).
 */
async function syncGuard(context: PlanContext, session: BrokerSession, record: Complete): Promise<Plan | Complete> {
  if (record.reversal_asked === true) return record.order_word === 'add' ? { ...record, order_word: null } : record
  const found = await positionOutOfSync(session, context.memo, record)
  if (!found) return record
  const { positionChanges } = context.memo.configOf(record.risk_config)
  if (positionChanges.outOfSync !== 'follow') return decided(record.id, 'refused', found.reason, found.code, found.contract.name)
  const root = context.memo.contractOf(record.symbol, record.received_at)?.root.toUpperCase()
  const ours = (context.accounts.openTrades.get(record.user_id) ?? []).filter((trade) => trade.root.toUpperCase() === root)
  const step = followStrategy(found, record.action, ours, positionChanges.reversals)
  if (step.kind === 'refuse') return decided(record.id, 'refused', step.reason, found.code, found.contract.name)
  if (step.kind === 'close_first') return reverseFirst(context, record, step, step.note)
  return { ...record, order_word: null }
}

/**
 * A reversal's first leg (issue 24 item 1): the open position is closed durably and the record waits (the
 * message comes back) until that close has filled and no opposite trade is left; then the entry is sized
 * and placed as any other, under the record's own tag. Nothing here sends an order: the close is a flatten
 * kept once per alert, so a redelivery or a crash never closes twice, and the entry is placed once by the
 * record's lock and tag. Past the wait limit (the record's age) the entry is not placed, and the record says why.
 */
async function reverseFirst(context: PlanContext, record: Complete, sized: Omit<Extract<SizedOrder, { kind: 'close_first' }>, 'kind'>, why: string): Promise<Plan> {
  const what = `${why}the ${sized.closes} ${sized.contract.name} position of ${sized.held}`
  if (!context.closeForReversal) return decided(record.id, 'refused', `reversal: ${what} cannot be closed from here, so the ${sized.side} entry is not placed`, 'reversal_not_allowed', sized.contract.name)
  if (pastWaitLimit(context, record)) {
    return decided(record.id, 'failed', `${REVERSAL_NOTE}${what} was asked to close and had not closed ${seconds(record.age_ms)} s after the alert, so the ${sized.side} entry was not placed`, 'reversal_close_pending', sized.contract.name)
  }
  const source = { id: record.source_id ?? null }
  const close = { recordId: record.id, side: sized.side, userId: record.user_id, contract: sized.contract.name, brokerContractId: sized.contract.id, closes: sized.closes, alertId: record.alert_id, signalAt: record.received_at.toISOString(), source }
  const { othersHold } = await context.closeForReversal(context.db, close)
  if (othersHold > 0) {
    const reason = `reversal: ${what} is held by trades this signal source did not open (${othersHold} contract(s)); a ${sized.side} entry from it would net against them at the broker, so nothing was closed and the entry is not placed`
    return decided(record.id, 'refused', reason, 'reversal_other_source', sized.contract.name)
  }
  // Asked before (the close has not filled yet): its first note stays, with what asked for it (a position sync).
  if (record.reversal_asked === true) return { kind: 'retry', id: record.id, note: null }
  return { kind: 'retry', id: record.id, note: `${REVERSAL_NOTE}${what} is closed first (alert ${record.alert_id}); the ${sized.side} entry is placed once that close has filled` }
}

/**
 * A record whose last send may have reached the broker: placed when the broker lists an order under its
 * tag; otherwise it waits (never sent again) until `outcomeGraceMs` after the send, then fails "outcome
 * unknown". A record failed so already is corrected to placed if its order has turned up since.
 */
async function reconcileSent(context: PlanContext, record: EntryRecord): Promise<Plan> {
  const tag = record.order_tag ?? orderTagOf(record.id)
  const session = context.sessions.session(record.user_id)
  const sentAgoMs = record.sent_age_ms ?? record.age_ms
  // A session being opened here is handed out in a moment: the order is looked for with it then, not
  // concluded absent for want of a session (its open's own look may have run before the order arrived).
  // Bounded: opens that keep failing do not hold the record past twice the grace.
  if (!session && context.sessions.opening?.(record.user_id) === true) {
    if (record.status === 'placing' && sentAgoMs < 2 * context.outcomeGraceMs) return { kind: 'waiting', id: record.id, note: null }
    // A record failed so: the order may have landed after the open's own look (its event reached the watch
    // before the session was handed out); looked for again shortly (the watch's look comes back).
    if (record.status !== 'placing') return { kind: 'retry', id: record.id, note: null }
  }
  let unchecked = session ? null : 'there was no connected broker session to check'
  if (session) {
    try {
      const found = await context.orders.bracket(session, tag)
      if (found) return { kind: 'placed', mark: { id: record.id, ...found } }
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      unchecked = `the broker could not be asked (${error.message})`
    }
  }
  if (record.status !== 'placing') return { kind: 'none', id: record.id }
  if (sentAgoMs < context.outcomeGraceMs) {
    const why = unchecked ?? `the broker lists no order under ${tag} yet`
    return { kind: 'waiting', id: record.id, note: `outcome unknown: ${why}; the order is not sent again, and is looked for until ${seconds(context.outcomeGraceMs)} s after it was sent` }
  }
  const reason = `outcome unknown: check the broker for an order tagged ${tag}. It was sent ${seconds(sentAgoMs)} s ago and never confirmed, and ${unchecked ?? 'the broker does not list it'}; no second order is sent, in case the first arrives late`
  return decided(record.id, 'failed', reason, OUTCOME_UNKNOWN)
}

/**
 * A refusal by the broker is final and its text is the reason. After a send, an unknown outcome (no answer,
 * 5xx, connection lost) leaves the record `placing`: it is never sent again, only looked for by its tag. A
 * rate limit or an unreachable broker that did not carry the request out leaves the outcome open: the
 * record says why it waits and the message comes back; once the record is past the wait limit (its age,
 * entry/wait-limit.ts) it fails with the broker's text. A BrokerError's message already says what the broker did, so it is the reason as it stands; only
 * an open outcome that ends the record says that no order was placed.
 */
export function brokerFailure(record: EntryRecord, error: BrokerError, limits: WaitLimits, sent: boolean): Plan {
  if (error.kind !== 'rate_limited' && error.kind !== 'unavailable') return decided(record.id, 'failed', error.message)
  if (sent && outcomeUnknown(error)) {
    return { kind: 'waiting', id: record.id, note: `outcome unknown: ${error.message}; the order is not sent again, and is looked for by its tag` }
  }
  if (pastWaitLimit(limits, record)) return decided(record.id, 'failed', `not placed: ${error.message}`)
  return { kind: sent ? 'unsent' : 'retry', id: record.id, note: `waiting for the broker: ${error.message}` }
}
