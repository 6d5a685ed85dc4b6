import { sql, type Database, type Kysely, type Side } from '@signals/db'
import { requestFlattens } from './flatten-requests.ts'

/** The first leg of a reversal: the user's position on `closes` in a contract, closed for the alert. */
export interface ReversalClose {
  /** The reversal's record, and the side it enters once the close has filled. */
  recordId: number
  side: Side
  userId: string
  contract: string
  brokerContractId: number
  closes: Side
  alertId: string
  /** The alert's time: the trades entered up to it are the ones closed. */
  signalAt: string
}

/**
 * In one transaction: the record keeps the side it enters (a `reverse` that named none reversed the
 * position open now, which its close is about to end: a redelivery must not read it again), the open trades on the side closed are asked to exit for the alert (they close at
 * the flatten's fill, `close_alert_id` naming the alert), and a durable flatten of that side is written,
 * carried out by the instance holding the session. A redelivered reversal asks for nothing again (the
 * flatten is kept once per alert; trades already asked are left as they are).
 */
export async function requestReversalClose(db: Kysely<Database>, close: ReversalClose): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`UPDATE alerts SET action = COALESCE(action, ${close.side}) WHERE id = ${close.recordId} AND status = 'received'`.execute(trx)
    await sql`
      UPDATE trades SET exit_requested_at = now(), exit_result = 'Session End', close_alert_id = ${close.alertId}, exit_note = NULL
      WHERE user_id = ${close.userId} AND contract = ${close.contract} AND side = ${close.closes} AND status = 'open' AND exit_requested_at IS NULL`.execute(trx)
    await requestFlattens(trx, [{ userId: close.userId, contract: close.contract, brokerContractId: close.brokerContractId, side: close.closes, alertId: close.alertId, result: 'Session End', signalExitPrice: null, signalAt: close.signalAt }])
  })
}
