import t from 'tap'
import { unsignedIdentity } from '@signals/test-support'
import { build } from '../helper.ts'

t.test('GET /api/trading-settings creates both defaults first and returns them keyed by setting key', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('alice')
  const response = await app.inject({ method: 'GET', url: '/api/trading-settings', headers })
  t.equal(response.statusCode, 200)
  const body = response.json()
  t.same(body.settings.risk_strategy.value, { enabled: false, type: 'martingale', portfolioBalance: 50000, riskPercent: 1, maxContracts: null })
  t.same(body.settings.live_trading.value, { enabled: false, autoPlaceOrders: false })
  t.same(Object.keys(body.settings).sort(), ['live_trading', 'risk_strategy'])
  t.ok(Date.parse(body.settings.live_trading.updatedAt), 'updatedAt is a timestamp')
  const rows = await app.db.selectFrom('trading_settings').selectAll().where('user_id', '=', 'alice').execute()
  t.equal(rows.length, 2, 'both rows stored (live_trading written from the primary account by its trigger)')
  const primary = await app.db.selectFrom('broker_accounts').select('switches_updated_at').where('user_id', '=', 'alice').where('is_primary', '=', true).executeTakeFirstOrThrow()
  t.equal(primary.switches_updated_at?.toISOString(), body.settings.live_trading.updatedAt, "live_trading is the primary account's switches, their time stamped")

  t.test('a second GET returns the same rows without touching them', async (t) => {
    const again = (await app.inject({ method: 'GET', url: '/api/trading-settings', headers })).json()
    t.same(again.settings, body.settings)
  })
})

t.test('concurrent first GETs create each default exactly once and all see the same rows', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('bob')
  const responses = await Promise.all(Array.from({ length: 12 }, () => app.inject({ method: 'GET', url: '/api/trading-settings', headers })))
  t.same(new Set(responses.map((r) => r.statusCode)), new Set([200]))
  const stamps = new Set(responses.map((r) => JSON.stringify(r.json().settings)))
  t.equal(stamps.size, 1, 'every caller saw the same settings, updatedAt included')
  const count = await app.db
    .selectFrom('trading_settings')
    .select(['setting_key', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', 'bob')
    .groupBy('setting_key')
    .execute()
  t.same(count.map((row) => [row.setting_key, Number(row.n)]).sort(), [['live_trading', 1], ['risk_strategy', 1]])
  const primary = await app.db.selectFrom('broker_accounts').select('switches_updated_at').where('user_id', '=', 'bob').where('is_primary', '=', true).executeTakeFirstOrThrow()
  t.equal(primary.switches_updated_at?.toISOString(), responses[0]?.json().settings.live_trading.updatedAt, "the primary's switches stamped once")
})

t.test('POST upserts one row per key, advances updated_at and answers {success, setting}', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('carol')
  const save = (riskPercent: number) =>
    app.inject({
      method: 'POST',
      url: '/api/trading-settings',
      headers,
      payload: { settingKey: 'risk_strategy', settingValue: { enabled: true, type: 'legacy', portfolioBalance: 25000, riskPercent, maxContracts: 3 } },
    })
  const first = await save(1.5)
  t.equal(first.statusCode, 200)
  t.match(first.json(), { success: true, setting: { settingKey: 'risk_strategy', value: { type: 'legacy', riskPercent: 1.5 } }, feedCommand: null })
  const second = await save(2)
  const firstAt = Date.parse(first.json().setting.updatedAt)
  const secondAt = Date.parse(second.json().setting.updatedAt)
  t.ok(secondAt >= firstAt, 'updated_at does not go back')
  const rows = await app.db.selectFrom('trading_settings').selectAll().where('user_id', '=', 'carol').where('setting_key', '=', 'risk_strategy').execute()
  t.equal(rows.length, 1, 'one row for the key')
  t.equal((rows[0]?.setting_value as { riskPercent: number }).riskPercent, 2)
  t.ok((rows[0]?.updated_at.getTime() ?? 0) >= firstAt)

  const precise = await app.db
    .selectFrom('trading_settings')
    .select((eb) => eb.fn<string>('to_char', [eb.ref('updated_at'), eb.val('YYYY-MM-DD HH24:MI:SS.US')]).as('stamp'))
    .where('user_id', '=', 'carol')
    .where('setting_key', '=', 'risk_strategy')
    .executeTakeFirstOrThrow()
  const third = await save(3)
  t.equal(third.statusCode, 200)
  const after = await app.db
    .selectFrom('trading_settings')
    .select((eb) => eb.fn<string>('to_char', [eb.ref('updated_at'), eb.val('YYYY-MM-DD HH24:MI:SS.US')]).as('stamp'))
    .where('user_id', '=', 'carol')
    .where('setting_key', '=', 'risk_strategy')
    .executeTakeFirstOrThrow()
  t.ok(after.stamp > precise.stamp, `updated_at advanced (${precise.stamp} -> ${after.stamp})`)

  const listed = (await app.inject({ method: 'GET', url: '/api/trading-settings', headers })).json()
  t.equal(listed.settings.risk_strategy.value.riskPercent, 3, 'GET shows the saved value')
  t.same(listed.settings.live_trading.value, { enabled: false, autoPlaceOrders: false }, 'the other key got its default')
})

