// The trader's home page in the browser, signed in through the real provider and gateway. The settings
// service's answers are scripted here, in the browser, because what is under test is the CLIENT: the
// spec's "Client save sequence" (exactly three calls, in order, success only if all three succeed, then a
// status refetch), the indicator colours, and the broker-credentials form. Scripting lets each of the
// three calls fail in turn; the settings service's own behaviour is tested in services/settings.
import t from 'tap'
import type { Page, Route } from 'playwright-core'
import { at, startPlatform } from './platform.ts'

const ADMIN_EMAIL = 'e2e-home@example.com'
const { publicUrl, complaints, newBrowser, signIn } = await startPlatform(t, { adminEmail: ADMIN_EMAIL })

const { page } = await newBrowser()
await signIn(page, ADMIN_EMAIL, { name: 'Home Tester' })
t.equal(at(page), `${publicUrl}/`, 'signed in and home')

// ------------------------------------------------------------------------------------ scripted API

type Json = Record<string, unknown>
interface Call {
  method: string
  path: string
  body: unknown
}

const RISK_ENGINE_CONFIG = {
  account: { startingBalance: 50000 },
  trailingDrawdown: { amount: 2000, mode: 'end_of_day', stopTrailingAtBalance: null },
  dailyLossLimit: { enabled: true, amount: 1000, type: 'soft' },
  limits: { maxRiskPerTradePercent: 1, maxOpenTrades: 3, safetyBufferPercent: 10, maxContractsPerOrder: 5, minStopTicks: 4, maxEntryDistanceTicks: 40, marginPercent: 2 },
  riskMode: { mode: 'fixed_fraction', fixedContracts: 1 },
  consistencyRule: { enabled: false, maxBestDayPercent: 30 },
  payoutSecurity: { enabled: false, minBalanceAboveStart: 2100 },
  verification: { phase: 'evaluation', profitTarget: 3000, minTradingDays: 5 },
  antiMartingale: { baseContracts: 1, maxContracts: 5, winsToStepUp: 2, lossesToStepDown: 1, stepContracts: 1, pyramidLevels: 2 },
  positionChanges: { reversals: 'refuse', pyramiding: 'allow', outOfSync: 'refuse' },
  entryOrders: { limitTimeoutSeconds: 30, onLimitTimeout: 'cancel' },
}

const NOW = '2026-11-21T06:00:00.000Z'

interface Backend {
  calls: Call[]
  liveTrading: { enabled: boolean; autoPlaceOrders: boolean }
  hasCredentials: boolean
  /** The server's own indicator, or none (the page then derives it from the status fields). */
  indicator?: 'green' | 'yellow' | 'red' | 'gray'
  /** Which save step answers 400 (0: risk engine, 1: risk strategy, 2: live trading). */
  failStep?: number
  /** The refusal's words (the settings service's, with its internal field names). */
  failWith?: string
  /** The legacy risk strategy's "Maximum contracts". */
  legacyMax?: number | null
}

const SAVE_STEPS = ['POST /api/risk-engine/config', 'POST /api/trading-settings risk_strategy', 'POST /api/trading-settings live_trading']

function stepOf(call: Call): number {
  if (call.method === 'POST' && call.path === '/api/risk-engine/config') return 0
  const key = (call.body as { settingKey?: string } | null)?.settingKey
  if (call.method === 'POST' && call.path === '/api/trading-settings') return key === 'risk_strategy' ? 1 : key === 'live_trading' ? 2 : -1
  return -1
}

function status(backend: Backend): Json {
  const { liveTrading, hasCredentials } = backend
  return {
    success: true,
    status: {
      liveTradingEnabled: liveTrading.enabled,
      autoPlaceOrdersEnabled: liveTrading.autoPlaceOrders,
      hasCredentials,
      isFullyConfigured: liveTrading.enabled && liveTrading.autoPlaceOrders && hasCredentials,
      liveTradesCount: 4,
      accountId: hasCredentials ? 'DEMO-42' : null,
      credentialsUpdatedAt: hasCredentials ? NOW : null,
      ...(backend.indicator === undefined ? {} : { indicator: backend.indicator }),
      brokerConnection: { connected: liveTrading.enabled, state: liveTrading.enabled ? 'connected' : 'stopped', detail: null, updatedAt: NOW },
    },
    settings: {},
    credentials: null,
  }
}

