import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { sql } from '@signals/db'
import { IDENTITY_HEADER } from '@signals/http-kit'
import { unsignedIdentity } from '@signals/test-support'
import { build, identityHeaders, seedUsers } from '../../helper.ts'

async function setup(t: Test) {
  const built = await build(t, {}, { consumers: false })
  const { db } = built
  await seedUsers(db, 2, { prefix: 'u' })
  // 7 alert records for u-0, 2 for u-1, and a test alert owned by u-0.
  await sql`
    INSERT INTO alerts (alert_id, user_id, owner_user_id, symbol, root, action, entry_price, raw_data, status)
    SELECT 'a-' || g, 'u-0', 'u-0', 'NQ1!', 'NQ', 'LONG', 21000.25 + g, jsonb_build_object('n', g), 'placed' FROM generate_series(1, 7) g
    UNION ALL
    SELECT 'b-' || g, 'u-1', 'u-0', 'ES1!', 'ES', 'SHORT', 5000, '{}'::jsonb, 'placed' FROM generate_series(1, 2) g`.execute(db)
  await sql`INSERT INTO alerts (alert_id, user_id, owner_user_id, raw_data, is_test, status) VALUES (${randomUUID()}, NULL, 'u-0', '{}', true, 'test')`.execute(db)
  await db
    .insertInto('trades')
    .values([
      { user_id: 'u-0', symbol: 'NQZ6', root: 'NQ', side: 'LONG', quantity: '2', entry_price: '21000.25' },
      { user_id: 'u-0', symbol: 'ESZ6', root: 'ES', side: 'SHORT', quantity: '1', entry_price: '5000', status: 'closed', exit_price: '4990', result: 'TP', pnl: '500.00', closed_at: new Date(), close_alert_id: 'r-1' },
      { user_id: 'u-0', symbol: 'CLZ6', root: 'CL', side: 'LONG', quantity: '1', entry_price: '70.1' },
      { user_id: 'u-1', symbol: 'NQZ6', root: 'NQ', side: 'LONG', quantity: '1', entry_price: '21000' },
    ])
    .execute()
  return built
}

t.test('GET /api/alerts and /api/trades refuse a call without the gateway identity', async (t) => {
  const { app } = await setup(t)
  for (const url of ['/api/alerts', '/api/trades']) {
    const response = await app.inject({ method: 'GET', url })
    t.equal(response.statusCode, 401)
    t.same(response.json(), { success: false, error: 'Authentication required' })
    const forged = await app.inject({ method: 'GET', url, headers: { 'x-signals-identity': 'eyJ1c2VySWQiOiJ1LTAifQ.forged' } })
    t.equal(forged.statusCode, 401)
  }
})

t.test("GET /api/alerts pages through the caller's own live records, newest first", async (t) => {
  const { app, config } = await setup(t)
  const headers = identityHeaders(config, 'u-0')
  const first = await app.inject({ method: 'GET', url: '/api/alerts?limit=3', headers })
  t.equal(first.statusCode, 200)
  const page1 = first.json()
  t.same(page1.alerts.map((a: { alertId: string }) => a.alertId), ['a-7', 'a-6', 'a-5'])
  t.match(page1.alerts[0], { symbol: 'NQ1!', root: 'NQ', action: 'LONG', entryPrice: '21007.25000000', rawData: { n: 7 }, status: 'placed' })
  t.type(page1.nextCursor, 'string')
  const page2 = (await app.inject({ method: 'GET', url: `/api/alerts?limit=3&before=${page1.nextCursor}`, headers })).json()
  t.same(page2.alerts.map((a: { alertId: string }) => a.alertId), ['a-4', 'a-3', 'a-2'])
  const page3 = (await app.inject({ method: 'GET', url: `/api/alerts?limit=3&before=${page2.nextCursor}`, headers })).json()
  t.same(page3.alerts.map((a: { alertId: string }) => a.alertId), ['a-1'])
  t.equal(page3.nextCursor, null, 'the last page says so')
  const other = (await app.inject({ method: 'GET', url: '/api/alerts', headers: identityHeaders(config, 'u-1') })).json()
  t.same(other.alerts.map((a: { alertId: string }) => a.alertId), ['b-2', 'b-1'], "another user's records stay theirs; the test alert is nobody's")
})

t.test("GET /api/trades lists the caller's own trades, newest first, filtered by status", async (t) => {
  const { app, config } = await setup(t)
  const headers = identityHeaders(config, 'u-0')
  const all = (await app.inject({ method: 'GET', url: '/api/trades', headers })).json()
  t.same(all.trades.map((tr: { symbol: string }) => tr.symbol), ['CLZ6', 'ESZ6', 'NQZ6'])
  t.equal(all.nextCursor, null)
  const open = (await app.inject({ method: 'GET', url: '/api/trades?status=open', headers })).json()
  t.same(open.trades.map((tr: { symbol: string }) => tr.symbol), ['CLZ6', 'NQZ6'])
  t.match(open.trades[1], { side: 'LONG', quantity: '2.0000', entryPrice: '21000.25000000', exitPrice: null, pnl: null, result: null, closedAt: null })
  const closed = (await app.inject({ method: 'GET', url: '/api/trades?status=closed', headers })).json()
  t.match(closed.trades, [{ symbol: 'ESZ6', status: 'closed', result: 'TP', pnl: '500.00', exitPrice: '4990.00000000', closeAlertId: 'r-1' }])
  t.type(closed.trades[0].closedAt, 'string')
  const paged = (await app.inject({ method: 'GET', url: '/api/trades?limit=2', headers })).json()
  t.equal(paged.trades.length, 2)
  const rest = (await app.inject({ method: 'GET', url: `/api/trades?limit=2&before=${paged.nextCursor}`, headers })).json()
  t.same(rest.trades.map((tr: { symbol: string }) => tr.symbol), ['NQZ6'])
})

