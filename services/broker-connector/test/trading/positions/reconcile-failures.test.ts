import t from 'tap'
import { sql } from '@signals/db'
import { statusOf } from '../../feeds/feed-helper.ts'
import { eventually, publishAlert } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradingApp } from '../../trading-helper.ts'

// Issue 20, item 5: "one bad event is logged and set aside, it never stops a session from opening". A
// reconciliation that failed on Postgres (not on the broker) made the whole session open fail, so the
// feed never came up. Now it is logged and tried again on the timer; meanwhile the account's entries are
// refused (its positions were never compared with the broker's), never placed on a guess.

t.test('a reconciliation failing on the database does not stop the session from opening; entries wait until a pass succeeds', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, { POSITION_RECONCILE_MS: '300', FEED_STATUS_REFRESH_MS: '500' })
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  // The reconciliation's own table gone: every pass fails on Postgres.
  await sql`ALTER TABLE position_discrepancies RENAME TO position_discrepancies_away`.execute(db)
  await connect(app, 'u-0')
  await eventually(async () => (await statusOf(app, 'u-0'))?.state === 'connected')
  t.match((await statusOf(app, 'u-0'))?.detail, /^account DEMO9000; positions not yet reconciled with the broker \(tried again on the timer; entries wait\)/, 'the session opened, the feed is connected, and the status tells why entries wait')

  const refused = mnqEntry()
  await publishAlert(app, refused)
  t.match(await settledRecord(db, refused.alertId), { status: 'refused', refusal_code: 'position_differs', reason: /^not placed: positions not yet reconciled with the broker/ })
  t.same(broker.positions().filter((position) => position.netPos !== 0), [], 'nothing placed')

  await sql`ALTER TABLE position_discrepancies_away RENAME TO position_discrepancies`.execute(db)
  const placed = mnqEntry({ raw: { n: 2 } })
  await eventually(() => app.trading.reconciler.reconciled('u-0'), 10_000)
  await publishAlert(app, placed)
  t.match(await settledRecord(db, placed.alertId), { status: 'placed' }, 'placed once a pass has succeeded')
  await eventually(async () => !/not yet reconciled/.test((await statusOf(app, 'u-0'))?.detail ?? 'not yet reconciled'), 10_000)
  t.pass('the status no longer says so')
})
