import type { OrderInstruction } from '@signals/contracts'
import { pastWaitLimit } from '../entry/wait-limit.ts'
import type { Database, Kysely } from '@signals/db'
import { BrokerError } from '../../feeds/broker/broker-adapter.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import type { FlattenRunner } from '../positions/flatten-runner.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { markDecided, noteWaiting, type EntryRecord } from '../../repositories/entry-records.ts'
import { markInstructionDone } from '../../repositories/instruction-records.ts'
import type { BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { flattenAccount, killSwitchByAlert } from './account-wide.ts'
import { cancelOrders } from './cancel-orders.ts'
import type { InstructionOutcome } from './instruction-outcome.ts'
import { modifyTrades } from './modify-trades.ts'

export interface InstructionDeps {
  sessions: SessionSource
  scopeOf(session: BrokerSession): BrokerScope
  /** The durable flattens (flatten everything, kill switch); null where the connector has no live trading. */
  flattens: FlattenRunner | null
  maxAlertAgeMs: number
  sessionWaitMs: number
}

const KINDS: ReadonlySet<string> = new Set(['modify', 'cancel', 'flatten_account', 'kill_switch'])

/** The record's instruction, or null for an entry (ingest checked it against the contract). */
export function instructionOf(record: Pick<EntryRecord, 'instruction'>): OrderInstruction | null {
  const stored = record.instruction as { kind?: unknown } | null
  return stored !== null && typeof stored === 'object' && typeof stored.kind === 'string' && KINDS.has(stored.kind) ? (stored as OrderInstruction) : null
}

const seconds = (ms: number) => Math.round(ms / 1000)

/**
 * Carries out locked instruction records (issue 24, item 5; docs/decisions/order-management-words.md) and
 * writes each outcome on its record; returns `retry` for those whose message should come back. Every
 * instruction is idempotent (absolute prices, cancels, durable flattens), so one carried out again after a
 * crash before its outcome was written changes nothing; and none places an order.
 */
export async function settleInstructions(deps: InstructionDeps, db: Kysely<Database>, records: readonly EntryRecord[]): Promise<('settled' | 'retry')[]> {
  const outcomes: ('settled' | 'retry')[] = []
  for (const record of records) {
    const instruction = instructionOf(record)
    if (instruction === null) continue
    const outcome = await carryOut(deps, db, record, instruction).catch((error: unknown): InstructionOutcome => {
      if (!(error instanceof BrokerError)) throw error
      if (error.kind === 'rate_limited' || error.kind === 'unavailable') return { kind: 'retry', note: `waiting for the broker: ${error.message}` }
      return { kind: 'failed', reason: error.message }
    })
    outcomes.push(await write(db, record.id, outcome, pastWaitLimit(deps, record)))
  }
  return outcomes
}

/** `expired`: the record is past the wait limit (its age), so a retry ends it instead. */
async function write(db: Kysely<Database>, id: number, outcome: InstructionOutcome | { kind: 'not_placed'; reason: string }, expired: boolean): Promise<'settled' | 'retry'> {
  switch (outcome.kind) {
    case 'done':
      await markInstructionDone(db, id, outcome.reason)
      return 'settled'
    case 'refused':
      await markDecided(db, [{ id, status: 'refused', reason: outcome.reason, code: outcome.code }])
      return 'settled'
    case 'failed':
    case 'not_placed':
      await markDecided(db, [{ id, status: outcome.kind, reason: outcome.reason }])
      return 'settled'
    case 'retry':
      if (expired) {
        await markDecided(db, [{ id, status: 'failed', reason: `not done: ${outcome.note}` }])
        return 'settled'
      }
      await noteWaiting(db, [{ id, reason: outcome.note }])
      return 'retry'
  }
}

async function carryOut(deps: InstructionDeps, db: Kysely<Database>, record: EntryRecord, instruction: OrderInstruction): Promise<InstructionOutcome | { kind: 'not_placed'; reason: string }> {
  if (record.live_trading?.enabled !== true) return { kind: 'not_placed', reason: 'live trading was switched off before the alert could be carried out' }
  // Moving a stop changes a trade's risk, as placing does; cancelling and flattening only take risk away.
  if (instruction.kind === 'modify' && record.live_trading.autoPlaceOrders !== true) return { kind: 'not_placed', reason: 'automatic order placement is off: the stop and target were not moved' }
  if (instruction.kind === 'modify' && record.age_ms > deps.maxAlertAgeMs) {
    return { kind: 'failed', reason: `not done: the alert was ${seconds(record.age_ms)} s old when it could be carried out (limit ${seconds(deps.maxAlertAgeMs)} s)` }
  }
  const { flattens } = deps
  if (flattens === null) return { kind: 'failed', reason: 'this connector does not carry out alerts that manage open trades' }
  const session = deps.sessions.session(record.user_id)
  if (instruction.kind === 'kill_switch') return killSwitchByAlert(db, flattens, record.user_id, session ? { session, scope: deps.scopeOf(session) } : null)
  if (!session) {
    if (record.age_ms < deps.sessionWaitMs) return { kind: 'retry', note: 'waiting for the broker session' }
    return { kind: 'failed', reason: `broker connection not up: no connected broker session for ${seconds(record.age_ms)} s after the alert, so nothing was done` }
  }
  const scope = deps.scopeOf(session)
  // Modify and cancel reach only what the alert's source opened (null: the spec route's); flatten everything is the account's.
  const source = { id: record.source_id ?? null }
  switch (instruction.kind) {
    case 'modify':
      if (record.symbol === null) return { kind: 'refused', code: 'incomplete_alert', reason: 'a modify names the symbol of the trades it moves' }
      return modifyTrades(db, session, scope, { userId: record.user_id, source, symbol: record.symbol, root: record.root, side: record.action, sl: instruction.sl, tp: instruction.tp })
    case 'cancel':
      return cancelOrders(db, session, { userId: record.user_id, source, symbol: record.symbol, at: record.received_at, orders: instruction.orders })
    case 'flatten_account':
      return flattenAccount(db, flattens, record.user_id, session, scope)
  }
}
