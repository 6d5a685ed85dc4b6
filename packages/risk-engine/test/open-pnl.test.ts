import t from 'tap'
import fc from 'fast-check'
import { closingAction, deriveAccountState, positionOpenPnl } from '../src/index.ts'
import { configWith } from './fixtures.ts'

const NOW = new Date('2026-11-23T16:00:00Z')

t.test('open pnl of a net position: points x contracts x point value, a short gaining on a fall', async (t) => {
  t.equal(positionOpenPnl({ netPos: 2, averagePrice: '21000', markPrice: '20990.25', pointValue: '2' }), '-39', 'MNQ long 2: -9.75 x 2 x 2')
  t.equal(positionOpenPnl({ netPos: -3, averagePrice: '6000.5', markPrice: '5990', pointValue: '50' }), '1575', 'ES short 3: 10.5 x 3 x 50')
  t.equal(positionOpenPnl({ netPos: 1, averagePrice: '21000.125', markPrice: '21000', pointValue: '20' }), '-2.5', 'an averaged price off the tick stays exact')
  t.equal(closingAction(2), 'Sell', 'a long is marked at the bid')
  t.equal(closingAction(-1), 'Buy', 'a short at the ask')
})

// Integer cents arithmetic as the reference: prices in quarter points, point values in whole units.
t.test('property: open pnl equals the integer reference and flips sign with the side', async (t) => {
  t.doesNotThrow(() => fc.assert(
    fc.property(fc.integer({ min: -50, max: 50 }).filter((n) => n !== 0), fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 200_000 }), fc.constantFrom(2, 5, 20, 50, 1000), (netPos, averageQuarters, markQuarters, pointValue) => {
      const quarters = (value: number) => `${Math.floor(value / 4)}.${(value % 4) * 25}`
      const pnl = positionOpenPnl({ netPos, averagePrice: quarters(averageQuarters), markPrice: quarters(markQuarters), pointValue: String(pointValue) })
      const expected = ((markQuarters - averageQuarters) * netPos * pointValue) / 4
      const mirrored = positionOpenPnl({ netPos: -netPos, averagePrice: quarters(averageQuarters), markPrice: quarters(markQuarters), pointValue: String(pointValue) })
      return Number(pnl) === expected && Number(mirrored) === -expected
    }),
  ))
})

t.test("the broker positions' open pnl is the account's, over the trades' own", async (t) => {
  const history = { brokerBalance: '50000', closedDays: [], openTrades: [{ root: 'MNQ', side: 'LONG' as const, quantity: 1, entryPrice: '21000', openPnl: '10' }] }
  t.equal(deriveAccountState(configWith(), history, NOW).openPnl, '10.00', 'without a broker figure: the trades')
  t.equal(deriveAccountState(configWith(), { ...history, openPnl: '-1200.5' }, NOW).openPnl, '-1200.50', 'with one: the broker positions')
  const unrealized = configWith({ trailingDrawdown: { mode: 'intraday_unrealized' } })
  t.equal(deriveAccountState(unrealized, { ...history, openPnl: '700' }, NOW).peakBalance, '50700.00', 'intraday_unrealized: an open profit lifts the peak')
  t.equal(deriveAccountState(configWith(), { ...history, haltReason: 'the floor was reached' }, NOW).haltReason, 'the floor was reached')
})
