import t from 'tap'
import { statusIndicator } from '../../src/status-indicator.ts'
import { maskUsername } from '../../src/credentials-summary.ts'
import { normalizeSettingValue } from '../../src/settings-values.ts'

t.test('status indicator follows the spec table; red wins over yellow', async (t) => {
  const cases: [boolean, boolean, boolean, string][] = [
    [true, true, true, 'green'],
    [true, false, true, 'yellow'],
    [true, true, false, 'red'],
    [true, false, false, 'red'],
    [false, true, true, 'gray'],
    [false, false, false, 'gray'],
  ]
  for (const [liveTradingEnabled, autoPlaceOrdersEnabled, hasCredentials, expected] of cases) {
    t.equal(statusIndicator({ liveTradingEnabled, autoPlaceOrdersEnabled, hasCredentials }), expected, `${liveTradingEnabled}/${autoPlaceOrdersEnabled}/${hasCredentials}`)
  }
})

t.test('user names are masked to their first and last character', async (t) => {
  t.equal(maskUsername('margaret.h'), 'm********h')
  t.equal(maskUsername('a-very-long-user-name@example.com'), 'a********m', 'the mask does not reveal the length')
  t.equal(maskUsername('abc'), 'a*c')
  t.equal(maskUsername('ab'), '**')
  t.equal(maskUsername(''), '')
})

t.test('stored setting values are completed from the defaults', async (t) => {
  t.same(normalizeSettingValue('live_trading', { enabled: true }), { enabled: true, autoPlaceOrders: false })
  t.same(normalizeSettingValue('live_trading', { enabled: 'yes', autoPlaceOrders: true, x: 1 }), { enabled: false, autoPlaceOrders: true })
  t.same(normalizeSettingValue('risk_strategy', null), { enabled: false, type: 'martingale', portfolioBalance: 50000, riskPercent: 1, maxContracts: null })
})
