import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerSession } from '../broker/broker-adapter.ts'
import type { Logger } from '../consumers/close-trades.ts'
import { loadEntryRecords, markDecided, markPlaced, markSending, noteWaiting, type DecidedMark, type PlacedMark } from '../repositories/entry-records.ts'
import { loadAccountRows } from './account-state.ts'
import { mapLimited } from './map-limited.ts'
import { brokerFailure, planRecord, type Plan, type PlanDeps } from './plan-record.ts'
import { withRecordLocks } from './record-lock.ts'
import { SizingMemo } from './size-order.ts'

export interface SettleDeps extends PlanDeps {
  db: Kysely<Database>
  /** Flattens every position of the user (a hard daily-loss refusal). */
  flattenAll(userId: string, session: BrokerSession): Promise<void>
  logger: Logger
  now(): Date
  /** Records decided, and orders sent, at once. */
  parallelism: number
}

/**
 * settled: the record has its outcome (or another holder is on it); retry: it waits for a broker session
 * or answer and the message should come back; waiting: an order may be at the broker and the session is
 * down, so it is reconciled when the session opens again.
 */
export type RecordOutcome = 'settled' | 'retry' | 'waiting'

/**
 * Settles records in one batch under their locks: every decision is made first (one read of the records,
 * one of the users' trades), the sends are marked in one statement and committed, the brackets go out in
 * parallel, and the outcomes are written in a few statements. Errors other than the broker's are thrown
 * after everything else was written (the message is retried; the records they hit are left as they were).
 */
export async function settleRecords(deps: SettleDeps, refs: readonly { id: number; userId: string }[], lastAttempt: boolean): Promise<RecordOutcome[]> {
  if (refs.length === 0) return []
  const ids = refs.map((ref) => ref.id)
  // The users' trades are read beside the locking, on the pool: one round trip less before the sends.
  const accountRows = loadAccountRows(deps.db, [...new Set(refs.map((ref) => ref.userId))], ids)
  accountRows.catch(() => undefined)
  return withRecordLocks(deps.db, ids, async (db, locked) => {
    const records = (await loadEntryRecords(db, locked)).filter((record) => record.status === 'received' || record.status === 'placing')
    const accounts = await accountRows
    const now = deps.now()
    const memo = new SizingMemo()
    const failures: unknown[] = []
    const guarded = async (work: () => Promise<Plan>, id: number): Promise<Plan> =>
      work().catch((error: unknown) => {
        failures.push(error)
        return { kind: 'retry', id, note: null }
      })
    const plans = await mapLimited(records, deps.parallelism, (record) => guarded(() => planRecord({ ...deps, accounts, memo, now }, record, lastAttempt), record.id))
    const sends = plans.flatMap((plan) => (plan.kind === 'send' ? [plan] : []))
    const marked = await markSending(db, sends.map(({ record, request }) => ({ id: record.id, tag: request.tag, quantity: request.quantity, contract: request.contract.name })))
    const sent = await mapLimited(
      sends.filter((plan) => marked.has(plan.record.id)),
      deps.parallelism,
      (plan) => guarded(() => send(plan, lastAttempt), plan.record.id),
    )
    const outcomes = [...plans.filter((plan) => plan.kind !== 'send'), ...sent]
    await writeOutcomes(db, outcomes)
    for (const plan of outcomes) {
      if (plan.kind === 'decided' && plan.flatten) await deps.flattenAll(plan.flatten.userId, plan.flatten.session)
    }
    if (failures.length > 0) throw failures[0]
    return outcomes.map((plan) => (plan.kind === 'retry' ? 'retry' : plan.kind === 'waiting' ? 'waiting' : 'settled'))
  })
}

async function send(plan: Extract<Plan, { kind: 'send' }>, lastAttempt: boolean): Promise<Plan> {
  try {
    const placed = await plan.session.placeBracket(plan.request)
    return { kind: 'placed', mark: { id: plan.record.id, ...placed } }
  } catch (error) {
    if (!(error instanceof BrokerError)) throw error
    return brokerFailure(plan.record, error, lastAttempt, true)
  }
}

async function writeOutcomes(db: Kysely<Database>, plans: readonly Plan[]): Promise<void> {
  const placed: PlacedMark[] = []
  const decided: DecidedMark[] = []
  const notes: { id: number; reason: string }[] = []
  for (const plan of plans) {
    if (plan.kind === 'placed') placed.push(plan.mark)
    else if (plan.kind === 'decided') decided.push(plan.mark)
    else if (plan.kind !== 'send' && plan.note !== null) notes.push({ id: plan.id, reason: plan.note })
  }
  await markPlaced(db, placed)
  await markDecided(db, decided)
  await noteWaiting(db, notes)
}
