import t from 'tap'
import { build } from '../helper.ts'
import { DEFAULT_RISK_ENGINE_CONFIG } from '@signals/risk-engine'

type Config = typeof DEFAULT_RISK_ENGINE_CONFIG
const clone = (): Config => structuredClone(DEFAULT_RISK_ENGINE_CONFIG)

const custom: Config = {
  account: { startingBalance: 100_000 },
  trailingDrawdown: { amount: 3_000, mode: 'intraday_unrealized', stopTrailingAtBalance: 100_100 },
  dailyLossLimit: { enabled: true, amount: 2_000, type: 'hard' },
  limits: { maxRiskPerTradePercent: 0.5, maxOpenTrades: 2, safetyBufferPercent: 20, maxContractsPerOrder: 10, minStopTicks: 8, maxEntryDistanceTicks: 20, marginPercent: 6 },
  riskMode: { mode: 'anti_martingale_pyramiding', fixedContracts: 2 },
  consistencyRule: { enabled: true, maxBestDayPercent: 40 },
  payoutSecurity: { enabled: true, minBalanceAboveStart: 3_100 },
  verification: { phase: 'funded', profitTarget: 6_000, minTradingDays: 10 },
  antiMartingale: { baseContracts: 1, maxContracts: 4, winsToStepUp: 3, lossesToStepDown: 1, stepContracts: 1, pyramidLevels: 3 },
  sessionRules: {
    tradingWindows: [{ start: '08:30', end: '15:00' }, { start: '22:00', end: '02:00' }],
    dailyFlattenAt: '15:55',
    maxEntriesPerDay: 10,
    maxExecutionsPerDay: 40,
    newsBlackout: true,
    flattenBeforeNews: true,
  },
  positionChanges: { reversals: 'allow', pyramiding: 'allow', outOfSync: 'follow' },
  entryOrders: { limitTimeoutSeconds: 45, onLimitTimeout: 'market' },
}

t.test('GET returns the documented defaults when nothing is saved; POST round-trips a complete configuration', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('quinn')
  const defaults = await app.inject({ method: 'GET', url: '/api/risk-engine/config', headers })
  t.equal(defaults.statusCode, 200)
  t.same(defaults.json(), { success: true, config: DEFAULT_RISK_ENGINE_CONFIG, updatedAt: null, isDefault: true, preset: null })
  t.same(DEFAULT_RISK_ENGINE_CONFIG.riskMode.mode, 'fixed_fraction')
  t.same(DEFAULT_RISK_ENGINE_CONFIG.trailingDrawdown, { amount: 2000, mode: 'end_of_day', stopTrailingAtBalance: null })

  const saved = await app.inject({ method: 'POST', url: '/api/risk-engine/config', headers, payload: custom })
  t.equal(saved.statusCode, 200)
  t.same(saved.json().config, custom)
  t.equal(saved.json().isDefault, false)
  const read = (await app.inject({ method: 'GET', url: '/api/risk-engine/config', headers })).json()
  t.same(read.config, custom, 'GET returns exactly what was saved')
  t.equal(read.updatedAt, saved.json().updatedAt)

  const again = await app.inject({ method: 'POST', url: '/api/risk-engine/config', headers, payload: { ...custom, limits: { ...custom.limits, maxOpenTrades: 5 } } })
  t.ok(Date.parse(again.json().updatedAt) >= Date.parse(saved.json().updatedAt), 'updatedAt does not go back')
  const rows = await app.db.selectFrom('account_risk_configs').selectAll().where('user_id', '=', 'quinn').execute()
  t.equal(rows.length, 1, 'one row per user (their primary account\'s)')
  t.equal((rows[0]?.config as Config).limits.maxOpenTrades, 5)

  for (const mode of ['fixed_fraction', 'fixed_contracts'] as const) {
    const response = await app.inject({ method: 'POST', url: '/api/risk-engine/config', headers, payload: { ...custom, riskMode: { mode, fixedContracts: 3 } } })
    t.equal(response.statusCode, 200, `risk mode ${mode} is accepted`)
  }
})

