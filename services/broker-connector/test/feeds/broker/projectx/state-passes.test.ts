import t from 'tap'
import { connectedTraderOn } from '../../../brokers-under-test.ts'
import { identityHeaders, publishAlert } from '../../../helper.ts'
import { mnqEntry, settledRecord, tradeOfRecord } from '../../../trading-helper.ts'
import { eventually } from './helper.ts'

// Issue 23, item 4, through the connector: the risk watchdog's and the reconciliation's passes and the
// trader's positions page read a ProjectX account from the session's hub-kept state, making no REST request
// (a thousand users polling over REST flooded the broker); a hub connection lost is a new session, seeded
// again, so what changed at the broker meanwhile is seen.

const LIST_ENDPOINTS = new Set(['Order/search', 'Order/searchOpen', 'Trade/search', 'Position/searchOpen', 'Account/search', 'Contract/searchById'])
const listReads = (broker: { requests: readonly { endpoint: string }[] }) => broker.requests.filter((request) => LIST_ENDPOINTS.has(request.endpoint)).map((request) => request.endpoint)

t.test('a watchdog pass, a reconciliation pass and the positions page make no request at the ProjectX broker', async (t) => {
  const { broker, app, db, config } = await connectedTraderOn(t, 'projectx', { overrides: { POSITION_RECONCILE_MS: '600000', RISK_WATCHDOG_MS: '600000' } })
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  const before = listReads(broker)
  const requests = broker.requests.length

  await app.trading.reconciler.reconcileAll()
  t.same(await app.trading.watchdog!.pass(), ['calm'], 'the watchdog looked at the account')
  const page = await app.inject({ method: 'GET', url: '/api/broker/positions', headers: identityHeaders(config, 'u-0') })
  t.equal(page.statusCode, 200)
  t.match(page.json(), { session: { positions: [{ contract: 'MNQZ6', side: 'LONG', ours: true }] } }, 'the page shows the position')
  const orders = await app.inject({ method: 'GET', url: '/api/broker/orders?limit=20', headers: identityHeaders(config, 'u-0') })
  t.equal(orders.statusCode, 200)
  t.equal((orders.json() as { session: { fills: unknown[] } }).session.fills.length, 1, 'the orders page shows the fill')

  t.same(listReads(broker), before, 'no list read at the broker during the passes and page reads')
  t.equal(broker.requests.length, requests, 'no request at all')
})

t.test('a hub connection lost: the next session is seeded again, and sees what changed at the broker while no hub listened', async (t) => {
  const { broker, app, db } = await connectedTraderOn(t, 'projectx', { overrides: { POSITION_RECONCILE_MS: '600000', RISK_WATCHDOG_MS: '600000' } })
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  const held = Number((await tradeOfRecord(db, record.id))!.quantity)
  const first = app.feeds.session('u-0')!
  t.same((await first.listPositions()).map((position) => position.netPos), [held], 'our trade\'s position')
  broker.dropConnections()
  // In the same turn as the cut, before any session can listen again: the trader adds one on the platform
  // (a quantity difference the reconciliation only reports, so the position stays as it is).
  broker.placeManualOrder({ symbol: 'MNQZ6', action: 'Buy', qty: 1 })
  await eventually(() => {
    const next = app.feeds.session('u-0')
    return next !== null && next !== first
  }, 10_000)
  const next = app.feeds.session('u-0')!
  const seeded = broker.requests.length
  t.same((await next.listPositions()).map((position) => position.netPos), [held + 1], 'the contract bought while the hub was down')
  t.equal((await next.listFills()).length, 2, 'the entry\'s fill and the one by hand')
  t.equal(broker.requests.length, seeded, 'read from the new session\'s state')
})
