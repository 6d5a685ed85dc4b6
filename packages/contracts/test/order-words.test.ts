import t from 'tap'
import { NormalizedAlertV1, contract, type NormalizedAlert } from '../src/index.ts'

const alert: NormalizedAlert = {
  version: 1, alertId: 'a1', kind: 'result', receivedAt: '2026-11-26T12:00:00.000Z', action: 'SHORT', symbol: 'MNQZ6', root: 'MNQ',
  entryPrice: null, sl: null, tp: null, exitPrice: null, indicator: null, userId: null, leverage: null, quantity: 1, result: 'Exit',
  closes: 'LONG', isVendorTest: false, parseFailed: false, raw: {},
}

t.test('orderWord and closePart: optional (older messages pass), and checked when sent', async (t) => {
  const normalized = contract(NormalizedAlertV1)
  t.ok(normalized.check(alert), 'without them: an older ingest\'s message')
  t.ok(normalized.check({ ...alert, closePart: { quantity: 1, percent: null, remaining: null }, orderWord: null }))
  t.ok(normalized.check({ ...alert, kind: 'entry', result: null, closes: null, orderWord: 'reverse', closePart: null }))
  t.notOk(normalized.check({ ...alert, orderWord: 'flip' }), 'only reverse and add')
  t.notOk(normalized.check({ ...alert, closePart: { quantity: null, percent: 150, remaining: null } }), 'a percentage is at most 100')
  t.notOk(normalized.check({ ...alert, closePart: { quantity: 0, percent: null, remaining: null } }), 'a quantity is above 0')
  t.notOk(normalized.check({ ...alert, closePart: { quantity: 1 } }), 'all three keys are sent')
})
