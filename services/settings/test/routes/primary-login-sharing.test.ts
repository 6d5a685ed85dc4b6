import t from 'tap'
import { PAPER_LOGIN, traderSharingLogin } from '../helper.ts'

// Found by the review of the login move (4d96e66): PUT /api/broker-credentials updated a login the primary shares in place,
// whatever the account id: the primary may be saved onto the broker account an additional account under the
// same login already serves (POST /api/accounts refuses exactly that with isLinked), so two of the trader's
// accounts trade one broker account.

t.test("the primary cannot be saved onto the broker account an additional account under its login serves", async (t) => {
  const { app, headers, primary } = await traderSharingLogin(t)

  const saved = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: { ...PAPER_LOGIN, accountId: 'PA-2' } })
  t.match({ status: saved.statusCode, body: saved.json() }, { status: 409, body: { code: 'account_exists', error: /already linked under this login/ } }, 'refused, saying why')
  const serving = await app.db.selectFrom('broker_accounts').select('id').where('login_id', '=', primary.login_id).where('broker_account_ref', '=', 'PA-2').execute()
  t.equal(serving.length, 1, `one account of the trader per broker account under a login (the save answered ${saved.statusCode})`)
})
