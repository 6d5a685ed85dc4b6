import t from 'tap'
import { sql } from '@signals/db'
import { answerLoginTests, build } from '../helper.ts'

// Issue 22 (docs/decisions/accounts.md, "Built: the login mirror dropped"): the spec's /api/broker-credentials
// reads and writes the primary account's login, the row the connector opens; the spec's broker_credentials row
// is written from it. A login the primary shares with an additional account is replaced in place, or left to
// that account when the broker or environment changes; deleting the credentials unlinks the primary only.
const paper = { broker: 'paper', environment: 'demo', accountId: 'PA-1', username: 'eval.trader', password: 'pw-unique-8812' }
const tradovate = { broker: 'tradovate', environment: 'live', accountId: 'TV-1', username: 'live.trader', password: 'pw-unique-4471', appId: 'Signals', appVersion: '1.0', cid: 8, sec: 'sec-unique-0925' }

t.test("the spec's credentials routes save and remove the primary's login; an additional account under it keeps its login", async (t) => {
  const { app, createUser } = await build(t)
  answerLoginTests(t, app)
  const headers = await createUser('ada')
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => app.inject({ method, url, headers, payload })
  const accounts = async () => (await call('GET', '/api/accounts')).json().accounts as { id: string; isPrimary: boolean; loginId: string | null; broker: string | null; environment: string | null; brokerAccountId: string | null }[]
  const specRow = async () => (await sql<{ broker: string; environment: string; account_id: string; updated_at: Date }>`SELECT broker, environment, account_id, updated_at FROM broker_credentials WHERE user_id = 'ada'`.execute(app.db)).rows
  const logins = async () => (await app.db.selectFrom('broker_logins').select(['id', 'broker', 'environment', 'bound_account_ref']).where('user_id', '=', 'ada').orderBy('created_at').execute())

  const first = await call('PUT', '/api/broker-credentials', paper)
  t.equal(first.statusCode, 200, first.body)
  const [primary] = await accounts()
  t.match(primary, { isPrimary: true, loginId: String, broker: 'paper', environment: 'demo', brokerAccountId: 'PA-1' }, 'the save links the primary to a login')
  t.match(await specRow(), [{ broker: 'paper', environment: 'demo', account_id: 'PA-1' }], "the spec's row is written from it")
  const extra = await call('POST', '/api/accounts', { name: 'Eval 2', brokerAccountId: 'PA-2', loginId: primary?.loginId })
  t.equal(extra.statusCode, 200, extra.body)

  const again = await call('PUT', '/api/broker-credentials', { ...paper, password: 'pw-unique-9930' })
  t.ok(Date.parse(again.json().credentials.updatedAt) > Date.parse(first.json().credentials.updatedAt), 'the time advances')
  t.same((await accounts()).map((each) => each.loginId), [primary?.loginId, primary?.loginId], 'a new password replaces the shared login in place: it serves both accounts')
  t.equal((await specRow())[0]?.updated_at.toISOString(), again.json().credentials.updatedAt, "the spec's row follows")

  const moved = await call('PUT', '/api/broker-credentials', tradovate)
  t.match(moved.json().credentials, { broker: 'tradovate', environment: 'live', accountId: 'TV-1', usernameMasked: 'l********r' })
  const afterMove = await accounts()
  t.match(afterMove, [
    { isPrimary: true, broker: 'tradovate', environment: 'live', brokerAccountId: 'TV-1' },
    { isPrimary: false, loginId: primary?.loginId, broker: 'paper', environment: 'demo', brokerAccountId: 'PA-2' },
  ], 'another broker gives the primary a login of its own; the additional account keeps the old one')
  t.not(afterMove[0]?.loginId, primary?.loginId)
  t.match(await specRow(), [{ broker: 'tradovate', environment: 'live', account_id: 'TV-1' }])
  t.notMatch((await call('GET', '/api/broker-credentials')).body, /pw-unique|live\.trader|sec-unique/, 'no secret in the answer')

  const deleted = await call('DELETE', '/api/broker-credentials')
  t.same(deleted.json(), { success: true, deleted: true, feedCommand: null })
  t.match(await accounts(), [{ isPrimary: true, loginId: null, broker: null, brokerAccountId: null }, { isPrimary: false, loginId: primary?.loginId }], 'the primary unlinked, the additional account untouched')
  t.same((await logins()).map((login) => login.id), [primary?.loginId], "the primary's own login removed, the shared one kept")
  t.same(await specRow(), [], "the spec's row gone")
  t.same((await call('GET', '/api/broker-credentials')).json(), { success: true, credentials: null })
  t.match((await call('GET', '/api/live-trading-status')).json().status, { hasCredentials: false, accountId: null, credentialsUpdatedAt: null })

  await call('PUT', '/api/broker-credentials', paper)
  const own = (await accounts())[0]?.loginId
  await call('PUT', '/api/broker-credentials', { ...tradovate, environment: 'demo' })
  t.equal((await accounts())[0]?.loginId, own, 'a login no other account uses changes broker in place')
  t.match(await logins(), [{ id: primary?.loginId, broker: 'paper' }, { id: own, broker: 'tradovate', environment: 'demo', bound_account_ref: 'TV-1' }])
})

t.test('a user the gateway vouched for but the database no longer has: 404 on a save, nothing stored', async (t) => {
  const { app, headersFor } = await build(t)
  const saved = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers: headersFor('ghost'), payload: paper })
  t.equal(saved.statusCode, 404)
  t.match(saved.json(), { success: false, error: 'User not found' })
  t.equal((await app.db.selectFrom('broker_logins').select('id').execute()).length, 0)
  t.same((await app.inject({ method: 'DELETE', url: '/api/broker-credentials', headers: headersFor('ghost') })).json(), { success: true, deleted: false, feedCommand: null })
})
