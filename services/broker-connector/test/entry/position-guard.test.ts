import t from 'tap'
import { publishAlert } from '../helper.ts'
import { connectedTrader, mnqEntry, settledRecord } from '../trading-helper.ts'

/** Issue 24, item 7: the position sync guard against the paper broker. */
t.test('an entry whose strategy was elsewhere than the account is refused with why; one in step is placed', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const ordersBefore = broker.orders().length
  // The strategy says it was long already (an add), the account is flat: out of step.
  const adding = mnqEntry({ userId: 'u-0', strategyPosition: { before: 'LONG', after: 'LONG', size: 2 } })
  await publishAlert(app, adding)
  t.match(await settledRecord(db, adding.alertId), {
    status: 'refused',
    refusal_code: 'position_out_of_sync',
    reason: /^not placed: the strategy says its position in MNQZ6 was long before this order, but the account is flat at the broker/,
  })
  t.equal(broker.orders().length, ordersBefore, 'nothing sent')

  const inStep = mnqEntry({ userId: 'u-0', strategyPosition: { before: 'FLAT', after: 'LONG', size: 1 } })
  await publishAlert(app, inStep)
  t.match(await settledRecord(db, inStep.alertId), { status: 'placed' })
})
