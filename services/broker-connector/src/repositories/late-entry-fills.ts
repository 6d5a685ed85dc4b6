import { sql, type Database, type Kysely, type Side, type TradeResult } from '@signals/db'
import { lockTradeLegs, type EntryFill } from './broker-trades.ts'
import { requestPartialCloses } from './partial-closes.ts'

/** What the trader reads on a late part (kept until it closes). */
const LATE_PART_NOTE = 'filled at the broker after its trade had closed (its bracket covered only the contracts filled before): closed at the market'

/** The partial close's alert id for a late fill: one per fill and account, so a replay asks for nothing again. */
const latePartCloseId = (fill: Pick<EntryFill, 'scope' | 'fillId'>) => `late-fill:${fill.scope.accountId}:${fill.fillId}`

/** A late part opened: the trade and what its close asks for. */
export interface LatePart {
  tradeId: number
  contract: string
  side: Side
  quantity: number
}

/**
 * An entry fill that came after its record's trade had closed: a limit filled in part, the bracket the broker
 * sized to that part closed it (its stop hit), then the rest of the limit filled (the model's seed 406158382).
 * Those contracts are at the broker with no stop and no open trade counting them. They open a trade of their
 * own (`parent_trade_id` the closed trade; no record and no entry order id: both stay the closed trade's, one
 * trade each), asked to exit with that trade's result, and a partial close of exactly them is written in the
 * same transaction: carried out like any flatten by the session's holder, its fill closes the trades asked to
 * exit first. A fill counted already (by the trade or a part of it: a replay) opens nothing, nor one of an entry
 * whose legs are our own (its plan closes late fills: docs/decisions/projectx-adapter.md). Returns the part, or null.
 */
export async function openLatePart(db: Kysely<Database>, fill: EntryFill): Promise<LatePart | null> {
  return db.transaction().execute(async (trx) => {
    await lockTradeLegs(trx, fill.recordId)
    const opened = await sql<{ id: number; contract: string; side: Side; result: TradeResult }>`
      INSERT INTO trades (user_id, account_id, symbol, root, side, quantity, entry_price, contract, broker_contract_id, broker, environment, broker_account_id,
                          entry_fill_ids, opened_at, parent_trade_id, exit_requested_at, exit_result, exit_note)
      SELECT t.user_id, t.account_id, t.symbol, t.root, t.side, ${fill.quantity}, ${fill.price}::numeric, t.contract, ${fill.contractId},
             ${fill.scope.broker}, ${fill.scope.environment}, ${fill.scope.accountId}, ARRAY[${fill.fillId}::bigint], ${fill.at}::timestamptz,
             t.id, now(), COALESCE(t.result, 'Session End'), ${LATE_PART_NOTE}
      FROM trades t
      WHERE t.alert_record_id = ${fill.recordId} AND t.user_id = ${fill.userId} AND t.status = 'closed' AND t.contract IS NOT NULL
        AND NOT (${fill.fillId}::bigint = ANY(t.entry_fill_ids))
        AND NOT EXISTS (SELECT 1 FROM trades c WHERE c.parent_trade_id = t.id AND ${fill.fillId}::bigint = ANY(c.entry_fill_ids))
        -- An entry with legs of our own (a ProjectX account refusing brackets) closes its late fills itself (own-legs.ts).
        AND NOT EXISTS (SELECT 1 FROM own_leg_plans p WHERE p.record_id = ${fill.recordId})
      RETURNING id, contract, side, exit_result AS result`.execute(trx)
    const part = opened.rows[0]
    if (!part) return null
    // Entered no later than the close: the part's opened_at is the broker's fill time, which may run ahead of ours.
    const signalAt = new Date(Math.max(Date.parse(fill.at), Date.now())).toISOString()
    await requestPartialCloses(trx, [{
      userId: fill.userId, contract: part.contract, brokerContractId: fill.contractId, side: part.side, alertId: latePartCloseId(fill),
      result: part.result, signalExitPrice: null, signalAt, part: { quantity: fill.quantity, percent: null, remaining: null },
    }])
    return { tradeId: Number(part.id), contract: part.contract, side: part.side, quantity: fill.quantity }
  })
}
