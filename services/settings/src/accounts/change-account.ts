import type { Database, FeedCommandRow, Kysely, Transaction } from '@signals/db'
import { deleteAccount, findAccount, updateAccount, type AccountRow } from '../repositories/broker-accounts.ts'
import { lockLiveTrading, saveSetting } from '../repositories/trading-settings.ts'
import { enqueueFeedCommand } from '../repositories/feed-commands.ts'
import type { AccountChangeBody } from '../schemas/accounts.ts'
import { accountNotFound, primaryNotDeletable, tradingNotAvailable } from './account-refusals.ts'

/**
 * Renames an account or turns its switches. The primary's switches are its trader's `live_trading` setting
 * (the connector reads it), saved as `POST /api/trading-settings` saves it, with the same feed command; the
 * row here follows by its trigger. An additional account cannot go live yet (409).
 *
 * Lock order: trading_settings before broker_accounts, as the trigger takes them, so a concurrent
 * settings save or ban waits instead of deadlocking.
 */
export async function changeAccount(db: Kysely<Database>, userId: string, accountId: string, body: AccountChangeBody): Promise<FeedCommandRow | null> {
  return db.transaction().execute(async (trx) => {
    const account = await findAccount(trx, userId, accountId)
    if (!account) throw accountNotFound()
    if (!account.is_primary) {
      if (body.liveTrading === true) throw tradingNotAvailable()
      await updateAccount(trx, account.id, { name: body.name?.trim(), liveTrading: body.liveTrading, autoPlace: body.autoPlaceOrders })
      return null
    }
    const command = await switchPrimary(trx, userId, body)
    await updateAccount(trx, account.id, { name: body.name?.trim() })
    return command
  })
}

async function switchPrimary(trx: Transaction<Database>, userId: string, body: AccountChangeBody): Promise<FeedCommandRow | null> {
  if (body.liveTrading === undefined && body.autoPlaceOrders === undefined) return null
  const current = await lockLiveTrading(trx, userId)
  const next = { ...current, enabled: body.liveTrading ?? current.enabled, autoPlaceOrders: body.autoPlaceOrders ?? current.autoPlaceOrders }
  await saveSetting(trx, userId, 'live_trading', next)
  if (next.enabled === current.enabled) return null
  return enqueueFeedCommand(trx, { userId, action: next.enabled ? 'start' : 'stop', reason: next.enabled ? 'live trading enabled' : 'live trading disabled' })
}

/** Removes an additional account; the primary stays (409). Answers the account as it was. */
export async function removeAccount(db: Kysely<Database>, userId: string, accountId: string): Promise<AccountRow> {
  return db.transaction().execute(async (trx) => {
    const account = await findAccount(trx, userId, accountId)
    if (!account) throw accountNotFound()
    if (account.is_primary) throw primaryNotDeletable()
    await deleteAccount(trx, account)
    return account
  })
}
