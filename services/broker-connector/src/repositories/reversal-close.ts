import { sql, type Database, type Kysely, type Side } from '@signals/db'
import { requestFlattens } from './flatten-requests.ts'
import { inSourceReach } from './spec-route-reach.ts'

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
  /** The reversal's source (`id` null: the spec route): only its trades are closed. */
  source: { id: string | null }
}

/** The user's open trades in the contract on the side, of the source (`mine`) or of any other. */
const onSideOf = (close: ReversalClose, mine: boolean) => sql`
  SELECT t.id, t.quantity FROM trades t LEFT JOIN alerts a ON a.id = t.alert_record_id
  WHERE t.user_id = ${close.userId} AND t.contract = ${close.contract} AND t.side = ${close.closes} AND t.status = 'open'
    AND ${inSourceReach(close.source, 't.user_id')} IS ${mine ? sql`TRUE` : sql`NOT TRUE`}`

/**
 * In one transaction: the record keeps the side it enters (a `reverse` that named none reversed the
 * position open now, which its close is about to end: a redelivery must not read it again), the open trades on the side closed are asked to exit for the alert (they close at
 * the flatten's fill, `close_alert_id` naming the alert), and a durable flatten of that side is written,
 * carried out by the instance holding the session. A redelivered reversal asks for nothing again (the
 * flatten is kept once per alert; trades already asked are left as they are).
 *
 * Only the source's trades are its to reverse (issue 22 item 4): when another source's trades (or the spec
 * route's) share the side, the broker's one netted position cannot be reversed for this source alone (its
 * entry would net against the others' quantity), so nothing is asked and the contracts held by others are
 * returned for the refusal; 0 when the close was asked for.
 */
export async function requestReversalClose(db: Kysely<Database>, close: ReversalClose): Promise<{ othersHold: number }> {
  return db.transaction().execute(async (trx) => {
    const others = await sql<{ quantity: number }>`SELECT COALESCE(sum(o.quantity), 0)::int AS quantity FROM (${onSideOf(close, false)}) AS o`.execute(trx)
    const othersHold = others.rows[0]?.quantity ?? 0
    if (othersHold > 0) return { othersHold }
    await sql`UPDATE alerts SET action = COALESCE(action, ${close.side}) WHERE id = ${close.recordId} AND status = 'received'`.execute(trx)
    await sql`
      UPDATE trades SET exit_requested_at = now(), exit_result = 'Session End', close_alert_id = ${close.alertId}, exit_note = NULL
      WHERE id IN (SELECT m.id FROM (${onSideOf(close, true)}) AS m) AND exit_requested_at IS NULL`.execute(trx)
    await requestFlattens(trx, [
      { userId: close.userId, contract: close.contract, brokerContractId: close.brokerContractId, side: close.closes, alertId: close.alertId, result: 'Session End', signalExitPrice: null, signalAt: close.signalAt, source: close.source },
    ])
    return { othersHold: 0 }
  })
}
