import t from 'tap'
import { AddressRateLimit } from '../../src/http/address-rate-limit.ts'

function clock(start = 1_000_000) {
  const state = { now: start }
  return { state, now: () => state.now }
}

t.test('each address has its own budget per window, starting at its first request', async (t) => {
  const { state, now } = clock()
  const limit = new AddressRateLimit(2, 60_000, now)
  t.equal(limit.take('a'), null)
  t.equal(limit.take('a'), null)
  t.equal(limit.take('a'), 60, 'the third in the window is refused, with the seconds left')
  t.equal(limit.take('b'), null, 'another address is unaffected')
  state.now += 59_500
  t.equal(limit.take('a'), 1, 'still refused just before the window ends (at least one second to wait)')
  state.now += 500
  t.equal(limit.take('a'), null, 'a new window starts once the old one has ended')
})

t.test('windows that ended are forgotten, so quiet addresses do not accumulate', async (t) => {
  const { state, now } = clock()
  const limit = new AddressRateLimit(5, 1_000, now)
  for (let n = 0; n < 50; n++) limit.take(`10.0.0.${n}`)
  t.equal(limit.trackedAddresses, 50)
  state.now += 1_000
  limit.take('10.0.1.1')
  t.equal(limit.trackedAddresses, 1, 'the sweep left only the address of the current window')
})

t.test('a full table evicts its oldest entries instead of forgetting every counter (issue 15 point 3)', async (t) => {
  const { now } = clock()
  const limit = new AddressRateLimit(1, 60_000, now, 3)
  t.equal(limit.take('old'), null)
  t.equal(limit.take('busy'), null)
  t.equal(limit.take('busy'), 60, 'busy is at its limit')
  t.equal(limit.take('third'), null)
  t.equal(limit.take('newcomer'), null, 'a fourth address fits by evicting the oldest')
  t.equal(limit.trackedAddresses, 3, 'the table never grows past its size')
  t.equal(limit.take('busy'), 60, 'a newer address keeps its count: still limited')
  t.equal(limit.take('old'), null, 'the oldest entry was the one evicted')
})

t.test('an address with its own budget is limited at that budget, not the common one', async (t) => {
  const { now } = clock()
  const limit = new AddressRateLimit(2, 60_000, now, 100, (address) => (address === 'tv' ? 5 : undefined))
  for (let n = 0; n < 5; n++) t.equal(limit.take('tv'), null)
  t.equal(limit.take('tv'), 60)
  t.equal(limit.take('x'), null)
  t.equal(limit.take('x'), null)
  t.equal(limit.take('x'), 60)
})