const validRisk = { enabled: true, type: 'legacy', portfolioBalance: 1000, riskPercent: 1, maxContracts: null }

const badRequests: { name: string; payload: unknown; error: RegExp }[] = [
  { name: 'unknown setting key', payload: { settingKey: 'theme', settingValue: {} }, error: /^Invalid setting key "theme"/ },
  { name: 'setting key of the wrong type', payload: { settingKey: 7, settingValue: {} }, error: /^Invalid setting key/ },
  { name: 'missing settingKey', payload: { settingValue: { enabled: true, autoPlaceOrders: true } }, error: /^Invalid setting key.*settingKey is required/ },
  { name: 'empty settingKey', payload: { settingKey: '', settingValue: {} }, error: /^Invalid setting key.*settingKey is required/ },
  { name: 'missing settingValue', payload: { settingKey: 'live_trading' }, error: /^Invalid setting key.*settingValue is required/ },
  { name: 'null settingValue', payload: { settingKey: 'live_trading', settingValue: null }, error: /^Invalid setting key.*settingValue is required/ },
  { name: 'body that is not an object', payload: [1, 2], error: /^Invalid setting key.*JSON object/ },
  { name: 'unknown top-level field', payload: { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true }, userId: 'x' }, error: /userId is not a known field/ },
  { name: 'live_trading value not an object', payload: { settingKey: 'live_trading', settingValue: 'on' }, error: /^Invalid setting value for live_trading: settingValue must be object/ },
  { name: 'live_trading enabled not boolean', payload: { settingKey: 'live_trading', settingValue: { enabled: 'true', autoPlaceOrders: false } }, error: /settingValue\.enabled must be boolean/ },
  { name: 'live_trading missing autoPlaceOrders', payload: { settingKey: 'live_trading', settingValue: { enabled: true } }, error: /settingValue\.autoPlaceOrders is required/ },
  { name: 'live_trading unknown field', payload: { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true, turbo: 1 } }, error: /settingValue\.turbo is not a known field/ },
  { name: 'risk_strategy unknown type', payload: { settingKey: 'risk_strategy', settingValue: { ...validRisk, type: 'yolo' } }, error: /settingValue\.type must be one of "legacy", "martingale"/ },
  { name: 'risk_strategy negative balance', payload: { settingKey: 'risk_strategy', settingValue: { ...validRisk, portfolioBalance: -1 } }, error: /settingValue\.portfolioBalance must be >= 0/ },
  { name: 'risk_strategy riskPercent over 100', payload: { settingKey: 'risk_strategy', settingValue: { ...validRisk, riskPercent: 101 } }, error: /settingValue\.riskPercent must be <= 100/ },
  { name: 'risk_strategy riskPercent zero', payload: { settingKey: 'risk_strategy', settingValue: { ...validRisk, riskPercent: 0 } }, error: /settingValue\.riskPercent must be > 0/ },
  { name: 'risk_strategy fractional maxContracts', payload: { settingKey: 'risk_strategy', settingValue: { ...validRisk, maxContracts: 1.5 } }, error: /settingValue\.maxContracts/ },
  { name: 'risk_strategy missing enabled', payload: { settingKey: 'risk_strategy', settingValue: { type: 'legacy', portfolioBalance: 1, riskPercent: 1, maxContracts: null } }, error: /settingValue\.enabled is required/ },
]

