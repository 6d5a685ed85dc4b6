import type { ExitPlan } from '@signals/contracts'
import type { BrokerSession } from '../../feeds/broker/broker-adapter.ts'

/**
 * Why this broker connection cannot carry out the record's several targets or its breakeven, or null when
 * it can (or the record has none): refused before anything is sent, rather than placed without them.
 */
export function exitPlanRefusal(session: Pick<BrokerSession, 'placeTargetPair' | 'repriceOrder'>, stored: unknown, trailing: unknown = null): string | null {
  if (trailing !== null && trailing !== undefined && !session.repriceOrder) return 'this broker connection cannot move a working stop, so the trailing stop cannot be carried out and the entry was not placed'
  if (stored === null || stored === undefined || typeof stored !== 'object') return null
  const plan = stored as ExitPlan
  if (!session.placeTargetPair) return 'this broker connection cannot place several targets (TP1/TP2/TP3), so the entry was not placed: send a single tp'
  if (plan.breakeven !== null && !session.repriceOrder) return 'this broker connection cannot move a working stop, so the move to breakeven after TP1 cannot be carried out and the entry was not placed'
  return null
}

/**
 * With exit plans off (EXIT_PLANS_ENABLED): an entry asking for several targets, breakeven or a trailing stop
 * is refused, saying why, rather than placed with only part of what it asked.
 */
export function exitPlansOff(stored: unknown, trailing: unknown): string | null {
  const asks = (value: unknown) => value !== null && value !== undefined
  if (!asks(stored) && !asks(trailing)) return null
  return 'several targets, breakeven and trailing stops are not carried out on this platform yet (they stay off until the stop and the targets are held together at the broker), so the entry was not placed: send a single tp'
}
