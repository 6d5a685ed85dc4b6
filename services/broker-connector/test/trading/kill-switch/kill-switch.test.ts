import t from 'tap'
import { sql } from '@signals/db'
import { eventually, identityHeaders, liveTradingOf, publishAlert } from '../../helper.ts'
import { connectedTrader, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

const WORKING = new Set(['PendingNew', 'Working', 'Suspended'])

/**
 * The kill switch against the paper broker (issue 25, item 2): our open trade, a position the trader opened
 * by hand in another contract and a working order of their own are all gone at the broker; auto-place is
 * off and stays off; the use is recorded with what was done.
 */
t.test('kill switch: every position flattened and every working order cancelled at the broker, auto-place off, recorded', async (t) => {
  const { broker, app, db, config } = await connectedTrader(t)
  broker.setPrice('MESZ6', '6000')
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  // By hand at the broker: a long MES position with its own stop, and a resting MNQ buy limit far below.
  broker.placeOso(9000, { accountSpec: 'DEMO9000', accountId: 9000, action: 'Buy', symbol: 'MESZ6', orderQty: 2, orderType: 'Market', isAutomated: false, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 5900 } })
  const resting = broker.placeOso(9000, { accountSpec: 'DEMO9000', accountId: 9000, action: 'Buy', symbol: 'MNQZ6', orderQty: 1, orderType: 'Limit', price: 19000, isAutomated: false, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 18900 } })
  t.ok('orderId' in resting, JSON.stringify(resting))
  const open = () => broker.positions().filter((position) => position.accountId === 9000 && position.netPos !== 0)
  const working = () => broker.orders().filter((order) => order.accountId === 9000 && WORKING.has(order.ordStatus))
  t.equal(open().length, 2, 'MNQ (ours) and MES (by hand) are held')
  t.ok(working().length >= 4, 'our stop and target, the MES stop and the MNQ limit are working')

  const response = await app.inject({ method: 'POST', url: '/api/kill-switch', headers: identityHeaders(config, 'u-0') })
  t.equal(response.statusCode, 200, response.body)
  const body = response.json()
  t.match(body, { success: true, autoPlaceOrders: false, killSwitch: { outcome: 'done', detail: /1 other position\(s\) flattened, \d+ working order\(s\) cancelled on account DEMO9000/ } })

  await eventually(() => open().length === 0 && working().length === 0)
  const trade = await (async () => {
    await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
    return (await tradeOfRecord(db, record.id))!
  })()
  t.match(trade, { status: 'closed', result: 'Session End', close_reason: /kill switch/ }, 'our trade closed from the broker fill, with why')

  t.same(await liveTradingOf(db, 'u-0'), { enabled: true, autoPlaceOrders: false }, 'auto-place off, live trading left on')

  const history = await app.inject({ method: 'GET', url: '/api/kill-switch', headers: identityHeaders(config, 'u-0') })
  t.equal(history.statusCode, 200)
  t.match(history.json().killSwitches, [{ id: body.killSwitch.id, outcome: 'done', detail: body.killSwitch.detail, finishedAt: String }])

  // Auto-place stays off: the next entry is recorded, and nothing reaches the broker.
  const ordersBefore = broker.orders().length
  const next = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, next)
  t.match(await settledRecord(db, next.alertId), { status: 'not_placed', reason: /automatic order placement is off/ })
  t.equal(broker.orders().length, ordersBefore, 'no order was sent after the kill switch')
  t.equal(open().length, 0)
})

t.test('kill switch: a trader with a notification channel is told, with what was done', async (t) => {
  const { app, db, config } = await connectedTrader(t)
  await sql`
    INSERT INTO notification_channels (user_id, kind, name, events, settings, key_id, secret_iv, secret_tag, secret_ciphertext)
    VALUES ('u-0', 'discord', 'desk', ARRAY['kill_switch'], '{}'::jsonb, 'k', '\\x00', '\\x00', '\\x00')`.execute(db)
  const response = await app.inject({ method: 'POST', url: '/api/kill-switch', headers: identityHeaders(config, 'u-0') })
  t.equal(response.statusCode, 200, response.body)
  const { killSwitch } = response.json()
  const event = await db.selectFrom('notification_events').select(['kind', 'event_key', 'details']).where('user_id', '=', 'u-0').executeTakeFirst()
  t.match(event, { kind: 'kill_switch', event_key: `kill_switch:${killSwitch.id}`, details: { outcome: killSwitch.outcome, reason: /^kill switch done: .*on account DEMO9000/ } })
})

