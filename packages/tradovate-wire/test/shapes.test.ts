import t from 'tap'
import { commandFailure, entryPrice, errorTextOf, isAccessTokenResponse, isPropsEvent, isQuoteEvent, penaltyOf, withTicket } from '../src/index.ts'

t.test('penalty fields are read from a body; anything else is not a penalty', async (t) => {
  t.same(penaltyOf({ 'p-ticket': 'abc', 'p-time': 7 }), { ticket: 'abc', timeSeconds: 7, captcha: false })
  t.same(penaltyOf({ 'p-ticket': 'abc', 'p-time': 3600, 'p-captcha': true }), { ticket: 'abc', timeSeconds: 3600, captcha: true })
  t.same(penaltyOf({ 'p-captcha': true }), { ticket: '', timeSeconds: 0, captcha: true })
  t.equal(penaltyOf({ accessToken: 'x' }), null)
  t.equal(penaltyOf('p-ticket'), null)
  t.equal(penaltyOf(null), null)
  t.same(withTicket({ a: 1 }, 'tk'), { a: 1, 'p-ticket': 'tk' })
})

t.test('access-token answers and errorText refusals', async (t) => {
  t.ok(isAccessTokenResponse({ accessToken: 'a', expirationTime: '2026-01-01T00:00:00Z', userId: 1 }))
  t.notOk(isAccessTokenResponse({ accessToken: '', expirationTime: 'x' }))
  t.notOk(isAccessTokenResponse({ errorText: 'no' }))
  t.equal(errorTextOf({ errorText: 'Incorrect username' }), 'Incorrect username')
  t.equal(errorTextOf({ errorText: '' }), null)
  t.equal(errorTextOf([]), null)
})

t.test('command failures: a failureReason other than Success or a failureText', async (t) => {
  t.equal(commandFailure({ orderId: 1, oso1Id: 2 }), null)
  t.equal(commandFailure({ commandId: 5, failureReason: 'Success' }), null)
  t.same(commandFailure({ failureReason: 'NoQuote', failureText: 'no price' }), { reason: 'NoQuote', text: 'no price' })
  t.same(commandFailure({ failureReason: 'TradingLocked' }), { reason: 'TradingLocked', text: 'TradingLocked' })
  t.same(commandFailure({ failureText: 'odd' }), { reason: 'UnknownReason', text: 'odd' })
})

t.test('props events need an entity type, event type and entity', async (t) => {
  t.ok(isPropsEvent({ e: 'props', d: { entityType: 'fill', eventType: 'Created', entity: { id: 1 } } }))
  t.notOk(isPropsEvent({ e: 'md', d: { entityType: 'fill', eventType: 'Created', entity: {} } }))
  t.notOk(isPropsEvent({ e: 'props', d: { entityType: 'fill', eventType: 'Created', entity: null } }))
  t.notOk(isPropsEvent({ e: 'props', d: null }))
})

t.test('md quote events: a quotes array under e "md"; entry prices read when they are numbers', async (t) => {
  const quote = { timestamp: '2026-11-20T15:00:00.000Z', contractId: 5, entries: { Bid: { price: 21000, size: 3 }, Offer: { size: 2 }, Trade: { price: 21000.25 } } }
  t.ok(isQuoteEvent({ e: 'md', d: { quotes: [quote] } }))
  t.notOk(isQuoteEvent({ e: 'md', d: { doms: [] } }), 'a DOM event is not a quote event')
  t.notOk(isQuoteEvent({ e: 'props', d: { quotes: [] } }))
  t.equal(entryPrice(quote, 'Bid'), 21000)
  t.equal(entryPrice(quote, 'Trade'), 21000.25)
  t.equal(entryPrice(quote, 'Offer'), null, 'an entry with a size and no price has no price')
  t.equal(entryPrice(quote, 'SettlementPrice'), null, 'an absent entry')
  t.equal(entryPrice({ entries: { Bid: { price: '21000' } } }, 'Bid'), null, 'a price that is not a JSON number')
  t.equal(entryPrice(null, 'Bid'), null)
})
