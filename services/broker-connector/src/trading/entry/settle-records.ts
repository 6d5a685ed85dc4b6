import type { Database, Kysely } from '@signals/db'
import type { WaitLimits } from './wait-limit.ts'
import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { OUTCOME_UNKNOWN, loadEntryRecords, markDecided, markPlaced, markSending, markUnsent, noteWaiting, type DecidedMark, type EntryRecord, type PlacedMark } from '../../repositories/entry-records.ts'
import { countAsOpen } from './account-state.ts'
import { loadAccountRows, type AccountRows } from '../../repositories/account-rows.ts'
import { mapLimited } from './map-limited.ts'
import { brokerFailure, planRecord, type Plan, type PlanContext, type PlanDeps } from './plan-record.ts'
import { BrokerOrdersMemo } from './reconcile.ts'
import { lockAccounts, unlockAccounts, withRecordLocks } from '../../repositories/entry-locks.ts'
import { SizingMemo } from './size-order.ts'
import type { EntryObserver } from './entry-observer.ts'
import { withSpan } from '@signals/telemetry'
import type { FlattenRunner } from '../positions/flatten-runner.ts'
import { instructionOf, settleInstructions } from '../instructions/settle-instructions.ts'
import { addLimitEntryTimeouts } from '../../repositories/limit-entry-timeouts.ts'

export interface SettleDeps extends PlanDeps {
  db: Kysely<Database>
  /** Halts the account: its working entries cancelled and every position flattened (a hard daily-loss refusal, with its reason). */
  flattenAll(userId: string, session: BrokerSession, cause: string): Promise<void>
  logger: Logger
  /** Records decided, and orders sent, at once (within a slice). */
  parallelism: number
  /**
   * Records settled (and locked) together: a hand-off larger than this is settled slice after slice, each
   * slice's record and account locks let go before the next is taken (Postgres' lock table is shared by
   * every session on the server; 10,000 locks at once overflowed it).
   */
  slice: number
  /** Told which records wait on an unknown outcome (an order event for one settles it at once). */
  watch?: { watch(id: number, userId: string): void; recheck(id: number, userId: string): void; forget(id: number): void }
  /** Told each outcome written and each order the broker accepted (metrics). */
  observer?: EntryObserver
  /** The durable flattens an instruction record's flatten everything or kill switch goes through (instructions/). */
  flattens?: FlattenRunner
}

/**
 * settled: the record has its outcome (or another holder is on it); retry: it waits for a broker session
 * or answer and the message should come back; waiting: an order may be at the broker, so it is settled by
 * its tag (the broker's events, the sweep, the next session open), never by sending again.
 */
export type RecordOutcome = 'settled' | 'retry' | 'waiting'

/** Records that may still change: unsettled, or failed "outcome unknown" (their order may still turn up). */
const stillOpen = (record: EntryRecord) => record.status === 'received' || record.status === 'placing' || record.refusal_code === OUTCOME_UNKNOWN

/**
 * Settles records in slices of `deps.slice`, in id order (a later slice sees an earlier one's sends
 * marked, as a later batch would), one slice at a time, so no more than one slice's record and account
 * locks are held at once by one hand-off. A slice that fails does not stop the next; the first failure is
 * thrown at the end (its records count as waiting; the message is retried). `onSlice` is told after each.
 */
export async function settleRecords(
  deps: SettleDeps,
  refs: readonly { id: number; userId: string }[],
  onSlice?: () => void,
): Promise<RecordOutcome[]> {
  const ordered = [...refs].sort((a, b) => a.id - b.id)
  const size = Math.max(1, deps.slice)
  const outcomes: RecordOutcome[] = []
  const failures: unknown[] = []
  for (let start = 0; start < ordered.length; start += size) {
    const slice = ordered.slice(start, start + size)
    try {
      outcomes.push(...(await settleSlice(deps, slice)))
    } catch (error) {
      failures.push(error)
      outcomes.push(...slice.map((): RecordOutcome => 'retry'))
    }
    onSlice?.()
  }
  if (failures.length > 0) throw failures[0]
  return outcomes
}

