import type { Database, Kysely } from '@signals/db'

/** One alert record of the user's with the times of its steps, and the trades its entry opened (parts included). */
export async function alertStepRows(db: Kysely<Database>, userId: string, recordId: number) {
  const record = await db
    .selectFrom('alerts')
    .select(['id', 'alert_id', 'status', 'reason', 'refusal_code', 'received_at', 'sent_at', 'send_attempts', 'placed_at', 'decided_at', 'order_tag', 'contract', 'order_quantity', 'entry_order_id'])
    .where('id', '=', recordId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!record) return null
  const trades = await db
    .selectFrom('trades')
    .select(['id', 'side', 'quantity', 'entry_price', 'opened_at', 'status', 'closed_at', 'exit_price', 'result', 'pnl', 'exit_requested_at', 'close_reason'])
    .where('user_id', '=', userId)
    .where('alert_record_id', '=', recordId)
    .orderBy('id')
    .execute()
  return { record, trades }
}
