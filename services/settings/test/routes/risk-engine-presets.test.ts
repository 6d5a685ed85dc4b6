import t from 'tap'
import { build } from '../helper.ts'
import { DEFAULT_RISK_ENGINE_CONFIG, PROP_FIRM_PRESETS } from '@signals/risk-engine'

type Config = typeof DEFAULT_RISK_ENGINE_CONFIG

t.test('GET /api/risk-engine/presets lists every preset with its fields, sources and dates', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('pia')
  const response = await app.inject({ method: 'GET', url: '/api/risk-engine/presets', headers })
  t.equal(response.statusCode, 200)
  const { presets } = response.json()
  t.same(presets.map((preset: { id: string }) => preset.id), PROP_FIRM_PRESETS.map((preset) => preset.id))
  const topstep = presets.find((preset: { id: string }) => preset.id === 'topstep-50k')
  t.match(topstep, {
    firm: 'Topstep',
    accountSize: 50_000,
    fields: { 'trailingDrawdown.mode': 'end_of_day', 'trailingDrawdown.stopTrailingAtBalance': 50_000, 'dailyLossLimit.amount': 1_000 },
    sources: [{ url: 'https://help.topstep.com/en/articles/8284204', thirdParty: false, readOn: '2026-11' }],
  })
  t.ok(topstep.notCovered.some((line: string) => /15:10 Chicago/.test(line)), 'a rule without a field is said so')
  t.equal((await app.inject({ method: 'GET', url: '/api/risk-engine/presets' })).statusCode, 401)
})

t.test('applying a preset stores what the table says and remembers the preset; a later edit shows as changed', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('paz')
  const applied = await app.inject({ method: 'POST', url: '/api/risk-engine/presets/topstep-50k/apply', headers })
  t.equal(applied.statusCode, 200, applied.body)
  const expected: Config = {
    ...DEFAULT_RISK_ENGINE_CONFIG,
    account: { startingBalance: 50_000 },
    trailingDrawdown: { amount: 2_000, mode: 'end_of_day', stopTrailingAtBalance: 50_000 },
    dailyLossLimit: { enabled: true, amount: 1_000, type: 'hard' },
    consistencyRule: { enabled: true, maxBestDayPercent: 40 },
    verification: { ...DEFAULT_RISK_ENGINE_CONFIG.verification, phase: 'evaluation' },
  }
  t.same(applied.json(), { success: true, config: expected, updatedAt: applied.json().updatedAt, isDefault: false, preset: { id: 'topstep-50k', firm: 'Topstep', plan: 'Trading Combine 50K', changed: [] } })
  const row = await app.db.selectFrom('account_risk_configs').selectAll().where('user_id', '=', 'paz').executeTakeFirstOrThrow()
  t.same(row.config, expected, 'the stored configuration is the table applied over the defaults')
  t.match(row.preset, { id: 'topstep-50k', values: { 'dailyLossLimit.amount': 1_000 } })

  // The page's save sequence posts the complete configuration: the preset is kept, the edit named.
  const edited = { ...expected, dailyLossLimit: { ...expected.dailyLossLimit, amount: 900 }, riskMode: { mode: 'fixed_contracts' as const, fixedContracts: 2 } }
  const saved = await app.inject({ method: 'POST', url: '/api/risk-engine/config', headers, payload: edited })
  t.equal(saved.statusCode, 200)
  t.same(saved.json().preset, { id: 'topstep-50k', firm: 'Topstep', plan: 'Trading Combine 50K', changed: ['dailyLossLimit.amount'] }, 'a field the preset does not set is no change from it')
  const read = (await app.inject({ method: 'GET', url: '/api/risk-engine/config', headers })).json()
  t.same(read.config, edited)
  t.same(read.preset.changed, ['dailyLossLimit.amount'])
})

t.test('a field the trader sends wins over the preset, on top of the saved configuration', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('pol')
  const own = { ...DEFAULT_RISK_ENGINE_CONFIG, account: { startingBalance: 100_000 }, trailingDrawdown: { amount: 3_000, mode: 'intraday_realized' as const, stopTrailingAtBalance: null } }
  t.equal((await app.inject({ method: 'POST', url: '/api/risk-engine/config', headers, payload: own })).statusCode, 200)
  const lucid = await app.inject({ method: 'POST', url: '/api/risk-engine/presets/lucid-flex-funded/apply', headers, payload: { consistencyRule: { enabled: true } } })
  t.equal(lucid.statusCode, 200, lucid.body)
  t.same(lucid.json().config.trailingDrawdown, { amount: 3_000, mode: 'end_of_day', stopTrailingAtBalance: 100_100 }, 'the lock is the trader balance + $100; the amount stays')
  t.same(lucid.json().config.consistencyRule, { enabled: true, maxBestDayPercent: 30 })
  t.same(lucid.json().preset, { id: 'lucid-flex-funded', firm: 'Lucid Trading', plan: 'Flex funded', changed: ['consistencyRule.enabled'] })

  const topstep = await app.inject({ method: 'POST', url: '/api/risk-engine/presets/topstep-50k/apply', headers, payload: { dailyLossLimit: { amount: 750 } } })
  t.equal(topstep.json().config.dailyLossLimit.amount, 750)
  t.same(topstep.json().preset.changed, ['dailyLossLimit.amount'], 'another preset replaces the first')
  const row = await app.db.selectFrom('account_risk_configs').select(['config', 'preset']).where('user_id', '=', 'pol').executeTakeFirstOrThrow()
  t.equal((row.config as Config).dailyLossLimit.amount, 750)
  t.match(row.preset, { id: 'topstep-50k' })
})

t.test('an unknown preset is a 404 naming it; a bad override is a 400 naming the field; nothing is saved', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('pam')
  const unknown = await app.inject({ method: 'POST', url: '/api/risk-engine/presets/ftmo-10k/apply', headers })
  t.equal(unknown.statusCode, 404)
  t.same(unknown.json(), { success: false, error: 'Unknown prop-firm preset "ftmo-10k": GET /api/risk-engine/presets lists the presets' })
  const cases: [string, unknown, RegExp][] = [
    ['unknown field', { limits: { maxLots: 3 } }, /^Invalid risk-engine configuration: limits\.maxLots is not a known field/],
    ['out of bounds', { dailyLossLimit: { amount: 10 } }, /dailyLossLimit\.amount must be >= 50/],
    ['inconsistent with the preset', { dailyLossLimit: { amount: 2_500 } }, /dailyLossLimit\.amount must not exceed trailingDrawdown\.amount \(after applying preset topstep-50k\)/],
  ]
  for (const [name, payload, error] of cases) {
    const response = await app.inject({ method: 'POST', url: '/api/risk-engine/presets/topstep-50k/apply', headers, payload: payload as object })
    t.equal(response.statusCode, 400, name)
    t.match(response.json(), { success: false, error }, `${name}: ${response.json().error}`)
  }
  t.equal((await app.db.selectFrom('account_risk_configs').selectAll().execute()).length, 0, 'nothing saved')
})
