import { sql, type Database, type Kysely } from '@signals/db'
import { BrokerError } from '../broker/broker-adapter.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import type { Logger } from './close-trades.ts'

/** A flatten the broker could not take now: the result alert comes back and flattens again (idempotent). */
class FlattenRetryError extends Error {
  constructor(readonly pending: number) {
    super(`${pending} position(s) not flattened yet at the broker; retried later`)
    this.name = 'FlattenRetryError'
  }
}

interface Position {
  user_id: string
  contract_id: number
}

/**
 * Flattens each (user, contract) at the broker (`order/liquidateposition`, which also cancels the working
 * bracket legs). A user without a session is logged: nothing can be sent for them. A broker that cannot
 * answer now makes the whole message come back, since a position left open is money at risk.
 */
export async function flattenPositions(positions: readonly Position[], sessions: SessionSource, logger: Logger): Promise<void> {
  let pending = 0
  for (const position of positions) {
    const session = sessions.session(position.user_id)
    if (!session) {
      logger.warn({ userId: position.user_id, contractId: position.contract_id }, 'no broker session: the position was not flattened at the broker')
      continue
    }
    try {
      await session.liquidatePosition(position.contract_id)
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      logger.warn({ userId: position.user_id, contractId: position.contract_id, kind: error.kind, reason: error.message }, 'flatten refused or not answered')
      if (error.kind === 'rate_limited' || error.kind === 'unavailable') pending++
    }
  }
  if (pending > 0) throw new FlattenRetryError(pending)
}

/** Positions of trades this result alert closed (a redelivery flattens them again; flat stays flat). */
export async function positionsClosedBy(db: Kysely<Database>, alertId: string): Promise<Position[]> {
  const result = await sql<Position>`
    SELECT DISTINCT user_id, broker_contract_id AS contract_id FROM trades
    WHERE close_alert_id = ${alertId} AND broker_contract_id IS NOT NULL`.execute(db)
  return result.rows
}
