import t from 'tap'
import { sql } from '@signals/db'
import { eventually } from '@signals/test-support'
import { traderSharingLogin } from '../helper.ts'
import { deletePrimaryLogin } from '../../src/repositories/primary-login.ts'
import { deleteAccount } from '../../src/repositories/broker-accounts.ts'

// Found by the review of the login move (4d96e66). The primary shares its login with an additional account; the trader removes
// the additional account while, at the same moment, deleting their broker credentials. Each transaction sees the
// other's account still linked, so neither removes the login: the trader's sealed secret outlives both. Each now
// locks the login before it looks: the second waits for the first, and sees what it did.

t.test('deleting the credentials while the account sharing the login is removed leaves no login behind', async (t) => {
  const { app, primary, additional } = await traderSharingLogin(t)

  let accountGone!: () => void
  const accountGoneSeen = new Promise<void>((resolve) => (accountGone = resolve))
  let credentialsGone!: () => void
  const credentialsGoneSeen = new Promise<void>((resolve) => (credentialsGone = resolve))
  const removeAccount = app.db.transaction().execute(async (trx) => {
    await deleteAccount(trx, additional)
    accountGone()
    // Both decided before either commits, or the other waits for this one (a lock): either way, then commit.
    let decided = false
    void credentialsGoneSeen.then(() => (decided = true))
    await eventually(async () => decided || Number((await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(app.db)).rows[0]?.n) > 0)
  })
  const removeCredentials = app.db.transaction().execute(async (trx) => {
    await accountGoneSeen
    const deleted = await deletePrimaryLogin(trx, 'ada')
    credentialsGone()
    return deleted
  })
  const [, deleted] = await Promise.all([removeAccount, removeCredentials])
  t.equal(deleted, true)
  const accounts = await app.db.selectFrom('broker_accounts').select(['id', 'login_id']).where('user_id', '=', 'ada').execute()
  t.same(accounts, [{ id: primary.id, login_id: null }], 'only the unlinked primary is left')
  const logins = await app.db.selectFrom('broker_logins').select(['id', 'bound_account_ref']).where('user_id', '=', 'ada').execute()
  t.same(logins, [], 'no account uses a login any more, so the sealed secret is gone')
})
