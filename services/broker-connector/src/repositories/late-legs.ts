import { type Database, type Kysely } from '@signals/db'
import { lockTradeLegs, type BrokerScope } from './broker-trades.ts'

/** A stop or target the broker placed for an entry (its parent), under our tag `<entry>.sl|tp`. */
export interface EntryLeg {
  recordId: number
  leg: 'stop' | 'target'
  orderId: number
  /** The entry order the leg hangs on (the broker's parent id). */
  entryOrderId: number
}

/**
 * A leg told after the fill that opened its trade: the record's open trade on the session's account, opened
 * from that leg's entry and knowing no such leg yet, is told it (ProjectX places a bracket's legs from the fill
 * and tells them after it; the adapter's hold for them knows only the entries its own session placed, so after
 * a restart, or a hold past its wait, the fill opens the trade first). Written under the record's leg lock, as
 * the trade's opening is. Returns whether the trade was told.
 */
export async function linkLateLeg(db: Kysely<Database>, userId: string, scope: BrokerScope, leg: EntryLeg): Promise<boolean> {
  const column = leg.leg === 'stop' ? 'stop_order_id' : 'target_order_id'
  return db.transaction().execute(async (trx) => {
    await lockTradeLegs(trx, leg.recordId)
    const told = await trx
      .updateTable('trades')
      .set({ [column]: leg.orderId })
      .where('alert_record_id', '=', leg.recordId)
      .where('user_id', '=', userId)
      .where('status', '=', 'open')
      .where('entry_order_id', '=', leg.entryOrderId)
      .where(column, 'is', null)
      .where('broker', '=', scope.broker)
      .where('environment', '=', scope.environment)
      .where('broker_account_id', '=', scope.accountId)
      .returning('id')
      .execute()
    return told.length > 0
  })
}