/** Answers the settings service's routes as it documents them; everything else goes to the real services. */
async function answer(backend: Backend, route: Route): Promise<void> {
  const request = route.request()
  const path = new URL(request.url()).pathname
  const call: Call = { method: request.method(), path, body: request.postData() === null ? null : JSON.parse(request.postData() ?? 'null') }
  const json = (body: Json, code = 200) => route.fulfill({ status: code, contentType: 'application/json', body: JSON.stringify(body) })

  if (path === '/api/trading-settings' || path === '/api/risk-engine/config' || path === '/api/live-trading-status' || path === '/api/broker-credentials') {
    backend.calls.push(call)
  } else {
    return route.continue()
  }
  const step = stepOf(call)
  if (step !== -1 && step === backend.failStep) return json({ success: false, error: backend.failWith ?? `scripted refusal of step ${step}` }, 400)

  if (call.method === 'GET' && path === '/api/trading-settings') {
    return json({
      success: true,
      settings: {
        risk_strategy: { value: { enabled: true, type: 'martingale', portfolioBalance: 25000, riskPercent: 2, maxContracts: backend.legacyMax ?? null }, updatedAt: NOW },
        live_trading: { value: backend.liveTrading, updatedAt: NOW },
      },
    })
  }
  if (call.method === 'GET' && path === '/api/risk-engine/config') return json({ success: true, config: RISK_ENGINE_CONFIG, updatedAt: null, isDefault: true })
  if (call.method === 'GET' && path === '/api/live-trading-status') return json(status(backend))
  if (call.method === 'GET' && path === '/api/broker-credentials') {
    return json({ success: true, credentials: backend.hasCredentials ? { broker: 'paper', environment: 'demo', accountId: 'DEMO-42', usernameMasked: 't…r', updatedAt: NOW } : null })
  }
  if (step === 0) return json({ success: true, config: call.body as Json, updatedAt: NOW, isDefault: false })
  if (step === 1 || step === 2) {
    const { settingKey, settingValue } = call.body as { settingKey: string; settingValue: Json }
    if (step === 2) backend.liveTrading = settingValue as Backend['liveTrading']
    return json({ success: true, setting: { settingKey, value: settingValue, updatedAt: NOW }, feedCommand: null })
  }
  if (call.method === 'PUT' && path === '/api/broker-credentials') {
    const body = call.body as Json
    backend.hasCredentials = true
    return json({ success: true, credentials: { broker: body.broker, environment: body.environment, accountId: body.accountId, usernameMasked: 'u…r', updatedAt: NOW }, feedCommand: null })
  }
  if (call.method === 'DELETE' && path === '/api/broker-credentials') {
    backend.hasCredentials = false
    return json({ success: true, deleted: true, feedCommand: null })
  }
  return json({ success: false, error: 'unexpected call' }, 404)
}

/** Opens the home page against a fresh scripted backend and waits until the settings panel is ready. */
async function openHome(page: Page, state: Partial<Backend> = {}): Promise<Backend> {
  const backend: Backend = { calls: [], liveTrading: { enabled: false, autoPlaceOrders: false }, hasCredentials: false, ...state }
  await page.unrouteAll({ behavior: 'wait' })
  await page.route(`${publicUrl}/api/**`, (route) => answer(backend, route))
  await page.goto(`${publicUrl}/`)
  await page.waitForSelector('#save-settings:not([disabled])')
  await page.waitForSelector(`#credentials-summary:not(:text("Loading…"))`)
  return backend
}

const describe = (calls: Call[]) =>
  calls.map((call) => {
    const step = stepOf(call)
    return step === -1 ? `${call.method} ${call.path}` : SAVE_STEPS[step]
  })

