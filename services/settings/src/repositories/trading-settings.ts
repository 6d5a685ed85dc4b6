import { sql, type Database, type Kysely, type Transaction } from '@signals/db'
import { DEFAULT_SETTINGS, type SettingKey, type SettingsByKey } from '../schemas/trading-settings.ts'
import { normalizeSettingValue } from '../settings-values.ts'
import { getOrStampPrimarySwitches } from './primary-switches.ts'

/** The settings this table holds: `live_trading` is the primary account's switches (primary-switches.ts). */
const TABLE_KEYS = ['risk_strategy'] as const
type TableKey = (typeof TABLE_KEYS)[number]

export interface StoredSetting<K extends SettingKey = SettingKey> {
  settingKey: K
  value: SettingsByKey[K]['value']
  updatedAt: Date
}

type Db = Kysely<Database> | Transaction<Database>

async function selectSettings(db: Db, userId: string) {
  return db
    .selectFrom('trading_settings')
    .select(['setting_key', 'setting_value', 'updated_at'])
    .where('user_id', '=', userId)
    .where('setting_key', 'in', TABLE_KEYS)
    .execute()
}

function byKey(rows: Awaited<ReturnType<typeof selectSettings>>): Partial<Record<SettingKey, StoredSetting>> {
  const settings: Partial<Record<SettingKey, StoredSetting>> = {}
  for (const row of rows) {
    settings[row.setting_key] = {
      settingKey: row.setting_key,
      value: normalizeSettingValue(row.setting_key, row.setting_value),
      updatedAt: row.updated_at,
    }
  }
  return settings
}

/**
 * The user's settings, creating any missing one with its default first (the primary's switches: their time
 * stamped). Concurrent first calls are safe: the insert does nothing on conflict, so each key is created
 * exactly once and everyone reads the winner. Undefined when there is no such user.
 */
export async function getOrCreateSettings(db: Kysely<Database>, userId: string): Promise<Record<SettingKey, StoredSetting> | undefined> {
  let settings = byKey(await selectSettings(db, userId))
  const missing = TABLE_KEYS.filter((key) => !settings[key])
  if (missing.length > 0) {
    await db
      .insertInto('trading_settings')
      .values(missing.map((key) => ({ user_id: userId, setting_key: key, setting_value: JSON.stringify(DEFAULT_SETTINGS[key]) })))
      .onConflict((oc) => oc.columns(['user_id', 'setting_key']).doNothing())
      .execute()
    settings = byKey(await selectSettings(db, userId))
  }
  const switches = await getOrStampPrimarySwitches(db, userId)
  if (!switches) return undefined
  return { ...settings, live_trading: { settingKey: 'live_trading', ...switches } } as Record<SettingKey, StoredSetting>
}

export interface SettingChange<K extends SettingKey> {
  previous: StoredSetting<K>['value']
  saved: StoredSetting<K>
}

/**
 * Upserts one setting inside `trx` and returns what it replaced. The row is created with its default if
 * missing, then locked (`FOR UPDATE`), so concurrent saves of one key are decided one after the other and
 * each sees the value the previous one committed. updated_at is the clock after the lock, never before
 * the previous save's: it always advances.
 */
export async function saveSetting<K extends TableKey>(
  trx: Transaction<Database>,
  userId: string,
  settingKey: K,
  value: StoredSetting<K>['value'],
): Promise<SettingChange<K>> {
  await trx
    .insertInto('trading_settings')
    .values({ user_id: userId, setting_key: settingKey, setting_value: JSON.stringify(DEFAULT_SETTINGS[settingKey]) })
    .onConflict((oc) => oc.columns(['user_id', 'setting_key']).doNothing())
    .execute()
  const current = await trx
    .selectFrom('trading_settings')
    .select(['setting_value', 'updated_at'])
    .where('user_id', '=', userId)
    .where('setting_key', '=', settingKey)
    .forUpdate()
    .executeTakeFirstOrThrow()
  const saved = await trx
    .updateTable('trading_settings')
    .set({
      setting_value: JSON.stringify(value),
      updated_at: sql<Date>`greatest(clock_timestamp(), ${current.updated_at}::timestamptz + interval '1 microsecond')`,
    })
    .where('user_id', '=', userId)
    .where('setting_key', '=', settingKey)
    .returning(['setting_value', 'updated_at'])
    .executeTakeFirstOrThrow()
  return {
    previous: normalizeSettingValue(settingKey, current.setting_value),
    saved: { settingKey, value: normalizeSettingValue(settingKey, saved.setting_value), updatedAt: saved.updated_at },
  }
}
