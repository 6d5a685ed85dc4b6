import t from 'tap'
import { closedTrade } from '../../../trading/positions/exit-helper.ts'
import { legsWaitingForRetry } from './database-away.ts'
import { eventually, legOrdersOf, netMnq } from './helper.ts'

// Stop 37 review (docs/decisions/projectx-adapter.md, "Stop 37's review"): legs whose placement waits for a
// retry (the database away a moment as the entry filled) were placed for the plan's fills even when the trade
// had closed meanwhile (here the trader's own sell on the platform): a stop and a target working on a flat
// account, each able to open a position of its own.

t.test('a trade closed before its legs could be placed gets none: nothing works at the broker on the flat account', async (t) => {
  const { broker, db, record } = await legsWaitingForRetry(t)
  t.equal(legOrdersOf(broker, record.id).length, 0, 'no leg placed yet')
  // The trader closes the position on the platform before the retry (5 s after the failure).
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 1, size: 5 })
  await closedTrade(db, record.id)
  t.equal(legOrdersOf(broker, record.id).length, 0, 'the trade closed before the retry')
  t.equal(netMnq(broker), 0, 'flat, the trade closed')
  // The retry reads the plan again: on main's code it placed both legs; fixed, it closes the plan.
  const closedOrPlaced = async () =>
    legOrdersOf(broker, record.id).length > 0 || (await db.selectFrom('own_leg_plans').select('closed_at').where('tag', '=', `sig-${record.id}`).executeTakeFirstOrThrow()).closed_at !== null
  await eventually(closedOrPlaced, 15_000)
  t.same(legOrdersOf(broker, record.id).filter((order) => order.ordStatus === 'Working').map((order) => order.clOrdId), [], 'no stop or target works on the flat account')
  t.equal(netMnq(broker), 0, 'still flat')
})