async function save(page: Page): Promise<string> {
  await page.click('#save-settings')
  await page.waitForFunction(() => {
    const text = (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document.getElementById('settings-message')?.textContent ?? ''
    return text !== '' && text !== 'Saving…'
  })
  return (await page.textContent('#settings-message')) ?? ''
}

// ------------------------------------------------------------------------------------------- tests

t.test('the panel loads settings, risk-engine configuration and status, and fills the form', async (t) => {
  const backend = await openHome(page, { liveTrading: { enabled: true, autoPlaceOrders: false }, hasCredentials: true })
  // The activity card reads the risk-engine configuration too (for the room-left chart): each read once or more.
  t.same([...new Set(describe(backend.calls))].sort(), ['GET /api/broker-credentials', 'GET /api/live-trading-status', 'GET /api/risk-engine/config', 'GET /api/trading-settings'])
  t.equal(await page.isChecked('#live-enabled'), true)
  t.equal(await page.isChecked('#live-auto-place'), false)
  t.equal(await page.locator('#risk-balance, #risk-percent, #risk-max-contracts').count(), 0, 'one risk section: the legacy risk strategy is not shown')
  t.equal(await page.inputValue('#risk-engine-limits-maxRiskPerTradePercent'), '1')
  t.equal(await page.inputValue('#risk-engine-limits-maxOpenTrades'), '3')
  t.equal(await page.inputValue('#risk-engine-limits-maxContractsPerOrder'), '5', 'the order bounds are on the form')
  t.equal(await page.inputValue('#risk-engine-limits-marginPercent'), '2')
  t.equal(await page.inputValue('#risk-engine-trailingDrawdown-mode'), 'end_of_day')
  t.equal(await page.textContent('#status-trades'), '4')
  t.equal(await page.textContent('#status-account'), 'DEMO-42')
  t.equal(await page.getAttribute('#indicator', 'data-color'), 'yellow')
  t.equal(await page.textContent('#indicator-label'), 'Partially configured')
})

t.test('Save makes exactly the three calls, in order, then refetches the status and shows its colour', async (t) => {
  // The legacy "Maximum contracts" (3) is lower than the risk engine's cap (5): the one cap field shows it.
  const backend = await openHome(page, { liveTrading: { enabled: true, autoPlaceOrders: false }, hasCredentials: true, legacyMax: 3 })
  t.equal(await page.inputValue('#risk-engine-limits-maxContractsPerOrder'), '3', 'the lower of the two caps')
  await page.check('#live-auto-place')
  await page.fill('#risk-engine-limits-maxOpenTrades', '5')
  await page.selectOption('#risk-engine-riskMode-mode', 'anti_martingale_pyramiding')
  backend.calls = []

  t.equal(await save(page), 'Settings saved.')
  await page.waitForSelector('#indicator[data-color="green"]')
  // After a save the activity card rereads the risk-engine configuration for its chart: not part of the sequence.
  t.same(describe(backend.calls).filter((call) => call !== 'GET /api/risk-engine/config'), [...SAVE_STEPS, 'GET /api/live-trading-status'], 'three saves in order, then the status')
  t.same(backend.calls[0]?.body, {
    ...RISK_ENGINE_CONFIG,
    limits: { ...RISK_ENGINE_CONFIG.limits, maxOpenTrades: 5, maxContractsPerOrder: 3 },
    riskMode: { ...RISK_ENGINE_CONFIG.riskMode, mode: 'anti_martingale_pyramiding' },
  }, 'the complete risk-engine configuration with the edits; the cap lives there')
  t.same(backend.calls[1]?.body, {
    settingKey: 'risk_strategy',
    settingValue: { enabled: true, type: 'legacy', portfolioBalance: 25000, riskPercent: 2, maxContracts: null },
  }, 'the legacy risk strategy as stored, in the client form, its cap moved to the risk engine')
  t.same(backend.calls[2]?.body, { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } })
  t.equal(await page.textContent('#indicator-label'), 'Fully configured')
})

