import { sql, type Database, type Kysely } from '@signals/db'
import type { ConfigFieldValue, RiskEngineConfig } from '@signals/risk-engine'

/** The preset a configuration was last filled from, as stored: its names, and the values it set by dotted field name. */
export interface StoredPresetOrigin {
  id: string
  firm: string
  plan: string
  values: Record<string, ConfigFieldValue>
}

export interface StoredRiskConfig {
  config: unknown
  updatedAt: Date
  preset: unknown
}

/** An account's stored configuration, or undefined for the defaults. */
export async function findAccountRiskConfig(db: Kysely<Database>, accountId: string): Promise<StoredRiskConfig | undefined> {
  const row = await db.selectFrom('account_risk_configs').select(['config', 'updated_at', 'preset']).where('account_id', '=', accountId).executeTakeFirst()
  return row ? { config: row.config, updatedAt: row.updated_at, preset: row.preset } : undefined
}

/** The trader's primary account's stored configuration (the spec's `/api/risk-engine/config`), or undefined for the defaults. */
export async function findPrimaryRiskConfig(db: Kysely<Database>, userId: string): Promise<StoredRiskConfig | undefined> {
  const row = await db
    .selectFrom('account_risk_configs as r')
    .innerJoin('broker_accounts as a', 'a.id', 'r.account_id')
    .select(['r.config', 'r.updated_at', 'r.preset'])
    .where('a.user_id', '=', userId)
    .where('a.is_primary', '=', true)
    .executeTakeFirst()
  return row ? { config: row.config, updatedAt: row.updated_at, preset: row.preset } : undefined
}

/**
 * Inserts or replaces an account's configuration; updated_at always advances. With `preset` the row records
 * that preset as the configuration's origin; without it (a plain save) the recorded origin stays. Answers the
 * save time and the recorded origin.
 */
export async function saveAccountRiskConfig(
  db: Kysely<Database>,
  account: { id: string; userId: string },
  config: RiskEngineConfig,
  preset?: StoredPresetOrigin,
): Promise<{ updatedAt: Date; preset: unknown }> {
  const json = JSON.stringify(config)
  const presetJson = preset ? JSON.stringify(preset) : null
  const row = await db
    .insertInto('account_risk_configs')
    .values({ account_id: account.id, user_id: account.userId, config: json, updated_at: sql<Date>`clock_timestamp()`, preset: presetJson })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({
        config: json,
        updated_at: sql<Date>`greatest(clock_timestamp(), account_risk_configs.updated_at + interval '1 microsecond')`,
        ...(preset ? { preset: presetJson } : {}),
      }),
    )
    .returning(['updated_at', 'preset'])
    .executeTakeFirstOrThrow()
  return { updatedAt: row.updated_at, preset: row.preset }
}

/**
 * Saves the trader's primary account's configuration (the spec's `/api/risk-engine/config`), as
 * `saveAccountRiskConfig`. Undefined when the trader has no primary account: no such user, since every user
 * gets one with their users row (a trigger; docs/decisions/accounts.md).
 */
export async function savePrimaryRiskConfig(
  db: Kysely<Database>,
  userId: string,
  config: RiskEngineConfig,
  preset?: StoredPresetOrigin,
): Promise<{ updatedAt: Date; preset: unknown } | undefined> {
  const primary = await db.selectFrom('broker_accounts').select('id').where('user_id', '=', userId).where('is_primary', '=', true).executeTakeFirst()
  return primary ? saveAccountRiskConfig(db, { id: primary.id, userId }, config, preset) : undefined
}
