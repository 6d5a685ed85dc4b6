import type { Database, Kysely } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'

/** The user's open trades on the session's account and venue: which broker positions are ours. */
export function openTradesOnAccount(db: Kysely<Database>, userId: string, scope: BrokerScope) {
  return db
    .selectFrom('trades')
    .select(['id', 'contract', 'broker_contract_id', 'side', 'quantity'])
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .where('broker', '=', scope.broker)
    .where('environment', '=', scope.environment)
    .where('broker_account_id', '=', scope.accountId)
    .where('broker_contract_id', 'is not', null)
    .orderBy('id')
    .execute()
}

/** The user's saved risk configuration (null: the defaults), which our computed balance starts from. */
export async function riskConfigOf(db: Kysely<Database>, userId: string): Promise<unknown> {
  const row = await db.selectFrom('risk_engine_configs').select('config').where('user_id', '=', userId).executeTakeFirst()
  return row?.config ?? null
}