for (const [failing, name] of [[0, 'risk settings were'], [1, 'risk strategy was'], [2, 'live-trading setting was']] as const) {
  t.test(`when call ${failing + 1} of 3 fails, the save stops there, shows the error and does not count`, async (t) => {
    const backend = await openHome(page, { failStep: failing, indicator: 'gray' })
    backend.calls = []
    const message = await save(page)
    const restored = failing === 0 ? '' : ' What was saved before is restored.'
    t.equal(message, `Settings not saved: the ${name} refused (scripted refusal of step ${failing}).${restored}`)
    t.equal(await page.getAttribute('#settings-message', 'data-kind'), 'error')
    // All or nothing: what the earlier calls saved is written back, latest first.
    const undo = SAVE_STEPS.slice(0, failing).reverse()
    // The activity card's own read of the configuration (for its chart) can land in this window on a slow machine: not part of the sequence.
    t.same(describe(backend.calls).filter((call) => call !== 'GET /api/risk-engine/config'), [...SAVE_STEPS.slice(0, failing + 1), ...undo], 'nothing after the failed call but the undo of the earlier ones, and no status refetch')
    t.equal(await page.isEnabled('#save-settings'), true, 'Save can be tried again')
  })
}

t.test('a value out of bounds is caught before any call', async (t) => {
  const backend = await openHome(page)
  backend.calls = []
  await page.fill('#risk-engine-limits-maxRiskPerTradePercent', '')
  await page.fill('#risk-engine-limits-maxOpenTrades', '500')
  await page.fill('#risk-engine-limits-maxContractsPerOrder', '101')
  await page.click('#save-settings')
  t.equal(await page.locator('#risk-engine-limits-maxRiskPerTradePercent:invalid').count(), 1, 'an empty risk percentage is invalid')
  t.equal(await page.locator('#risk-engine-limits-maxOpenTrades:invalid').count(), 1, '500 open trades is over the bound')
  t.equal(await page.locator('#risk-engine-limits-maxContractsPerOrder:invalid').count(), 1, '101 contracts an order is over the bound')
  // The activity card's own read of the configuration (for its chart) can land here on a slow machine: not a save call.
  t.same(describe(backend.calls).filter((call) => call !== 'GET /api/risk-engine/config'), [], 'no call at all')
  t.equal(await page.textContent('#settings-message'), '')
})

t.test('one risk section: only the chosen mode\'s fields, help for each, a live sentence from the engine, refusals in the trader\'s words (issue 25, item 6)', async (t) => {
  const backend = await openHome(page)
  t.equal(await save(page), 'Settings saved.')
  // Refused in the browser: the old success does not stay.
  await page.fill('#risk-engine-limits-maxOpenTrades', '500')
  await page.click('#save-settings')
  t.equal(await page.textContent('#settings-message'), '', 'the old "Settings saved." is gone')
  await page.fill('#risk-engine-limits-maxOpenTrades', '3')

  const visible = (field: string) => page.isVisible(`#risk-engine-${field}`)
  const sentence = () => page.textContent('#risk-example')
  t.ok(await visible('limits-maxRiskPerTradePercent'), 'fixed fraction: its risk per trade is shown')
  t.notOk(await visible('antiMartingale-baseContracts'), 'fixed fraction: no anti-martingale field')
  t.notOk(await visible('riskMode-fixedContracts'), 'fixed fraction: no fixed contracts')
  t.match(await page.textContent('#risk-engine-trailingDrawdown-stopTrailingAtBalance-help'), /^Lock level:/, 'prop-firm terms have help')
  t.match(await page.textContent('#risk-engine-trailingDrawdown-mode-help'), /^End of day:/, 'a drawdown mode is explained as chosen')
  await page.selectOption('#risk-engine-trailingDrawdown-mode', 'intraday_unrealized')
  t.match(await page.textContent('#risk-engine-trailingDrawdown-mode-help'), /^Intraday \(unrealized\):/)

  // The risk engine's own sizing: $500 budget (1 % of 50,000), $40 a contract at a 20-point MNQ stop: 12, capped at 5.
  t.match(await sentence(), /^On a fresh account, the next MNQ alert with a 20-point stop trades 5 contracts, risking \$200\.00\. .*"Contracts per order, at most"/)
  t.notMatch(await sentence(), /limits\.|fixed_fraction/, 'no internal names')
  await page.fill('#risk-example-stop', '100')
  t.match(await sentence(), /trades 2 contracts, risking \$400\.00\.$/, 'the sentence follows the stop')
  await page.fill('#risk-engine-limits-maxRiskPerTradePercent', '0.3')
  t.match(await sentence(), /would be refused: One contract would lose \$200\.00/, 'and the settings')

  await page.selectOption('#risk-engine-riskMode-mode', 'anti_martingale_pyramiding')
  t.ok(await visible('antiMartingale-baseContracts'), 'anti-martingale: its steps are shown')
  t.notOk(await visible('limits-maxRiskPerTradePercent'), 'anti-martingale: no risk percentage')
  t.match(await sentence(), /trades 1 contract, risking \$200\.00\.$/, 'anti-martingale starts at its base')
  t.match(await page.textContent('#setup-needs'), /needs a stop/, 'the setup card says what the mode needs')

  await page.selectOption('#risk-engine-riskMode-mode', 'alert_quantity')
  t.equal(await page.textContent('#risk-engine-riskMode-fixedContracts-label'), 'Most contracts from one alert')
  t.match(await page.textContent('#setup-needs'), /stop \(sl\) and a quantity/)
  t.match(await page.textContent('#setup-json'), /"quantity": "\{\{strategy\.order\.contracts\}\}"/, 'the recommended message carries the quantity')

  // Refused by the service, with its internal field names: said with the page's labels.
  backend.failStep = 0
  backend.failWith = 'Invalid risk-engine configuration: antiMartingale.maxContracts must be at least antiMartingale.baseContracts'
  await page.selectOption('#risk-engine-riskMode-mode', 'anti_martingale_pyramiding')
  t.equal(await save(page), 'Settings not saved: the risk settings were refused ("Most contracts after wins" must be at least "Base contracts").')
  t.equal(await page.getAttribute('#risk-engine-antiMartingale-maxContracts', 'aria-invalid'), 'true', 'the field at fault is marked')
})

