import t from 'tap'
import { publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { connectedProjectXTrader, eventually, netMnq } from '../../feeds/broker/projectx/helper.ts'
import { mnqExit } from './exit-helper.ts'

/**
 * A partial close on a ProjectX account whose user hub lags: the trader sold part of the position by hand
 * on the platform and the hub has not told it yet. The close is sized against what the broker holds now
 * (a fresh read, docs/decisions/projectx-adapter.md), not the session's hub-kept state: 75% of the 2 held
 * is 1, never 75% of a stale 5 (3, which would leave the account short 1).
 */
t.test('partial close (ProjectX): sized against the position the broker holds, not a lagging hub state', async (t) => {
  const { broker, app, db } = await connectedProjectXTrader(t)
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  t.equal(netMnq(broker), 5, 'the trade holds 5')

  broker.delayUserHub(5_000)
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 1, size: 3 })
  t.equal(netMnq(broker), 2, 'sold 3 by hand on the platform: the broker holds 2')
  await publishAlert(app, mnqExit({ userId: 'u-0', closes: 'LONG', closePart: { quantity: null, percent: 75, remaining: null } }))
  await eventually(() => netMnq(broker) !== 2)
  t.equal(netMnq(broker), 1, '75% of the 2 held: 1 sold, 1 left, never short')
})