/**
 * Settles one slice of records in one batch under their locks. Records whose send may have reached the broker are only
 * looked for by their tag (no account lock: nothing is decided or sent for them). For the others the
 * users' accounts are locked (one decision at a time per account), the records and the account rows read,
 * every decision made (one account's records in order, each send counted as open for the next), the sends
 * marked in one statement and committed, and the account locks released; then the brackets go out in
 * parallel and the outcomes are written in a few statements. Errors other than the broker's are thrown
 * after everything else was written (the message is retried; the records they hit are left as they were).
 */
async function settleSlice(deps: SettleDeps, refs: readonly { id: number; userId: string }[]): Promise<RecordOutcome[]> {
  if (refs.length === 0) return []
  return withRecordLocks(deps.db, refs.map((ref) => ref.id), async (db, locked) => {
    const mine = new Set(locked)
    const failures: unknown[] = []
    const guarded = async (work: () => Promise<Plan>, id: number): Promise<Plan> =>
      work().catch((error: unknown) => {
        failures.push(error)
        return { kind: 'retry', id, note: null }
      })
    const userOf = new Map(refs.filter((ref) => mine.has(ref.id)).map((ref) => [ref.id, ref.userId]))
    const loaded = (await loadEntryRecords(db, [...userOf.keys()])).filter(stillOpen)
    // A reference naming another user than the record's is not trusted: the record waits for its own.
    const strays: Plan[] = loaded.filter((record) => userOf.get(record.id) !== record.user_id).map((record) => ({ kind: 'retry', id: record.id, note: null }))
    const mineToSettle = loaded.filter((record) => userOf.get(record.id) === record.user_id)
    // Alerts that manage what is at the broker (modify, cancel, flatten everything, kill switch) place no entry.
    const instructed = mineToSettle.filter((record) => instructionOf(record) !== null)
    const own = mineToSettle.filter((record) => instructionOf(record) === null)
    const managed = instructed.length === 0 ? [] : await settleInstructions({ ...deps, flattens: deps.flattens ?? null }, db, instructed)
    const sentBefore = own.filter((record) => record.status !== 'received')
    const toDecide = own.filter((record) => record.status === 'received')
    const [reconciled, { plans, sends, released }] = await Promise.all([
      planAll({ ...deps, db }, own[0]?.read_at, sentBefore, (context, record) => guarded(() => planRecord(context, record), record.id), null),
      toDecide.length === 0 ? decide(deps, db, toDecide, guarded) : withSpan(SERVICE, 'decision', { 'entry.records': toDecide.length }, () => decide(deps, db, toDecide, guarded)),
    ])
    const sent = await mapLimited(sends, deps.parallelism, (plan) => guarded(() => send(plan, deps, deps.observer), plan.record.id))
    await released
    const outcomes = [...strays, ...reconciled, ...plans, ...sent]
    await writeOutcomes(db, outcomes)
    if (deps.observer) observe(deps.observer, outcomes)
    if (deps.watch) follow(deps.watch, outcomes, userOf)
    for (const plan of outcomes) {
      if (plan.kind === 'decided' && plan.flatten) await deps.flattenAll(plan.flatten.userId, plan.flatten.session, plan.mark.reason)
    }
    if (failures.length > 0) throw failures[0]
    // A record another holder has is theirs to settle; the message comes back until it is (its holder may
    // hand it back for a retry, which this delivery's ack would otherwise swallow). Bounded: the holder, or
    // the sweep past the wait limit, settles it, and a settled record is no longer open here.
    const held: RecordOutcome[] = refs.filter((ref) => !mine.has(ref.id)).map(() => 'retry')
    return [...held, ...managed, ...outcomes.map((plan): RecordOutcome => (plan.kind === 'retry' || plan.kind === 'unsent' ? 'retry' : plan.kind === 'waiting' ? 'waiting' : 'settled'))]
  })
}

