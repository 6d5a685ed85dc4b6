import t from 'tap'
import { Durables } from '../../src/intake/plugin.ts'
import { drained, publishAlert } from '../helper.ts'
import { mnqEntry, settledRecord, tradeOfRecord } from '../trading-helper.ts'
import { netMnq, openedTrade } from '../trading/positions/exit-helper.ts'
import { traderWithSource } from '../source-helper.ts'

/** Issue 22 item 4: a source's reversal closes only what its own entries opened (docs/decisions/signal-sources.md). */

t.test("a source's reversal never closes the spec route's position: refused, saying why, the long kept whole", async (t) => {
  const { broker, app, db, house } = await traderWithSource(t)
  const spec = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, spec)
  const specTrade = await openedTrade(db, (await settledRecord(db, spec.alertId)).id)
  t.equal(netMnq(broker), 2)

  for (const [orderWord, action] of [['reverse', null], [null, 'SHORT']] as const) {
    const reverse = mnqEntry({ userId: 'u-0', sourceId: house, action, orderWord, sl: 21050, tp: 20900 })
    await publishAlert(app, reverse)
    t.match(await settledRecord(db, reverse.alertId), {
      status: 'refused',
      refusal_code: 'reversal_other_source',
      reason: /the LONG MNQZ6 position of 2 is held by trades this signal source did not open/,
    }, `${orderWord ?? action}: refused`)
  }
  await drained(app, 'ALERTS', Durables.entry)
  await app.trading.flattens.idle()
  t.equal(netMnq(broker), 2, 'the long is still held')
  t.match(await tradeOfRecord(db, specTrade.alert_record_id!), { status: 'open', exit_requested_at: null, quantity: specTrade.quantity })
  t.equal((await db.selectFrom('flatten_requests').select('id').execute()).length, 0, 'no close was asked for')
})

t.test("a source's reversal when its own trade shares the side with the spec route's: refused rather than half-reversed", async (t) => {
  const { broker, app, db, house } = await traderWithSource(t)
  const spec = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, spec)
  const specTrade = await openedTrade(db, (await settledRecord(db, spec.alertId)).id)
  const fromHouse = mnqEntry({ userId: 'u-0', sourceId: house })
  await publishAlert(app, fromHouse)
  const houseTrade = await openedTrade(db, (await settledRecord(db, fromHouse.alertId)).id)
  t.equal(netMnq(broker), 4)

  const reverse = mnqEntry({ userId: 'u-0', sourceId: house, action: null, orderWord: 'reverse', sl: 21050, tp: 20900 })
  await publishAlert(app, reverse)
  t.match(await settledRecord(db, reverse.alertId), { status: 'refused', refusal_code: 'reversal_other_source', reason: /position of 4 is held by trades this signal source did not open \(2 contract\(s\)\)/ })
  await app.trading.flattens.idle()
  t.equal(netMnq(broker), 4)
  for (const trade of [specTrade, houseTrade]) t.match(await tradeOfRecord(db, trade.alert_record_id!), { status: 'open', exit_requested_at: null })
})

t.test("a source's reversal of its own position alone: closed, then entered, as before sources", async (t) => {
  const { broker, app, db, house } = await traderWithSource(t)
  const fromHouse = mnqEntry({ userId: 'u-0', sourceId: house })
  await publishAlert(app, fromHouse)
  const houseTrade = await openedTrade(db, (await settledRecord(db, fromHouse.alertId)).id)
  const reverse = mnqEntry({ userId: 'u-0', sourceId: house, action: null, orderWord: 'reverse', sl: 21050, tp: 20900 })
  await publishAlert(app, reverse)
  const reversed = await settledRecord(db, reverse.alertId)
  t.match(reversed, { status: 'placed', action: 'SHORT', reason: /^reversal: the LONG MNQZ6 position of 2 is closed first/ })
  t.match(await tradeOfRecord(db, houseTrade.alert_record_id!), { status: 'closed', close_alert_id: reverse.alertId })
  await openedTrade(db, reversed.id)
  t.equal(netMnq(broker), -2)
})
