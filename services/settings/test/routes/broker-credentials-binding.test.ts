import t from 'tap'
import { CredentialsCipher, credentialsContext } from '@signals/secrets'
import { sealedSecretOf as sealedOf } from '@signals/secrets'
import { findPrimaryLogin } from '@signals/db'
import { build } from '../helper.ts'

// Issue 15 point 8: cid as Tradovate's documents show it (a number) or as a string; the sealed secret is
// bound to user, broker, environment and account.
const tradovate = { broker: 'tradovate', environment: 'demo', accountId: 'DEMO-77', username: 'ada.l', password: 'pw-unique-8812', appId: 'Signals', appVersion: '1.0', sec: 'sec-unique-4410' }

t.test('cid is accepted as a number or a string, and kept as given', async (t) => {
  const { app, config, createUser } = await build(t)
  const cipher = CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  for (const [userId, cid] of [['num', 8], ['str', '8']] as const) {
    const headers = await createUser(userId)
    const saved = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: { ...tradovate, cid } })
    t.equal(saved.statusCode, 200, `cid ${JSON.stringify(cid)}`)
    const row = await findPrimaryLogin(app.db, userId)
    if (!row) throw new Error(`${userId}'s primary account has no login`)
    t.equal(cipher.open(sealedOf(row), credentialsContext({ userId, broker: 'tradovate', environment: 'demo', accountId: 'DEMO-77' })).cid, cid)
  }
  const headers = await createUser('bad')
  for (const cid of [0, -1, 1.5, '', true]) {
    const refused = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: { ...tradovate, cid } })
    t.equal(refused.statusCode, 400, `cid ${JSON.stringify(cid)} refused`)
    t.match(refused.json(), { success: false, error: /^Invalid broker credentials/ })
  }
})

t.test("a login whose environment, or the primary's account, was edited in the database no longer opens", async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('eve')
  await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: { ...tradovate, cid: 8 } })
  t.equal((await app.inject({ method: 'GET', url: '/api/broker-credentials', headers })).json().credentials.usernameMasked, 'a***l')
  await app.db.updateTable('broker_logins').set({ environment: 'live' }).where('user_id', '=', 'eve').execute()
  const edited = await app.inject({ method: 'GET', url: '/api/broker-credentials', headers })
  t.equal(edited.statusCode, 200)
  t.equal(edited.json().credentials.usernameMasked, null, 'the sealed part does not open for the edited login')
  await app.db.updateTable('broker_logins').set({ environment: 'demo' }).where('user_id', '=', 'eve').execute()
  t.equal((await app.inject({ method: 'GET', url: '/api/broker-credentials', headers })).json().credentials.usernameMasked, 'a***l', 'put back, it opens again')
  await app.db.updateTable('broker_accounts').set({ broker_account_ref: 'DEMO-78' }).where('user_id', '=', 'eve').where('is_primary', '=', true).execute()
  t.match((await app.inject({ method: 'GET', url: '/api/broker-credentials', headers })).json().credentials, { accountId: 'DEMO-78', usernameMasked: null }, "nor for another account on the primary")
})
