import { sql, type Database, type Kysely } from '@signals/db'
import type { ConfigFieldValue, RiskEngineConfig } from '@signals/risk-engine'

/** The preset a configuration was last filled from, as stored: its names, and the values it set by dotted field name. */
export interface StoredPresetOrigin {
  id: string
  firm: string
  plan: string
  values: Record<string, ConfigFieldValue>
}

export async function findRiskEngineConfig(
  db: Kysely<Database>,
  userId: string,
): Promise<{ config: unknown; updatedAt: Date; preset: unknown } | undefined> {
  const row = await db.selectFrom('risk_engine_configs').select(['config', 'updated_at', 'preset']).where('user_id', '=', userId).executeTakeFirst()
  return row ? { config: row.config, updatedAt: row.updated_at, preset: row.preset } : undefined
}

/**
 * Inserts or replaces the user's configuration; updated_at always advances. With `preset` the row records
 * that preset as the configuration's origin; without it (a plain save) the recorded origin stays. Answers the
 * save time and the recorded origin.
 */
export async function saveRiskEngineConfig(
  db: Kysely<Database>,
  userId: string,
  config: RiskEngineConfig,
  preset?: StoredPresetOrigin,
): Promise<{ updatedAt: Date; preset: unknown }> {
  const presetJson = preset ? JSON.stringify(preset) : null
  const row = await db
    .insertInto('risk_engine_configs')
    .values({ user_id: userId, config: JSON.stringify(config), updated_at: sql<Date>`clock_timestamp()`, preset: presetJson })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        config: JSON.stringify(config),
        updated_at: sql<Date>`greatest(clock_timestamp(), risk_engine_configs.updated_at + interval '1 microsecond')`,
        ...(preset ? { preset: presetJson } : {}),
      }),
    )
    .returning(['updated_at', 'preset'])
    .executeTakeFirstOrThrow()
  return { updatedAt: row.updated_at, preset: row.preset }
}
