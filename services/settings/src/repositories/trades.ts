import type { Database, Kysely } from '@signals/db'

/** The user's open trades (live-trading-status `liveTradesCount`). */
export async function countOpenTrades(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('trades')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow()
  return Number(row.count)
}
