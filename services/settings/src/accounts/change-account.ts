import type { Database, FeedCommandRow, Kysely, Transaction } from '@signals/db'
import { deleteAccount, findAccount, updateAccount, type AccountRow } from '../repositories/broker-accounts.ts'
import { savePrimarySwitches } from '../repositories/primary-switches.ts'
import { enqueueFeedCommand } from '../repositories/feed-commands.ts'
import type { AccountChangeBody } from '../schemas/accounts.ts'
import { accountNotFound, primaryNotDeletable, tradingNotAvailable } from './account-refusals.ts'

/**
 * Renames an account or turns its switches. The primary's switches are its trader's `live_trading` setting,
 * saved as `POST /api/trading-settings` saves them (the setting's time advanced), with the same feed command.
 * An additional account cannot go live yet (409). One row lock, the account's: a concurrent settings save
 * or ban waits for it.
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
  const change = await savePrimarySwitches(trx, userId, (current) => ({
    enabled: body.liveTrading ?? current.enabled,
    autoPlaceOrders: body.autoPlaceOrders ?? current.autoPlaceOrders,
  }))
  if (!change) throw accountNotFound()
  const next = change.saved.value
  if (next.enabled === change.previous.enabled) return null
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
