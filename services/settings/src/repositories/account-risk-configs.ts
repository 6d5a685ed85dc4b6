import { sql, type Database, type Kysely } from '@signals/db'
import type { RiskEngineConfig } from '@signals/risk-engine'

/** An account's stored configuration (the primary's mirrors risk_engine_configs), or undefined for the defaults. */
export async function findAccountRiskConfig(db: Kysely<Database>, accountId: string): Promise<{ config: unknown; updatedAt: Date; preset: unknown } | undefined> {
  const row = await db.selectFrom('account_risk_configs').select(['config', 'updated_at', 'preset']).where('account_id', '=', accountId).executeTakeFirst()
  return row ? { config: row.config, updatedAt: row.updated_at, preset: row.preset } : undefined
}

/**
 * Inserts or replaces an additional account's configuration; updated_at always advances and a recorded preset
 * origin stays (a plain save, as `saveRiskEngineConfig`). The primary's is saved to risk_engine_configs instead.
 */
export async function saveAccountRiskConfig(db: Kysely<Database>, account: { id: string; userId: string }, config: RiskEngineConfig): Promise<{ updatedAt: Date; preset: unknown }> {
  const json = JSON.stringify(config)
  const row = await db
    .insertInto('account_risk_configs')
    .values({ account_id: account.id, user_id: account.userId, config: json, updated_at: sql<Date>`clock_timestamp()` })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({ config: json, updated_at: sql<Date>`greatest(clock_timestamp(), account_risk_configs.updated_at + interval '1 microsecond')` }),
    )
    .returning(['updated_at', 'preset'])
    .executeTakeFirstOrThrow()
  return { updatedAt: row.updated_at, preset: row.preset }
}
