import type { Database, Kysely } from '@signals/db'
import { connectedTrader, savePrimaryRiskConfig } from './trading-helper.ts'

/** An operator source that u-0 subscribes to, as admin makes it. */
export async function operatorSource(db: Kysely<Database>): Promise<string> {
  const row = await db.insertInto('signal_sources').values({ owner_user_id: null, name: 'house', token_hash: crypto.randomUUID().replaceAll('-', '').padEnd(64, '0') }).returning('id').executeTakeFirstOrThrow()
  await db.insertInto('signal_source_subscriptions').values({ source_id: row.id, user_id: 'u-0', size_rule: 'account' }).execute()
  return row.id
}

/** u-0 with an operator source, two contracts an entry, adding to a position and reversals allowed. */
export async function traderWithSource(t: Parameters<typeof connectedTrader>[0], options?: Parameters<typeof connectedTrader>[1]) {
  const connected = await connectedTrader(t, options)
  const house = await operatorSource(connected.db)
  const riskConfig = { riskMode: { mode: 'fixed_contracts', fixedContracts: 2 }, limits: { maxOpenTrades: 10 }, positionChanges: { reversals: 'allow', pyramiding: 'allow' } }
  await savePrimaryRiskConfig(connected.db, 'u-0', riskConfig)
  return { ...connected, house }
}
