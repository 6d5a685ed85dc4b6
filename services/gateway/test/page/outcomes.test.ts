import t from 'tap'
import { pageOutcomes } from './page-modules.ts'

const trade = { status: 'open', result: null, parentTradeId: null, exitRequestedAt: null, exitNote: null }

t.test('a trade says where its exit stands while open, and what closed it', async (t) => {
  t.equal(pageOutcomes.tradeOutcomeText(trade), 'open')
  t.equal(
    pageOutcomes.tradeOutcomeText({ ...trade, exitRequestedAt: '2026-11-26T10:00:00Z', exitNote: 'live trading is off: the exit is sent to the broker when live trading is switched on again' }),
    'Exit pending: live trading is off: the exit is sent to the broker when live trading is switched on again',
  )
  t.equal(pageOutcomes.tradeOutcomeText({ ...trade, exitRequestedAt: '2026-11-26T10:00:00Z' }), 'Exit pending: sent to the broker')
  t.equal(pageOutcomes.tradeOutcomeText({ ...trade, exitNote: "the trade's bracket could not be resized at the broker: rate limited" }), "open: the trade's bracket could not be resized at the broker: rate limited")
  t.equal(pageOutcomes.tradeOutcomeText({ ...trade, status: 'closed', result: 'TP' }), 'TP')
  t.equal(pageOutcomes.tradeOutcomeText({ ...trade, status: 'closed', result: 'TP', parentTradeId: '7' }), 'TP (part of trade 7)')
})

t.test('a placed record an exit cancelled before it filled says so', async (t) => {
  t.equal(pageOutcomes.outcomeText({ status: 'placed', reason: null, orderQuantity: 5, contract: 'MNQZ6' }), 'Placed: 5 × MNQZ6')
  t.equal(
    pageOutcomes.outcomeText({ status: 'placed', reason: 'the entry order was cancelled by an exit alert before it filled', orderQuantity: 5, contract: 'MNQZ6' }),
    'Placed: 5 × MNQZ6 (the entry order was cancelled by an exit alert before it filled)',
  )
  t.equal(pageOutcomes.outcomeText({ status: 'refused', reason: 'no stop' }), 'Refused: no stop')
})

t.test('an exit or result webhook says what it closed, is closing, or that it closed nothing (the Alerts card)', async (t) => {
  const money = (amount: string | null) => `$${amount ?? '–'}`
  const entry = { outcome: 'accepted', reason: null, alertId: 'a-1' }
  const trade = { id: '12', status: 'closed', result: 'TP', pnl: '50.00', closeAlertId: 'a-1', exitRequestedAt: null }
  t.equal(pageOutcomes.exitOutcomeText(entry, [trade, { ...trade, id: '13', closeAlertId: 'other' }], money), 'Closed trade 12 (TP, $50.00)')
  t.equal(pageOutcomes.exitOutcomeText(entry, [trade, { ...trade, id: '14', result: 'SL', pnl: '-20.00' }], money), 'Closed trades 12 (TP, $50.00), 14 (SL, $-20.00)')
  t.equal(
    pageOutcomes.exitOutcomeText(entry, [{ ...trade, status: 'open', result: null, pnl: null, exitRequestedAt: '2026-11-26T10:00:00Z' }], money),
    "Closing trade 12: exit sent, waiting for the broker's fill",
  )
  t.equal(pageOutcomes.exitOutcomeText(entry, [{ ...trade, closeAlertId: null }], money), 'Accepted: it closed no trade of yours (none was open to close, or it is still on its way)')
  t.equal(pageOutcomes.exitOutcomeText({ ...entry, alertId: null }, [{ ...trade, closeAlertId: null }], money), 'Accepted: it closed no trade of yours (none was open to close, or it is still on its way)', 'no alert id matches no trade')
  t.equal(pageOutcomes.exitOutcomeText({ outcome: 'duplicate', reason: null, alertId: 'a-1' }, [trade], money), 'Duplicate: this alert was already received, not acted on again')
  t.equal(pageOutcomes.exitOutcomeText({ outcome: 'invalid', reason: 'no symbol', alertId: null }, [], money), 'Refused: no symbol')
})
