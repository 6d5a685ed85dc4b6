import { sql, type Database, type Kysely, type Side } from '@signals/db'

/** The user's trade by id (null when it is not theirs or does not exist), with what a close needs. */
export async function tradeToClose(db: Kysely<Database>, userId: string, tradeId: string) {
  const row = await db
    .selectFrom('trades')
    .select(['id', 'status', 'side', 'contract', 'broker_contract_id', 'exit_requested_at'])
    .where('id', '=', Number(tradeId))
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row ?? null
}

/** Our open trades the close flattens (the whole position on the side at the broker) keep why they closed. */
export async function noteCloseReasonIn(trx: Kysely<Database>, scope: { userId: string; brokerContractId: number; side: Side }, reason: string): Promise<void> {
  await sql`
    UPDATE trades SET close_reason = ${reason}
    WHERE user_id = ${scope.userId} AND broker_contract_id = ${scope.brokerContractId} AND side = ${scope.side} AND status = 'open'`.execute(trx)
}

/** The latest flatten of the user's contract: done (with what was done) or waiting (with why). */
export async function latestFlattenOf(db: Kysely<Database>, userId: string, contract: string) {
  return db
    .selectFrom('flatten_requests')
    .select(['done_at', 'outcome', 'reason'])
    .where('user_id', '=', userId)
    .where('contract', '=', contract)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}