t.test('indicator colours follow the spec table when the server sends none', async (t) => {
  const cases = [
    [{ enabled: false, autoPlaceOrders: true }, true, 'gray', 'Inactive'],
    [{ enabled: true, autoPlaceOrders: true }, false, 'red', 'Missing credentials'],
    [{ enabled: true, autoPlaceOrders: false }, true, 'yellow', 'Partially configured'],
    [{ enabled: true, autoPlaceOrders: true }, true, 'green', 'Fully configured'],
  ] as const
  for (const [liveTrading, hasCredentials, color, label] of cases) {
    await openHome(page, { liveTrading: { ...liveTrading }, hasCredentials })
    t.equal(await page.getAttribute('#indicator', 'data-color'), color, `${JSON.stringify(liveTrading)}, credentials ${hasCredentials}`)
    t.equal(await page.textContent('#indicator-label'), label)
  }
  await openHome(page, { liveTrading: { enabled: true, autoPlaceOrders: true }, hasCredentials: true, indicator: 'red' })
  t.equal(await page.getAttribute('#indicator', 'data-color'), 'red', "the server's own indicator wins")
})

t.test('Tradovate credentials are sent whole, per DESIGN.md decision 13, and the secrets leave the form', async (t) => {
  const backend = await openHome(page)
  t.equal(await page.textContent('#credentials-summary'), 'No broker credentials stored. Live trading needs them.')
  t.same(await page.locator('#cred-broker option').allTextContents(), ['Paper (development)', 'Tradovate', 'ProjectX (TopstepX and other ProjectX firms)'], "the registry's brokers by label")
  t.equal(await page.getAttribute('#cred-appId', 'required'), null, "paper's API fields are optional")
  await page.selectOption('#cred-broker', 'projectx')
  t.same(
    await Promise.all((await page.locator('#broker-fields input').all()).map((input) => input.getAttribute('id'))),
    ['cred-username', 'cred-apiKey'],
    "ProjectX's fields: a user name and an API key",
  )
  t.equal(await page.getAttribute('#cred-apiKey', 'type'), 'password', "ProjectX's API key is a password input")
  await page.selectOption('#cred-broker', 'tradovate')
  t.equal(await page.getAttribute('#cred-appId', 'required'), '', "Tradovate's are required")
  t.equal(await page.getAttribute('#cred-sec', 'type'), 'password', 'a secret field is a password input')
  t.equal(await page.getAttribute('#cred-appVersion', 'maxlength'), '64', "the schema's length")
  t.same(
    await Promise.all((await page.locator('#broker-fields input').all()).map((input) => input.getAttribute('id'))),
    ['cred-username', 'cred-password', 'cred-appId', 'cred-appVersion', 'cred-cid', 'cred-sec', 'cred-deviceId'],
    "Tradovate's fields in the registry's order",
  )
  await page.selectOption('#cred-environment', 'live')
  await page.fill('#cred-account', 'LIVE-7')
  await page.fill('#cred-username', 'trader')
  await page.fill('#cred-password', 'pa55word')
  await page.fill('#cred-appId', ' Signals ')
  await page.fill('#cred-appVersion', '1.0')
  await page.fill('#cred-cid', '1234')
  await page.fill('#cred-sec', 'api-secret')
  backend.calls = []
  await page.click('#save-credentials')
  await page.locator('#credentials-message', { hasText: 'Credentials saved.' }).waitFor()
  const put = backend.calls.find((call) => call.method === 'PUT')
  t.same(put?.body, {
    broker: 'tradovate',
    environment: 'live',
    accountId: 'LIVE-7',
    username: 'trader',
    password: 'pa55word',
    appId: 'Signals',
    appVersion: '1.0',
    cid: '1234',
    sec: 'api-secret',
  }, 'no deviceId when left empty; text trimmed')
  for (const secret of ['#cred-password', '#cred-cid', '#cred-sec']) t.equal(await page.inputValue(secret), '', `${secret} cleared`)
  t.match(await page.textContent('#credentials-summary'), /Tradovate \(live\), account LIVE-7/)
  t.same(describe(backend.calls).slice(-1), ['GET /api/live-trading-status'], 'the status is refetched')
})

