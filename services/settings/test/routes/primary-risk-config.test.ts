import t from 'tap'
import { DEFAULT_RISK_ENGINE_CONFIG } from '@signals/risk-engine'
import { answerLoginTests, build } from '../helper.ts'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): the spec's /api/risk-engine/config and
// its presets read and write the primary account's `account_risk_configs` row, the row the connector reads
// for the primary's decisions (by account id, stage 3b), with no per-user table or trigger between them.

const paperLogin = { broker: 'paper', environment: 'demo', username: 'eval.trader', password: 'pw-unique-8812' }
const withOpenTrades = (maxOpenTrades: number) => ({ ...structuredClone(DEFAULT_RISK_ENGINE_CONFIG), limits: { ...DEFAULT_RISK_ENGINE_CONFIG.limits, maxOpenTrades } })

t.test("a save through /api/risk-engine/config is the primary's row the connector reads; an additional account's is untouched", async (t) => {
  const { app, createUser } = await build(t)
  answerLoginTests(t, app)
  const headers = await createUser('ida')
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({ method, url, headers, payload })
  const primary = (await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })).json().account
  const extra = (await call('POST', '/api/accounts', { name: 'Eval', brokerAccountId: 'P-2', loginId: primary.loginId })).json().account
  t.equal((await call('POST', `/api/accounts/${extra.id}/risk-engine/config`, withOpenTrades(1))).statusCode, 200)
  const rowsOf = () => app.db.selectFrom('account_risk_configs').select(['account_id', 'config', 'preset', 'updated_at']).where('user_id', '=', 'ida').orderBy('updated_at').execute()
  const [extraBefore] = await rowsOf()

  const saved = await call('POST', '/api/risk-engine/config', withOpenTrades(4))
  t.equal(saved.statusCode, 200, saved.body)
  const applied = await call('POST', '/api/risk-engine/presets/topstep-50k/apply', { limits: { maxOpenTrades: 3 } })
  t.equal(applied.statusCode, 200, applied.body)

  const rows = await rowsOf()
  t.equal(rows.length, 2, "one row per account: the spec's route wrote no other")
  t.same(rows[0], extraBefore, "the additional account's row is as it was: config, preset origin and time")
  t.match(rows[1], { account_id: primary.id, config: { limits: { maxOpenTrades: 3 }, account: { startingBalance: 50_000 } }, preset: { id: 'topstep-50k' } }, "the primary's row holds the save and the preset")
  t.equal(rows[1]?.updated_at.toISOString(), applied.json().updatedAt, 'the time the route answered is the row\'s')
  t.same((await call('GET', `/api/accounts/${primary.id}/risk-engine/config`)).json(), (await call('GET', '/api/risk-engine/config')).json(), "the primary's account route answers the same, preset origin included")
  t.match((await call('GET', `/api/accounts/${extra.id}/risk-engine/config`)).json(), { config: { limits: { maxOpenTrades: 1 } }, preset: null })
})

t.test('a trader whose primary has no broker login yet saves as before; a user gone from the database is a 404', async (t) => {
  const { app, createUser, headersFor } = await build(t)
  const headers = await createUser('jo')
  const saved = await app.inject({ method: 'POST', url: '/api/risk-engine/config', headers, payload: withOpenTrades(2) })
  t.equal(saved.statusCode, 200, saved.body)
  const primary = await app.db.selectFrom('broker_accounts').select(['id', 'login_id']).where('user_id', '=', 'jo').where('is_primary', '=', true).executeTakeFirstOrThrow()
  t.equal(primary.login_id, null, 'the primary made with the user, no login yet')
  t.match(await app.db.selectFrom('account_risk_configs').selectAll().where('user_id', '=', 'jo').execute(), [{ account_id: primary.id, config: { limits: { maxOpenTrades: 2 } } }])

  const gone = headersFor('nobody')
  t.same((await app.inject({ method: 'GET', url: '/api/risk-engine/config', headers: gone })).json(), { success: true, config: DEFAULT_RISK_ENGINE_CONFIG, updatedAt: null, isDefault: true, preset: null })
  for (const url of ['/api/risk-engine/config', '/api/risk-engine/presets/topstep-50k/apply']) {
    const response = await app.inject({ method: 'POST', url, headers: gone, payload: url.endsWith('apply') ? {} : withOpenTrades(2) })
    t.equal(response.statusCode, 404, url)
    t.same(response.json(), { success: false, error: 'User not found' }, url)
  }
  t.equal((await app.db.selectFrom('account_risk_configs').select('account_id').where('user_id', '=', 'nobody').execute()).length, 0, 'nothing saved')
})
