import { sql, type Database, type Kysely, type Transaction } from '@signals/db'
import type { LiveTradingValue } from '../schemas/trading-settings.ts'

type Db = Kysely<Database> | Transaction<Database>

// The spec's `live_trading` setting is the primary account's two switches (issue 22; docs/decisions/accounts.md,
// "Built: the live-trading mirror dropped"): `live_trading` and `auto_place` on the primary's `broker_accounts`
// row, the row the connector reads. `switches_updated_at` is the setting's `updatedAt`; null until the trader's
// settings are first read or a switch is first saved.

const switchesOf = (row: { live_trading: boolean; auto_place: boolean }): LiveTradingValue => ({ enabled: row.live_trading, autoPlaceOrders: row.auto_place })

function primary(db: Db, userId: string) {
  return db
    .selectFrom('broker_accounts')
    .select(['id', 'live_trading', 'auto_place', 'switches_updated_at'])
    .where('user_id', '=', userId)
    .where('is_primary', '=', true)
}

/**
 * The primary's switches, their time stamped first if the trader never had one (the spec's "missing settings
 * are created with defaults first": the switches are off by default). Undefined when there is no such user
 * (every user has a primary, from the trigger on `users`). Two statements: a concurrent first read waits for
 * the stamp and then reads it.
 */
export async function getOrStampPrimarySwitches(db: Db, userId: string): Promise<{ value: LiveTradingValue; updatedAt: Date } | undefined> {
  await db
    .updateTable('broker_accounts')
    .set({ switches_updated_at: sql<Date>`clock_timestamp()` })
    .where('user_id', '=', userId)
    .where('is_primary', '=', true)
    .where('switches_updated_at', 'is', null)
    .execute()
  const row = await primary(db, userId).executeTakeFirst()
  if (!row || row.switches_updated_at === null) return undefined
  return { value: switchesOf(row), updatedAt: row.switches_updated_at }
}

/**
 * The primary's switches without changing anything (off when there is no such user). `lock` holds the row
 * (FOR SHARE) until the transaction ends, so a concurrent switch waits for our decision.
 */
export async function readPrimarySwitches(db: Db, userId: string, lock = false): Promise<LiveTradingValue> {
  const query = primary(db, userId)
  const row = await (lock ? query.forShare() : query).executeTakeFirst()
  return row ? switchesOf(row) : { enabled: false, autoPlaceOrders: false }
}

interface SwitchesChange {
  previous: LiveTradingValue
  saved: { value: LiveTradingValue; updatedAt: Date }
}

/**
 * Saves the primary's switches inside `trx` and returns what they replaced; undefined when there is no such
 * user. The row is locked first (`FOR UPDATE`), so concurrent saves (a PATCH of one switch, a ban) are decided
 * one after the other and each sees what the previous one committed. `updatedAt` is the clock after the
 * lock, never before the previous save's: it always advances.
 */
export async function savePrimarySwitches(
  trx: Transaction<Database>,
  userId: string,
  change: (current: LiveTradingValue) => LiveTradingValue,
): Promise<SwitchesChange | undefined> {
  const current = await primary(trx, userId).forUpdate().executeTakeFirst()
  if (!current) return undefined
  const previous = switchesOf(current)
  const next = change(previous)
  const saved = await trx
    .updateTable('broker_accounts')
    .set({
      live_trading: next.enabled,
      auto_place: next.autoPlaceOrders,
      switches_updated_at: sql<Date>`greatest(clock_timestamp(), ${current.switches_updated_at}::timestamptz + interval '1 microsecond')`,
      updated_at: sql<Date>`clock_timestamp()`,
    })
    .where('id', '=', current.id)
    .returning(['live_trading', 'auto_place', 'switches_updated_at'])
    .executeTakeFirstOrThrow()
  return { previous, saved: { value: switchesOf(saved), updatedAt: saved.switches_updated_at as Date } }
}