t.test('paper credentials carry no Tradovate fields; Remove deletes after confirmation', async (t) => {
  const backend = await openHome(page)
  await page.fill('#cred-account', 'PAPER-1')
  await page.fill('#cred-username', 'paper-user')
  await page.fill('#cred-password', 'paper-pass')
  backend.calls = []
  await page.click('#save-credentials')
  await page.locator('#credentials-message', { hasText: 'Credentials saved.' }).waitFor()
  t.same(backend.calls.find((call) => call.method === 'PUT')?.body, {
    broker: 'paper',
    environment: 'demo',
    accountId: 'PAPER-1',
    username: 'paper-user',
    password: 'paper-pass',
  })

  page.once('dialog', (dialog) => void dialog.accept())
  await page.click('#delete-credentials')
  await page.locator('#credentials-message', { hasText: 'Credentials removed.' }).waitFor()
  t.ok(backend.calls.some((call) => call.method === 'DELETE' && call.path === '/api/broker-credentials'))
  t.equal(await page.textContent('#credentials-summary'), 'No broker credentials stored. Live trading needs them.')
  t.equal(await page.isVisible('#delete-credentials'), false)
})

for (const [code, error, destination, message] of [
  [401, 'Authentication required', '/login.html?error=session', 'Your session has ended. Please sign in again.'],
  [403, 'Account banned', '/login.html?error=banned', 'This account may not sign in.'],
] as const) {
  t.test(`an API answer of ${code} "${error}" takes the page to ${destination}`, async (t) => {
    await page.unrouteAll({ behavior: 'wait' })
    await page.route(`${publicUrl}/api/trading-settings`, (route) =>
      route.fulfill({ status: code, contentType: 'application/json', body: JSON.stringify({ success: false, error }) }),
    )
    await page.goto(`${publicUrl}/`)
    await page.waitForURL(`${publicUrl}${destination}`)
    t.equal(await page.textContent('#login-error'), message)
  })
}

t.test('no page broke the Content-Security-Policy, threw, or missed a file', async (t) => {
  t.same(complaints, [])
})
