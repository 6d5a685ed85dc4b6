import t, { type Test } from 'tap'
import type { ProjectXPaperBroker } from '@signals/dev-paper-broker-projectx'
import { buildInstance } from '../../../helper.ts'
import { connectedProjectXTrader, eventually, fillOneMoreAtCancel, netMnq, partialCloses, POSITION_BRACKETS, restingEntryFilledOnce } from './helper.ts'
import { otherRecordTrade, otherTradeKept, workingLegsOf } from './other-record-trade.ts'

// Review of the late-close naming (docs/decisions/projectx-adapter.md, "Its fill is the record's"): the order
// ProjectX places untagged for a late fill's close (`Position/partialCloseContract`) is named `<tag>.late` by
// its shape. Two ways it named the wrong order, or none, and the close's fill went first in, first out to
// another record's trade (cut 2 -> 1 in Postgres, its stop and target resized to 1 while the broker held 2):
// an older untagged order of the same shape listed while the close was due; a restart before its order was seen.
// Runs with PROJECTX_RESTING_OWN_LEGS on, as the other tests of resting entries.

type Started = Awaited<ReturnType<typeof connectedProjectXTrader>>

/**
 * Another record's market trade of 2 in MNQ with its stop and target, then a resting entry of the same side
 * whose target closes its trade while it works: it fills one more contract first, closed at the market.
 * `onCloseSent` runs as the broker receives the close (the test's race); returns when the late contract is held.
 */
async function lateFillBesideAnotherTrade(t: Test, onCloseSent: (broker: ProjectXPaperBroker) => void, before: (started: Started) => Promise<void> = async () => undefined) {
  let entryTag = ''
  let closeSent = false
  // The first cancel after the resting entry's target closed its trade: the entry fills one more first.
  const race = fillOneMoreAtCancel((tag) => entryTag !== '' && tag === entryTag)
  const onRequest = (request: { endpoint: string }) => {
    if (request.endpoint === 'Position/partialCloseContract' && race.broker !== null && !closeSent) {
      closeSent = true
      onCloseSent(race.broker)
    }
    race.onRequest(request)
  }
  const started = await connectedProjectXTrader(t, { ...POSITION_BRACKETS, broker: { onRequest } })
  const { broker, app, db } = started
  race.broker = broker
  await before(started)
  const other = await otherRecordTrade(broker, app, db)
  const { held } = other
  t.ok(held > 0 && netMnq(broker) === held, "the other record's trade holds the account's position")
  const record = await restingEntryFilledOnce(broker, app, db)
  entryTag = `sig-${record.id}`
  await eventually(() => workingLegsOf(broker, record.id).length === 2)
  broker.setPrice('MNQZ6', '21090')
  await eventually(() => race.raced)
  t.equal(race.heldAfterRace, held + 1, "one more contract filled after the target closed the resting entry's trade")
  await eventually(() => closeSent && netMnq(broker) === held, 15_000)
  return { broker, started, record, ...other }
}

t.test("an older untagged Market order of the close's shape, listed while the close is due, is not taken for it: the close's fill leaves another record's trade open", async (t) => {
  let app: Started['app'] | null = null
  const manual: number[] = []
  const run = await lateFillBesideAnotherTrade(
    t,
    (broker) => {
      // The close's events held back while a list of the account's orders is read (as the reconciliation, the
      // trade keeper or the broker page do): the trader's old sell of 1 is listed before the close's order.
      broker.delayUserHub(3_000)
      setTimeout(() => void app?.feeds.session('u-0')?.listOrders({ fresh: true }).then(() => broker.delayUserHub(0)), 100)
    },
    async (started) => {
      app = started.app
      // Earlier in the day the trader bought 1 and sold 1 by hand (untagged Market orders), seen by the session.
      manual.push(started.broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 0, size: 1 }), started.broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 1, size: 1 }))
      await eventually(async () => (await started.app.feeds.session('u-0')?.listOrders())?.filter((order) => order.tag === null).length === 2)
    },
  )
  const { broker, started, record } = run
  await otherTradeKept(t, started.db, broker, run)
  t.equal(partialCloses(broker), 1, 'closed at the market once')
  const listed = async () => (await started.app.feeds.session('u-0')?.listOrders()) ?? []
  const untagged = broker.orders().filter((order) => order.clOrdId === null && !manual.includes(order.id))
  t.same(untagged.map((order) => [order.action, order.orderQty]), [['Sell', 1]], 'the close: one untagged Market order, sized to the one late contract')
  const named = (await listed()).filter((order) => order.tag === `sig-${record.id}.late`).map((order) => order.id)
  t.same(named, untagged.map((order) => order.id), "the close's order, and only it, is named the record's late close")
  t.same((await listed()).filter((order) => manual.includes(order.id)).map((order) => order.tag), [null, null], "the trader's own orders keep no tag")
})

t.test("the connector stops after sending the late close, before its order is seen: the next instance names it, and the close's fill leaves another record's trade open", async (t) => {
  // The close's events held back past the instance's stop.
  const run = await lateFillBesideAnotherTrade(t, (broker) => broker.delayUserHub(8_000))
  const { broker, started, record } = run
  await started.app.close()
  broker.delayUserHub(0)
  const restarted = await buildInstance(t, started.config, { feeds: true })
  await eventually(() => restarted.feeds.session('u-0') !== null)
  await otherTradeKept(t, restarted.db, broker, run)
  t.equal(partialCloses(broker), 1, 'closed at the market once')
  const listed = async () => (await restarted.feeds.session('u-0')?.listOrders()) ?? []
  const untagged = broker.orders().filter((order) => order.clOrdId === null)
  t.same(untagged.map((order) => [order.action, order.orderQty]), [['Sell', 1]], 'the close: one untagged Market order, sized to the one late contract')
  t.same((await listed()).filter((order) => order.tag === `sig-${record.id}.late`).map((order) => order.id), untagged.map((order) => order.id), "the next instance names the close's order the record's late close")
  const keptIds = async () => (await restarted.db.selectFrom('own_leg_late_closes').select('order_id').where('tag', '=', `sig-${record.id}`).execute()).map((row) => row.order_id)
  await eventually(async () => (await keptIds())[0] != null).catch(() => undefined)
  t.same(await keptIds(), untagged.map((order) => order.id), 'and keeps it by its id: every later list, and the instance after, name it')
})
