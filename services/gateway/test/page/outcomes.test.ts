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