type Send = Extract<Plan, { kind: 'send' }>

const sideOf = (request: { action: 'Buy' | 'Sell' }) => (request.action === 'Buy' ? 'LONG' : 'SHORT')

/**
 * Plans records grouped by account, accounts in parallel, each account's records in id order; with
 * account rows, a send counts as open for the account's next record.
 */
async function planAll(
  deps: SettleDeps,
  now: Date | undefined,
  records: readonly EntryRecord[],
  plan: (context: PlanContext, record: EntryRecord) => Promise<Plan>,
  accounts: AccountRows | null,
): Promise<Plan[]> {
  if (records.length === 0 || now === undefined) return []
  const context: PlanContext = { ...deps, accounts: accounts ?? NO_ACCOUNTS, memo: new SizingMemo(), orders: new BrokerOrdersMemo(), now }
  const byAccount = new Map<string, EntryRecord[]>()
  for (const record of records) byAccount.set(record.user_id, [...(byAccount.get(record.user_id) ?? []), record])
  const planned = await mapLimited([...byAccount.values()], deps.parallelism, async (own) => {
    const plans: Plan[] = []
    for (const record of own) {
      const next = await plan(context, record)
      // The next entry of this account sees this one as open, as a later batch would see it marked.
      if (next.kind === 'send' && accounts) countAsOpen(accounts, { ...record, action: sideOf(next.request) }, next.request.quantity)
      plans.push(next)
    }
    return plans
  })
  return planned.flat()
}

/** Reconciliations read no account state. */
const NO_ACCOUNTS: AccountRows = { openTrades: new Map(), closedDays: new Map(), lastHalt: new Map(), heldContracts: new Map(), equityPeak: new Map(), session: { at: new Date(0), news: [], counts: new Map() } }

/**
 * Under the accounts' locks: the account rows read after the locks are held (on this connection, since a
 * waiter holds a pool connection of its own; the records read again if the locks had to be waited for, so
 * their ages are fresh), each account's records decided in id order, and the sends marked (committed)
 * before the locks are let go. The release is under way while the orders go out (`released`).
 */
async function decide(
  deps: SettleDeps,
  db: Kysely<Database>,
  candidates: readonly EntryRecord[],
  guarded: (work: () => Promise<Plan>, id: number) => Promise<Plan>,
): Promise<{ plans: Plan[]; sends: Send[]; released: Promise<void> }> {
  if (candidates.length === 0) return { plans: [], sends: [], released: Promise.resolve() }
  const users = candidates.map((record) => record.user_id)
  const { waited } = await lockAccounts(db, users)
  try {
    const records = waited ? (await loadEntryRecords(db, candidates.map((record) => record.id))).filter((record) => record.status === 'received') : candidates
    // Each user's session is taken once: the account rows are its account's, and its records are decided with it.
    const sessions = new Map([...new Set(records.map((record) => record.user_id))].map((userId) => [userId, deps.sessions.session(userId)]))
    const scopes = new Map([...sessions].flatMap(([userId, session]) => (session ? [[userId, deps.scopeOf(session)] as const] : [])))
    const working = [...sessions.keys()].flatMap((userId) => deps.workingEntryRecords?.(userId) ?? [])
    const accounts = await loadAccountRows(db, [...sessions.keys()], records.map((record) => record.id), scopes, deps.sessionClock?.() ?? new Date(), working)
    // Decided on the lock holder's connection (`db`): the waiters hold pool connections of their own.
    const held: SettleDeps = { ...deps, db, sessions: { session: (userId) => sessions.get(userId) ?? null } }
    const plans = await planAll(held, records[0]?.read_at, records, (context, record) => guarded(() => planRecord(context, record), record.id), accounts)
    const toSend = plans.filter((plan): plan is Send => plan.kind === 'send')
    const marked = await markSending(db, toSend.map(({ record, request }) => ({ id: record.id, tag: request.tag, quantity: request.quantity, contract: request.contract.name, side: sideOf(request) })))
    // A limit entry's `limit_timeout` deadline, kept before it is sent (entry/limit-timeouts.ts carries it out).
    await addLimitEntryTimeouts(db, toSend.filter((plan) => plan.request.entryType === 'Limit' && marked.has(plan.record.id)).map((plan) => plan.record.id), deps.sessionClock?.() ?? new Date())
    const released = unlockAccounts(db, users)
    // Awaited (and its failure thrown) after the sends; not an unhandled rejection meanwhile.
    released.catch(() => undefined)
    return { plans: plans.filter((plan) => plan.kind !== 'send'), sends: toSend.filter((plan) => marked.has(plan.record.id)), released }
  } catch (error) {
    await unlockAccounts(db, users)
    throw error
  }
}