t.test('bad paging or filter parameters get a 400 saying what was wrong', async (t) => {
  const { app, config } = await setup(t)
  const headers = identityHeaders(config, 'u-0')
  for (const url of ['/api/trades?status=pending', '/api/alerts?limit=0', '/api/alerts?limit=101', '/api/alerts?limit=ten', '/api/trades?before=-1', '/api/alerts?before=abc', '/api/alerts?before=99999999999999999999', '/api/alerts?sort=asc']) {
    const response = await app.inject({ method: 'GET', url, headers })
    t.equal(response.statusCode, 400, url)
    t.match(response.json(), { success: false, error: /^Invalid querystring: / }, url)
  }
})

t.test('GET /openapi.json documents both routes', async (t) => {
  const { app } = await build(t, {}, { consumers: false })
  const response = await app.inject({ method: 'GET', url: '/openapi.json' })
  t.equal(response.statusCode, 200)
  const document = response.json()
  t.ok(document.paths['/api/alerts']?.get, 'alerts documented')
  t.ok(document.paths['/api/trades']?.get, 'trades documented')
  t.notOk(document.paths['/health'], 'internal routes are not')
})

t.test("a recipient's rawData is the normalized alert; the raw body only for its sender and administrators, secrets redacted (issue 22 item 6)", async (t) => {
  const { app, config, db } = await setup(t)
  await seedUsers(db, 1, { prefix: 'admin' })
  const raw = { action: 'buy', symbol: 'MNQ1!', user_id: 'u-0', secret: 'open-webhook-secret', nested: [{ apiKey: 'nested-key', note: 'kept' }], entryPrice: 21000.5 }
  await sql`
    INSERT INTO alerts (alert_id, user_id, owner_user_id, symbol, root, action, entry_price, sl, tp, indicator, raw_data, status, alert_quantity)
    SELECT 'fan-1', r.user_id, 'u-0', 'MNQ1!', 'MNQ', 'LONG', 21000.5, 20990, 21010, 'Breakout', ${JSON.stringify(raw)}::jsonb, 'placed', 2
    FROM (VALUES ('u-0'), ('u-1'), ('admin-0')) r(user_id)`.execute(db)
  await sql`INSERT INTO alerts (alert_id, user_id, owner_user_id, raw_data, status) VALUES ('fan-2', 'u-1', 'u-0', '{"_raw":true,"raw":"Action: Buy token=abc"}'::jsonb, 'placed')`.execute(db)
  const fanOf = async (userId: string, role: 'trader' | 'admin' = 'trader') => {
    const headers = role === 'admin' ? { [IDENTITY_HEADER]: unsignedIdentity({ userId, email: `${userId}@example.com`, role, approved: true }) } : identityHeaders(config, userId)
    const response = await app.inject({ method: 'GET', url: '/api/alerts', headers })
    t.equal(response.statusCode, 200)
    const alerts = response.json().alerts as { alertId: string; rawData: unknown }[]
    t.notMatch(JSON.stringify(alerts), /open-webhook-secret|nested-key|token=abc/, `${userId} never sees a secret`)
    return alerts
  }
  const redactedRaw = { ...raw, secret: '[redacted]', nested: [{ apiKey: '[redacted]', note: 'kept' }] }
  t.same((await fanOf('u-0')).find((a) => a.alertId === 'fan-1')?.rawData, redactedRaw, 'the sender sees its raw body, redacted')
  t.same((await fanOf('admin-0', 'admin')).find((a) => a.alertId === 'fan-1')?.rawData, redactedRaw, 'an administrator sees the raw body, redacted')
  const recipient = await fanOf('u-1')
  t.same(recipient.find((a) => a.alertId === 'fan-1')?.rawData, {
    _normalized: true, action: 'LONG', symbol: 'MNQ1!', entryPrice: '21000.50000000', sl: '20990.00000000', tp: '21010.00000000', indicator: 'Breakout', leverage: null, quantity: '2.0000',
  }, 'a recipient sees the normalized alert, not the sender\'s body')
  t.match(recipient.find((a) => a.alertId === 'fan-2')?.rawData, { _normalized: true, _raw: true }, 'a parse failure keeps its _raw flag')
  t.notOk(JSON.stringify(recipient).includes('"user_id"'), "the sender's user_id is not shown to recipients")
})