t.test('every 400 path of POST /api/trading-settings says what was wrong and saves nothing', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('dave')
  for (const { name, payload, error } of badRequests) {
    const response = await app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: payload as object })
    t.equal(response.statusCode, 400, `${name}: 400`)
    t.equal(response.json().success, false, `${name}: success false`)
    t.match(response.json().error, error, `${name}: ${response.json().error}`)
  }
  const noBody = await app.inject({ method: 'POST', url: '/api/trading-settings', headers })
  t.equal(noBody.statusCode, 400, 'no body at all')
  t.match(noBody.json().error, /^Invalid setting key/)
  const badJson = await app.inject({ method: 'POST', url: '/api/trading-settings', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"settingKey":' })
  t.equal(badJson.statusCode, 400, 'malformed JSON')
  t.equal(badJson.json().success, false)
  const rows = await app.db.selectFrom('trading_settings').selectAll().where('user_id', '=', 'dave').execute()
  t.equal(rows.length, 0, 'nothing was written')
  t.match(await app.db.selectFrom('broker_accounts').select(['live_trading', 'auto_place', 'switches_updated_at']).where('user_id', '=', 'dave').execute(), [{ live_trading: false, auto_place: false, switches_updated_at: null }], 'nor the switches')
})

t.test('without the gateway identity every route answers 401 Authentication required', async (t) => {
  const { app } = await build(t)
  for (const [method, url] of [
    ['GET', '/api/trading-settings'],
    ['POST', '/api/trading-settings'],
    ['GET', '/api/live-trading-status'],
    ['GET', '/api/risk-engine/config'],
    ['POST', '/api/risk-engine/config'],
    ['GET', '/api/broker-credentials'],
    ['PUT', '/api/broker-credentials'],
    ['DELETE', '/api/broker-credentials'],
  ] as const) {
    const response = await app.inject({ method, url, headers: { 'x-signals-identity': 'forged.header' } })
    t.equal(response.statusCode, 401, `${method} ${url}`)
    t.same(response.json(), { success: false, error: 'Authentication required' })
  }
})

t.test('an identity the gateway marks unapproved gets 403 Account pending approval', async (t) => {
  const { app, createUser } = await build(t)
  await createUser('pending')
  const headers = { 'x-signals-identity': unsignedIdentity({ userId: 'pending', email: 'pending@example.com', role: 'trader', approved: false }) }
  for (const url of ['/api/trading-settings', '/api/live-trading-status', '/api/risk-engine/config', '/api/broker-credentials']) {
    const response = await app.inject({ method: 'GET', url, headers })
    t.equal(response.statusCode, 403, url)
    t.same(response.json(), { success: false, error: 'Account pending approval' })
  }
  t.equal((await app.db.selectFrom('trading_settings').selectAll().execute()).length, 0, 'nothing created')
})

t.test('a vouched-for user without a users row gets 404, not a 500', async (t) => {
  const { app, headersFor } = await build(t)
  const headers = headersFor('ghost')
  const get = await app.inject({ method: 'GET', url: '/api/trading-settings', headers })
  t.equal(get.statusCode, 404)
  t.same(get.json(), { success: false, error: 'User not found' })
  const post = await app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } } })
  t.equal(post.statusCode, 404)
})
