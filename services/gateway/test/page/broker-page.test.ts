// The Positions and Webhooks pages' words and figures (issue 25, items 3, 5 and 7), as pure functions.
import t from 'tap'
import { CONTRACTS } from '@signals/instruments'
import { pageBrokerView, pageExchangeTime, pageTickPrice } from './page-modules.ts'

const { priceOnTick, dollars, tickOf } = pageTickPrice

t.test("prices are shown on the contract's tick, from the instruments table", async (t) => {
  t.equal(priceOnTick('21000.00000000', 'MNQZ6'), '21000.00', 'a stored decimal column, MNQ ticks 0.25')
  t.equal(priceOnTick('21000.25', 'NQ1!'), '21000.25')
  t.equal(priceOnTick('44210.00000000', 'CBOT_MINI:YM1!'), '44210', 'YM ticks whole points')
  t.equal(priceOnTick('1.0845', '6EZ6'), '1.08450', '6E ticks 0.00005')
  t.equal(priceOnTick('71.4', 'MCLF7'), '71.40')
  t.equal(priceOnTick('12.50000000', 'ZZZ'), '12.5', 'an unknown contract: plain, never a guessed tick')
  t.equal(priceOnTick(null, 'MNQZ6'), '–')
  for (const contract of CONTRACTS) {
    const places = contract.tickSize.includes('.') ? contract.tickSize.split('.')[1]?.length : 0
    t.equal(tickOf(`${contract.root}Z6`), contract.tickSize, `${contract.root}: the table's tick`)
    t.equal(priceOnTick(contract.tickSize, contract.root).split('.')[1]?.length ?? 0, places, `${contract.root}: shown on its tick's decimals`)
  }
  t.equal(dollars('-12.5'), '−$12.50')
  t.equal(dollars('125000'), '$125,000.00')
  t.equal(dollars(null), '–')
})

t.test("times in the trader's zone with Chicago's clock beside, the date when they differ", async (t) => {
  // 2026-11-26 15:30 UTC: Chicago (CST, UTC-6) 09:30, Berlin (CET) 16:30.
  const berlin = pageExchangeTime.bothZones('2026-11-26T15:30:05Z', 'Europe/Berlin')
  t.match(berlin.local, /Nov 26, 16:30:05 GMT\+1/)
  t.equal(berlin.exchange, '09:30 CT')
  // Summer: Chicago on CDT (UTC-5); Tokyo already on the next day.
  const tokyo = pageExchangeTime.bothZones('2026-07-01T22:15:00Z', 'Asia/Tokyo')
  t.match(tokyo.local, /Jul 2, 07:15:00 GMT\+9/)
  t.equal(tokyo.exchange, 'Jul 1, 17:15 CT', "the exchange's date when it is another day")
  t.equal(pageExchangeTime.bothZones('2026-07-01T22:15:00Z', 'America/Chicago').exchange, '17:15 CT')
})

t.test('the broker session state is said plainly', async (t) => {
  const { sessionStateText } = pageBrokerView
  t.equal(sessionStateText('live', null, 'DEMO9000'), 'Read from your broker session just now (account DEMO9000).')
  t.match(sessionStateText('no_session', 'the broker connection is down: the broker cannot be asked now', null), /^Your broker session is not open, so the broker cannot be asked now: .*Positions and orders at the broker are not known\.$/)
  t.notMatch(sessionStateText('no_session', 'the broker connection is down: the broker cannot be asked now', null), /down.*down/, 'said once')
  t.equal(sessionStateText('stale', 'the broker has sent nothing for 40 s: what it said last may be out of date', 'A'), 'Read from your broker session, but the broker has sent nothing for 40 s: what it said last may be out of date.')
  t.equal(sessionStateText('unavailable', 'the broker did not answer: timeout', null), 'The broker could not be asked now: the broker did not answer: timeout. Try again in a moment.')
})

t.test('what a position\'s stops at the broker cover, in words', async (t) => {
  const { stopsText } = pageBrokerView
  t.equal(stopsText({ quantity: 5, stopQuantity: 5, stopNote: null }), '5 of 5 covered')
  t.equal(stopsText({ quantity: 5, stopQuantity: 4, stopNote: '1 of the 5 contract(s) held have no working stop at the broker (stops cover 4)' }), 'Check: 1 of the 5 contract(s) held have no working stop at the broker (stops cover 4)')
})

t.test('who holds a position, each webhook outcome in words', async (t) => {
  const { placedByText, intakeOutcomeText, intakeKindText, isRefused, stepText } = pageBrokerView
  t.equal(placedByText({ ours: true, side: 'LONG', quantity: 5, ourNetQuantity: 5, tradeIds: ['7'] }), 'Signals (trade 7)')
  t.equal(placedByText({ ours: true, side: 'SHORT', quantity: 3, ourNetQuantity: -2, tradeIds: ['7', '8'] }), 'Signals holds -2 (trades 7, 8); the rest is yours')
  t.equal(placedByText({ ours: false, side: 'LONG', quantity: 1, ourNetQuantity: 0, tradeIds: [] }), 'You, outside Signals')
  t.equal(intakeOutcomeText({ outcome: 'invalid', reason: 'Malformed JSON at line 1, column 31: expected a value' }), 'Refused: Malformed JSON at line 1, column 31: expected a value')
  t.equal(intakeOutcomeText({ outcome: 'duplicate', reason: null }), 'Duplicate: this alert was already received, not acted on again')
  t.equal(intakeOutcomeText({ outcome: 'unauthorized', reason: 'Webhook secret missing or wrong' }), 'Refused (webhook secret): Webhook secret missing or wrong')
  t.equal(intakeOutcomeText({ outcome: 'accepted', reason: null }), 'Accepted')
  t.equal(intakeKindText('result'), 'Exit or result')
  t.equal(intakeKindText(null), '–')
  t.ok(isRefused('too_old'))
  t.notOk(isRefused('duplicate'))
  t.equal(stepText('accepted'), 'Accepted by the broker')
})

t.test('commissions are said as the broker charged them, or as not known — never a made-up $0.00', async (t) => {
  const { commissionsSentence, tradeCommissionText } = pageBrokerView
  t.equal(commissionsSentence(null, dollars), '', 'no session: nothing said here (the page says the session is not open)')
  t.equal(commissionsSentence({ commissions: null, fills: [] }, dollars), '', 'no fill, nothing to cost')
  t.equal(commissionsSentence({ commissions: null, fills: [{}] }, dollars), 'Commissions: the broker reported no fee for these fills, so they are not known here (not $0.00).')
  t.equal(commissionsSentence({ commissions: '5.2', fills: [{}, {}] }, dollars), 'Commissions and fees of these fills: $5.20, as the broker charged them.')
  t.equal(tradeCommissionText({ commission: '2.6' }, dollars), '$2.60')
  t.equal(tradeCommissionText({ commission: null }, dollars), 'not known: a fill of it is from an earlier day or has no fee reported')
})
