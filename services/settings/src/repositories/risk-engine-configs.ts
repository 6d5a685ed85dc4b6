import { sql, type Database, type Kysely } from '@signals/db'
import type { RiskEngineConfig } from '@signals/risk-engine'

export async function findRiskEngineConfig(db: Kysely<Database>, userId: string): Promise<{ config: unknown; updatedAt: Date } | undefined> {
  const row = await db.selectFrom('risk_engine_configs').select(['config', 'updated_at']).where('user_id', '=', userId).executeTakeFirst()
  return row ? { config: row.config, updatedAt: row.updated_at } : undefined
}

/** Inserts or replaces the user's configuration; updated_at always advances. */
export async function saveRiskEngineConfig(db: Kysely<Database>, userId: string, config: RiskEngineConfig): Promise<Date> {
  const row = await db
    .insertInto('risk_engine_configs')
    .values({ user_id: userId, config: JSON.stringify(config), updated_at: sql<Date>`clock_timestamp()` })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        config: JSON.stringify(config),
        updated_at: sql<Date>`greatest(clock_timestamp(), risk_engine_configs.updated_at + interval '1 microsecond')`,
      }),
    )
    .returning('updated_at')
    .executeTakeFirstOrThrow()
  return row.updated_at
}