t.test('kill switch without a broker session: auto-place off, the open trade asked to exit durably, recorded as no_session', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-1', username: 'trader1' })
  await sql`INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price, status, contract, broker_contract_id, broker_account_id)
    VALUES ('u-1', 'MNQ1!', 'MNQ', 'LONG', 1, 21000, 'open', 'MNQZ6', 4242, 9001)`.execute(db)
  // The feed is never started: no session anywhere.
  const response = await app.inject({ method: 'POST', url: '/api/kill-switch', headers: identityHeaders(config, 'u-1') })
  t.equal(response.statusCode, 200, response.body)
  t.match(response.json().killSwitch, { outcome: 'no_session', detail: /nothing could be flattened or cancelled at the broker now/ })
  const pending = await db.selectFrom('flatten_requests').select(['contract', 'done_at']).where('user_id', '=', 'u-1').execute()
  t.same(pending, [{ contract: 'MNQZ6', done_at: null }], 'the exit waits durably for the session')
  t.same(await liveTradingOf(db, 'u-1'), { enabled: true, autoPlaceOrders: false })
})

t.test('kill switch needs a signed-in user', async (t) => {
  const broker = await paperBroker(t)
  const { app } = await tradingApp(t, broker)
  const response = await app.inject({ method: 'POST', url: '/api/kill-switch' })
  t.equal(response.statusCode, 401)
})

t.test('kill switch: a cancel the broker refuses is reported in its words; pressing again finishes the job', async (t) => {
  const { broker, app, config } = await connectedTrader(t)
  // A resting MES order (a liquidation of MNQ would cancel an MNQ one by itself) and a short MNQ position.
  broker.setPrice('MESZ6', '6000')
  const resting = broker.placeOso(9000, { accountSpec: 'DEMO9000', accountId: 9000, action: 'Buy', symbol: 'MESZ6', orderQty: 1, orderType: 'Limit', price: 5000, isAutomated: false, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 4900 } })
  if (!('orderId' in resting)) throw new Error(JSON.stringify(resting))
  broker.placeManualOrder('trader0', { symbol: 'MNQZ6', action: 'Sell', qty: 2 })
  const working = () => broker.orders().filter((order) => order.accountId === 9000 && WORKING.has(order.ordStatus))
  await eventually(() => working().length > 0)
  // A penalty longer than the adapter waits out by itself (5 s): the cancel is refused back to the kill switch.
  const PENALTY_S = 6
  broker.interfere('order/cancelorder', { kind: 'penalty', seconds: PENALTY_S }, 1)

  const headers = identityHeaders(config, 'u-0')
  const first = await app.inject({ method: 'POST', url: '/api/kill-switch', headers })
  t.equal(first.statusCode, 200, first.body)
  t.match(first.json().killSwitch, { outcome: 'incomplete', detail: /^no open trades of yours, 1 other position\(s\) flattened, \d+ working order\(s\) cancelled on account DEMO9000; not done: order \d+ not cancelled: .+/ })
  t.equal(broker.positions().find((position) => position.accountId === 9000)?.netPos ?? 0, 0, 'the position was flattened all the same')
  t.ok(working().some((order) => order.id === resting.orderId), 'the refused cancel left the order working')

  // The broker's penalty time passes (its clock, not a wait): a resend before it would be penalised again.
  t.equal(broker.expirePenalties(), 1, 'the refused cancel left one ticket')
  const second = await app.inject({ method: 'POST', url: '/api/kill-switch', headers })
  t.match(second.json().killSwitch, { outcome: 'done', detail: /0 other position\(s\) flattened, [1-9]\d* working order\(s\) cancelled/ })
  await eventually(() => working().length === 0)
  const history = (await app.inject({ method: 'GET', url: '/api/kill-switch', headers })).json().killSwitches
  t.same(history.map((use: { outcome: string }) => use.outcome), ['done', 'incomplete'], 'both uses recorded, newest first')
})
