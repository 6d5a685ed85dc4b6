import type { Database, Kysely } from '@signals/db'
import { openTradeContracts } from '../../repositories/broker-trades.ts'
import { requestFlattens } from '../../repositories/flatten-requests.ts'
import { noteCloseReason } from '../../repositories/risk-halts.ts'
import { recordKillSwitch, switchAutoPlaceOff } from '../../repositories/kill-switch.ts'

/**
 * The kill switch's own part, in one transaction, whoever pressed it (the button, or a kill-switch alert):
 * auto-place switched off (until the trader switches it on), every open trade on every account asked to
 * exit durably with `closeReason`, and the use recorded (pending until the broker's part is done).
 */
export async function pressKillSwitch(db: Kysely<Database>, userId: string, closeReason: string): Promise<{ id: number; requested_at: Date }> {
  const signalAt = new Date().toISOString()
  return db.transaction().execute(async (trx) => {
    await switchAutoPlaceOff(trx, userId)
    // Every account of the trader's: a kill switch that left a trade open somewhere would not be one.
    await noteCloseReason(trx, userId, 'every account', closeReason)
    const contracts = await openTradeContracts(trx, userId, 'every account')
    await requestFlattens(trx, contracts.map((open) => ({ userId, contract: open.contract, brokerContractId: open.broker_contract_id, side: null, alertId: null, result: 'Session End' as const, signalExitPrice: null, signalAt })))
    return recordKillSwitch(trx, userId)
  })
}
