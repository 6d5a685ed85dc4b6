import t from 'tap'
import { closedTrade } from '../../../trading/positions/exit-helper.ts'
import { connectedProjectXTrader, eventually, legOrdersOf, netMnq, partialCloses, POSITION_BRACKETS, reasonOf, restingEntryFilledOnce } from './helper.ts'

// Stop 37 review (docs/decisions/projectx-adapter.md, "Stop 37's review"): a resting entry's trade closed by
// something other than its legs (here the trader's own sell on the platform) while the entry still works. The
// trade keeper cancels the legs and the rest; the entry fills one more before those cancels land, and the
// legs, still working, were grown for it. Cancelled then, they closed the plan at the two contracts they had
// been grown for: nothing was late, and the contract the closed trade never counted stayed held with no stop
// and no trade (the keeper's late part leaves a plan's fills to the plan).

const requestsTo = (broker: { requests: readonly { endpoint: string }[] }, endpoint: string) => broker.requests.filter((request) => request.endpoint === endpoint).length

t.test("the trade closed otherwise while its resting entry fills one more: the legs grown for that contract do not count it covered, it is closed at the market", async (t) => {
  const { broker, app, db } = await connectedProjectXTrader(t, POSITION_BRACKETS)
  const record = await restingEntryFilledOnce(broker, app, db)
  const working = () => legOrdersOf(broker, record.id).filter((order) => order.ordStatus === 'Working')
  await eventually(() => netMnq(broker) === 1 && working().length === 2)
  // The trade keeper's cancels (the legs, the entry's rest) are held at the broker until released.
  const cancelsBefore = requestsTo(broker, 'Order/cancel')
  broker.interfere('Order/cancel', { kind: 'late' }, 3)
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 1, size: 1 })
  await closedTrade(db, record.id)
  await eventually(() => requestsTo(broker, 'Order/cancel') > cancelsBefore)
  t.equal(netMnq(broker), 0, "the trader's sell closed the one contract held, and the trade")
  // The entry fills one more while the cancels are on their way (on main's code the legs, still working, grew for it).
  const modifiesBefore = requestsTo(broker, 'Order/modify')
  broker.setPrice('MNQZ6', '20989')
  const filled = async () => (await db.selectFrom('own_leg_plans').select('filled').where('tag', '=', `sig-${record.id}`).executeTakeFirstOrThrow()).filled
  await eventually(async () => (await filled()) === 2)
  t.pass('the entry filled one more, counted on the plan')
  // What the connector does with it (grown legs, or a close at the market) before the keeper's cancels land.
  await eventually(() => requestsTo(broker, 'Order/modify') > modifiesBefore || partialCloses(broker) > 0, 5_000).catch(() => undefined)
  await eventually(() => {
    broker.release('Order/cancel')
    return working().length === 0
  })
  // Not thrown on time-out: the asserts below say what is missing.
  await eventually(() => netMnq(broker) === 0, 15_000).catch(() => undefined)
  t.equal(netMnq(broker), 0, 'the contract filled after the trade closed is closed: flat')
  t.equal(partialCloses(broker), 1, 'closed at the market once')
  const plan = await db.selectFrom('own_leg_plans').select(['filled', 'closed_filled', 'flattened']).where('tag', '=', `sig-${record.id}`).executeTakeFirstOrThrow()
  t.same(plan, { filled: 2, closed_filled: 1, flattened: 1 }, 'the plan says one contract was late (the trade counted one), and closed')
  await eventually(async () => /at the market/.test(await reasonOf(db, record.id)), 5_000).catch(() => undefined)
  t.match(await reasonOf(db, record.id), /1 contract the entry filled after its stop and target were done had no stop: 1 closed at the market/, 'the record says so')
})