t.test('unknown fields and out-of-bounds values get a 400 naming the field; nothing is saved', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('rosa')
  const change = (edit: (config: Config & Record<string, unknown>) => void) => {
    const config = clone() as Config & Record<string, unknown>
    edit(config)
    return config
  }
  const cases: [string, unknown, RegExp][] = [
    ['unknown top-level field', change((c) => { c.leverage = 10 }), /leverage is not a known field/],
    ['unknown nested field', change((c) => { (c.limits as Record<string, unknown>).maxLots = 3 }), /limits\.maxLots is not a known field/],
    ['missing area', change((c) => { delete (c as Partial<Config>).verification }), /verification is required/],
    ['missing field', change((c) => { delete (c.dailyLossLimit as Partial<Config['dailyLossLimit']>).type }), /dailyLossLimit\.type is required/],
    ['starting balance below bound', change((c) => { c.account.startingBalance = 10 }), /account\.startingBalance must be >= 1000/],
    ['starting balance above bound', change((c) => { c.account.startingBalance = 1e12 }), /account\.startingBalance must be <= 10000000/],
    ['risk per trade above 10%', change((c) => { c.limits.maxRiskPerTradePercent = 25 }), /limits\.maxRiskPerTradePercent must be <= 10/],
    ['open trades zero', change((c) => { c.limits.maxOpenTrades = 0 }), /limits\.maxOpenTrades must be >= 1/],
    ['open trades fractional', change((c) => { c.limits.maxOpenTrades = 1.5 }), /limits\.maxOpenTrades must be integer/],
    ['safety buffer negative', change((c) => { c.limits.safetyBufferPercent = -1 }), /limits\.safetyBufferPercent must be >= 0/],
    ['contracts per order zero', change((c) => { c.limits.maxContractsPerOrder = 0 }), /limits\.maxContractsPerOrder must be >= 1/],
    ['contracts per order above the bound', change((c) => { c.limits.maxContractsPerOrder = 1_000 }), /limits\.maxContractsPerOrder must be <= 100/],
    ['minimum stop fractional', change((c) => { c.limits.minStopTicks = 2.5 }), /limits\.minStopTicks must be integer/],
    ['entry distance zero', change((c) => { c.limits.maxEntryDistanceTicks = 0 }), /limits\.maxEntryDistanceTicks must be >= 1/],
    ['margin share zero', change((c) => { c.limits.marginPercent = 0 }), /limits\.marginPercent must be >= 0\.1/],
    ['missing order bound (an old client)', change((c) => { delete (c.limits as Partial<Config['limits']>).maxContractsPerOrder }), /limits\.maxContractsPerOrder is required/],
    ['unknown risk mode', change((c) => { (c.riskMode as Record<string, unknown>).mode = 'martingale' }), /riskMode\.mode must be one of "fixed_fraction", "anti_martingale_pyramiding", "fixed_contracts"/],
    ['unknown trailing mode', change((c) => { (c.trailingDrawdown as Record<string, unknown>).mode = 'weekly' }), /trailingDrawdown\.mode must be one of/],
    ['daily loss type', change((c) => { (c.dailyLossLimit as Record<string, unknown>).type = 'maybe' }), /dailyLossLimit\.type must be one of "hard", "soft"/],
    ['consistency share too low', change((c) => { c.consistencyRule.maxBestDayPercent = 5 }), /consistencyRule\.maxBestDayPercent must be >= 10/],
    ['verification phase', change((c) => { (c.verification as Record<string, unknown>).phase = 'trial' }), /verification\.phase must be one of "evaluation", "funded"/],
    ['trading days too many', change((c) => { c.verification.minTradingDays = 400 }), /verification\.minTradingDays must be <= 365/],
    ['pyramid levels too many', change((c) => { c.antiMartingale.pyramidLevels = 11 }), /antiMartingale\.pyramidLevels must be <= 10/],
    ['number as string', change((c) => { (c.payoutSecurity as Record<string, unknown>).minBalanceAboveStart = '100' }), /payoutSecurity\.minBalanceAboveStart must be number/],
    ['stop-trailing level as text', change((c) => { (c.trailingDrawdown as Record<string, unknown>).stopTrailingAtBalance = 'start' }), /trailingDrawdown\.stopTrailingAtBalance/],
    ['drawdown not below balance', change((c) => { c.trailingDrawdown.amount = 60_000; c.dailyLossLimit.amount = 1_000 }), /trailingDrawdown\.amount must be <= 1000000|trailingDrawdown\.amount must be less than account\.startingBalance/],
    ['drawdown equal to balance', change((c) => { c.account.startingBalance = 2_000 }), /trailingDrawdown\.amount must be less than account\.startingBalance/],
    ['stop level below the floor', change((c) => { c.trailingDrawdown.stopTrailingAtBalance = 40_000 }), /trailingDrawdown\.stopTrailingAtBalance must be at least/],
    ['daily loss over drawdown', change((c) => { c.dailyLossLimit.amount = 2_500 }), /dailyLossLimit\.amount must not exceed trailingDrawdown\.amount/],
    ['max contracts below base', change((c) => { c.antiMartingale.baseContracts = 6 }), /antiMartingale\.maxContracts must be at least antiMartingale\.baseContracts/],
    ['window time not HH:MM', change((c) => { c.sessionRules.tradingWindows = [{ start: '8:30', end: '15:00' }] }), /sessionRules\.tradingWindows\/0\/start|sessionRules\.tradingWindows\.0\.start|sessionRules\.tradingWindows/],
    ['window of no length', change((c) => { c.sessionRules.tradingWindows = [{ start: '09:00', end: '09:00' }] }), /sessionRules\.tradingWindows\[0\] must not start and end at the same time/],
    ['flatten time out of the day', change((c) => { c.sessionRules.dailyFlattenAt = '24:10' }), /sessionRules\.dailyFlattenAt/],
    ['entries per day zero', change((c) => { c.sessionRules.maxEntriesPerDay = 0 }), /sessionRules\.maxEntriesPerDay/],
    ['flatten before news without the blackout', change((c) => { c.sessionRules.flattenBeforeNews = true }), /sessionRules\.flattenBeforeNews needs sessionRules\.newsBlackout/],
    ['unknown session-rule field', change((c) => { (c.sessionRules as Record<string, unknown>).weekends = true }), /sessionRules\.weekends is not a known field/],
    ['not an object', [], /^Invalid risk-engine configuration: body must be object/],
  ]
  for (const [name, payload, error] of cases) {
    const response = await app.inject({ method: 'POST', url: '/api/risk-engine/config', headers, payload: payload as object })
    t.equal(response.statusCode, 400, name)
    t.match(response.json(), { success: false, error }, `${name}: ${response.json().error}`)
  }
  const rows = await app.db.selectFrom('account_risk_configs').selectAll().execute()
  t.equal(rows.length, 0, 'nothing saved')
})

