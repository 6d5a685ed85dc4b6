import t from 'tap'
import { recordRoutingOf } from '../../src/intake/handlers.ts'
import { mnqEntry } from '../trading-helper.ts'

t.test('cancel, flatten everything and the kill switch reach the sender only; entries and modifies follow the routing', async (t) => {
  const cancel = mnqEntry({ userId: 'u-0', action: null, instruction: { kind: 'cancel', orders: 'all' } })
  t.equal(recordRoutingOf(cancel, 'fanout'), 'targeted', 'a vendor\'s cancel never takes every trader\'s stops off')
  t.equal(recordRoutingOf(mnqEntry({ userId: 'u-0', action: null, instruction: { kind: 'flatten_account' } }), 'fanout'), 'targeted')
  t.equal(recordRoutingOf(mnqEntry({ userId: 'u-0', action: null, instruction: { kind: 'kill_switch' } }), 'fanout'), 'targeted')
  t.equal(recordRoutingOf(mnqEntry({ userId: 'u-0' }), 'fanout'), 'fanout', 'an entry goes to every live trader')
  t.equal(recordRoutingOf(mnqEntry({ userId: 'u-0', action: null, instruction: { kind: 'modify', sl: 20960, tp: null } }), 'fanout'), 'fanout', 'a modify moves the trades of the signal')
})
