import t from 'tap'
import { answerLoginTests, build } from '../helper.ts'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): the spec's live_trading setting is the
// primary account's switches on its `broker_accounts` row, the row the connector reads (`feeds.ts` `tradable`:
// `is_primary AND live_trading`; the fan-out's recipients; the entry batch's switches), with no trigger between.

const paperLogin = { broker: 'paper', environment: 'demo', username: 'eval.trader', password: 'pw-unique-8812' }

t.test("switching live trading through the spec's route is the primary's row the connector reads; an additional account's switches are untouched", async (t) => {
  const { app, createUser } = await build(t)
  answerLoginTests(t, app)
  const headers = await createUser('lea')
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => app.inject({ method, url, headers, payload })
  const primary = (await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })).json().account
  const extra = (await call('POST', '/api/accounts', { name: 'Eval', brokerAccountId: 'P-2', loginId: primary.loginId })).json().account
  t.equal((await call('PATCH', `/api/accounts/${extra.id}`, { autoPlaceOrders: true })).statusCode, 200)
  const accountsOf = () =>
    app.db.selectFrom('broker_accounts').select(['id', 'live_trading', 'auto_place', 'switches_updated_at', 'updated_at']).where('user_id', '=', 'lea').orderBy('is_primary', 'desc').execute()
  const [, extraBefore] = await accountsOf()
  // What the connector's feeds read (`liveUsers`): approved users whose primary is live.
  const connectorLive = async () =>
    (await app.db.selectFrom('broker_accounts').innerJoin('users', 'users.user_id', 'broker_accounts.user_id').select('broker_accounts.user_id')
      .where('broker_accounts.is_primary', '=', true).where('broker_accounts.live_trading', '=', true).where('users.user_id', '=', 'lea').execute()).length > 0

  const on = await call('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: false } })
  t.equal(on.statusCode, 200, on.body)
  t.match(on.json(), { success: true, setting: { settingKey: 'live_trading', value: { enabled: true, autoPlaceOrders: false } }, feedCommand: { action: 'start' } })
  let [primaryRow, extraRow] = await accountsOf()
  t.match(primaryRow, { id: primary.id, live_trading: true, auto_place: false }, "the primary's row holds the switches")
  t.equal(primaryRow?.switches_updated_at?.toISOString(), on.json().setting.updatedAt, "the time the route answered is the row's")
  t.ok(await connectorLive(), 'the connector reads the trader as live')
  t.same(extraRow, extraBefore, "the additional account's switches and time are as they were")

  const off = await call('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: false, autoPlaceOrders: true } })
  t.match(off.json(), { setting: { value: { enabled: false, autoPlaceOrders: true } }, feedCommand: { action: 'stop' } })
  ;[primaryRow, extraRow] = await accountsOf()
  t.match(primaryRow, { live_trading: false, auto_place: true })
  t.notOk(await connectorLive(), 'the connector reads the trader as not live')
  t.same(extraRow, extraBefore, 'still untouched')

  const settings = (await call('GET', '/api/trading-settings')).json().settings
  t.same(settings.live_trading, { value: { enabled: false, autoPlaceOrders: true }, updatedAt: off.json().setting.updatedAt }, 'GET answers the saved switches and their time')
  const status = (await call('GET', '/api/live-trading-status')).json()
  t.match(status.status, { liveTradingEnabled: false, autoPlaceOrdersEnabled: true })
  t.same(status.settings.live_trading, settings.live_trading)

  t.equal((await call('PATCH', `/api/accounts/${extra.id}`, { autoPlaceOrders: false })).statusCode, 200)
  t.same((await call('GET', '/api/trading-settings')).json().settings.live_trading, settings.live_trading, "an additional account's switch is not the spec's setting")
})