t.test('a stored configuration from an older shape is completed from the defaults, area by area', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('sam')
  const primary = await app.db.selectFrom('broker_accounts').select('id').where('user_id', '=', 'sam').where('is_primary', '=', true).executeTakeFirstOrThrow()
  await app.db
    .insertInto('account_risk_configs')
    .values({ account_id: primary.id, user_id: 'sam', config: JSON.stringify({ account: { startingBalance: 75_000 }, limits: { maxOpenTrades: 4, retired: true }, riskMode: 'fixed_fraction' }) })
    .execute()
  const body = (await app.inject({ method: 'GET', url: '/api/risk-engine/config', headers })).json()
  t.equal(body.isDefault, false)
  t.same(body.config.account, { startingBalance: 75_000 })
  t.same(body.config.limits, { ...DEFAULT_RISK_ENGINE_CONFIG.limits, maxOpenTrades: 4 }, 'known fields kept, unknown dropped, the order bounds at their defaults')
  t.same(body.config.riskMode, DEFAULT_RISK_ENGINE_CONFIG.riskMode, 'an area of the wrong type takes its defaults')
  t.same(body.config.verification, DEFAULT_RISK_ENGINE_CONFIG.verification)
})

t.test('the session rules are optional on POST: a client that sends the nine spec areas saves, and gets their defaults (nothing changes)', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('tess')
  const { sessionRules: _omitted, ...older } = clone()
  const saved = await app.inject({ method: 'POST', url: '/api/risk-engine/config', headers, payload: older })
  t.equal(saved.statusCode, 200, saved.body)
  t.same(saved.json().config.sessionRules, { tradingWindows: [], dailyFlattenAt: null, maxEntriesPerDay: null, maxExecutionsPerDay: null, newsBlackout: false, flattenBeforeNews: false })
  const read = (await app.inject({ method: 'GET', url: '/api/risk-engine/config', headers })).json()
  t.same(read.config, DEFAULT_RISK_ENGINE_CONFIG, 'GET answers the complete object')
})
