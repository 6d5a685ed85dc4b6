import type { Database, Kysely } from '@signals/db'
import type { BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { noteCloseReason } from '../../repositories/risk-halts.ts'
import { finishKillSwitch } from '../../repositories/kill-switch.ts'
import type { FlattenRunner } from '../positions/flatten-runner.ts'
import { killAtBroker } from '../kill-switch/kill-at-broker.ts'
import { pressKillSwitch } from '../kill-switch/press-kill-switch.ts'
import type { InstructionOutcome } from './instruction-outcome.ts'

const FLATTEN_REASON = 'A flatten-everything alert: every position was flattened and every working order cancelled at the broker.'
const KILL_REASON = 'A kill-switch alert: every position was flattened and every working order cancelled at the broker.'
const NO_SESSION = 'no broker session is open here: nothing could be flattened or cancelled at the broker now; the exits of your open trades are sent when the session opens'

/**
 * `flatten_everything` (CrossTrade FLATTENEVERYTHING): what the kill switch does at the broker (our trades
 * through their durable flattens, every other position liquidated, every working order cancelled), without
 * switching auto-place off.
 */
export async function flattenAccount(db: Kysely<Database>, flattens: FlattenRunner, userId: string, session: BrokerSession, scope: BrokerScope): Promise<InstructionOutcome> {
  await noteCloseReason(db, userId, scope, FLATTEN_REASON)
  const run = await killAtBroker(db, flattens, userId, session, scope, 'flatten everything alert')
  return run.outcome === 'done' ? { kind: 'done', reason: `flatten everything: ${run.detail}` } : { kind: 'failed', reason: `flatten everything: ${run.detail}` }
}

/**
 * `kill_switch`: the kill switch itself (kill-switch/), pressed by an alert: auto-place off until the trader
 * switches it on, the open trades asked to exit durably, the use recorded (and the trader's channels told),
 * then the broker's part with the session held here. Without a session the durable part stands and the
 * record says what waits.
 */
export async function killSwitchByAlert(db: Kysely<Database>, flattens: FlattenRunner, userId: string, held: { session: BrokerSession; scope: BrokerScope } | null): Promise<InstructionOutcome> {
  const recorded = await pressKillSwitch(db, userId, KILL_REASON)
  const run = held === null ? { outcome: 'no_session' as const, detail: NO_SESSION } : await killAtBroker(db, flattens, userId, held.session, held.scope)
  await finishKillSwitch(db, recorded.id, run.outcome, run.detail)
  const reason = `kill switch: automatic order placement is off until you switch it on; ${run.detail}`
  return run.outcome === 'done' ? { kind: 'done', reason } : { kind: 'failed', reason }
}