/** Records waiting on an unknown outcome, or failed so, are watched; any other outcome ends the watch. */
function follow(watch: NonNullable<SettleDeps['watch']>, outcomes: readonly Plan[], userOf: ReadonlyMap<number, string>): void {
  for (const plan of outcomes) {
    const id = plan.kind === 'placed' || plan.kind === 'decided' ? plan.mark.id : plan.kind === 'send' ? plan.record.id : plan.id
    const userId = userOf.get(id)
    if (userId === undefined) continue
    // `none`: a record failed "outcome unknown" whose order is still not listed (a session open after a
    // restart looked for it): watched again, so an order that turns up later still corrects it.
    if (plan.kind === 'decided' && plan.mark.code === OUTCOME_UNKNOWN) watch.recheck(id, userId)
    else if (plan.kind === 'waiting' || plan.kind === 'none') watch.watch(id, userId)
    else if (plan.kind === 'placed' || plan.kind === 'decided') watch.forget(id)
  }
}

/** The outcomes just written, told to the observer. */
function observe(observer: EntryObserver, outcomes: readonly Plan[]): void {
  for (const plan of outcomes) {
    if (plan.kind === 'placed') observer.settled('placed')
    else if (plan.kind === 'decided') observer.settled(plan.mark.status)
  }
}

/** Names the connector's spans (the decision, each order). */
const SERVICE = 'broker-connector'

function send(plan: Send, limits: WaitLimits, observer?: EntryObserver): Promise<Plan> {
  return withSpan(SERVICE, 'order', { 'entry.record_id': plan.record.id, 'order.tag': plan.request.tag, 'order.quantity': plan.request.quantity }, async () => {
    try {
      const placed = await plan.session.placeBracket(plan.request)
      observer?.accepted(plan.record.received_at, [placed.entryOrderId, placed.stopOrderId, placed.targetOrderId].filter((id) => id !== null))
      return { kind: 'placed', mark: { id: plan.record.id, ...placed } }
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      return brokerFailure(plan.record, error, limits, true)
    }
  })
}

async function writeOutcomes(db: Kysely<Database>, plans: readonly Plan[]): Promise<void> {
  const placed: PlacedMark[] = []
  const decided: DecidedMark[] = []
  const unsent: { id: number; reason: string }[] = []
  const notes: { id: number; reason: string }[] = []
  for (const plan of plans) {
    if (plan.kind === 'placed') placed.push(plan.mark)
    else if (plan.kind === 'decided') decided.push(plan.mark)
    else if (plan.kind === 'unsent') unsent.push({ id: plan.id, reason: plan.note ?? 'waiting for the broker' })
    else if ((plan.kind === 'waiting' || plan.kind === 'retry') && plan.note !== null) notes.push({ id: plan.id, reason: plan.note })
  }
  await markPlaced(db, placed)
  await markDecided(db, decided)
  await markUnsent(db, unsent)
  await noteWaiting(db, notes)
}
