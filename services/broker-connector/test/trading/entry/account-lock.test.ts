import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { sql } from '@signals/db'
import { publishAlert } from '../../helper.ts'
import { brokerControl, entryOrders } from '../../broker-controls.ts'
import { connect, liveTrader, mnqEntry, paperBroker, recordOf, settledRecord, tradingApp } from '../../trading-helper.ts'

// Issue 20, point 4: entries of one account are decided one at a time (the account state read under the
// account's lock, held until the send is marked), so concurrent duplicates cannot both pass the gates.

async function slowContractLookup(t: Test, overrides: Record<string, string> = {}) {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  // The contract lookup answers slowly, so two decisions are in progress at the same time.
  await brokerControl(broker, { endpoint: 'contract/find', kind: 'delay', ms: 500 })
  const { app, db, config } = await tradingApp(t, broker, overrides)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  return { broker, app, db }
}

t.test('two copies of one alert at the same instant (different alert ids) for one trader: one order, one refusal with its reason', async (t) => {
  const { broker, app, db } = await slowContractLookup(t)
  const first = mnqEntry()
  const copy = { ...first, alertId: randomUUID() }
  await Promise.all([publishAlert(app, first), publishAlert(app, copy)])
  const records = [await settledRecord(db, first.alertId), await settledRecord(db, copy.alertId)]
  const placed = records.filter((record) => record.status === 'placed')
  const refused = records.filter((record) => record.status === 'refused')
  t.equal(placed.length, 1, 'one placed')
  t.equal(refused.length, 1, 'one refused')
  t.match(refused[0], { refusal_code: 'pyramid_limit', reason: 'A LONG MNQ trade is already open and the fixed_fraction mode does not add to positions.' })
  t.equal(broker.orders().filter((order) => /^sig-\d+$/.test(order.clOrdId ?? '')).length, 1, 'one entry order at the broker')
  t.equal(entryOrders(broker, `sig-${placed[0]?.id}`).length, 1)
})

for (const [batch, overrides] of [['in one batch', {}], ['in two slices (ENTRY_HANDOFF_SLICE 1)', { ENTRY_HANDOFF_SLICE: '1' }]] as const) {
t.test(`two records of one trader settled ${batch} are decided in order: the first placed, the second refused`, async (t) => {
  const { broker, app, db } = await slowContractLookup(t, overrides)
  const alerts = [mnqEntry(), mnqEntry()]
  const ids: number[] = []
  for (const alert of alerts) {
    // Records as a fan-out writes them; settled here together, as a sweep or a reconciliation does.
    const { rows } = await sql<{ id: number }>`
      INSERT INTO alerts (alert_id, user_id, owner_user_id, symbol, root, action, entry_price, sl, tp, raw_data, received_at, status)
      VALUES (${alert.alertId}, 'u-0', 'owner', 'MNQ1!', 'MNQ', 'LONG', 21000, 20950, 21100, '{}'::jsonb, now(), 'received')
      RETURNING id::int AS id`.execute(db)
    ids.push(rows[0]?.id as number)
  }
  // Handed over newest first: the decisions still go in id order (slices are cut from the ids sorted).
  await app.trading.settle(ids.map((id) => ({ id, userId: 'u-0' })).reverse())
  const [first, second] = await Promise.all(alerts.map((alert) => recordOf(db, alert.alertId)))
  t.match(first, { status: 'placed' })
  t.match(second, { status: 'refused', refusal_code: 'pyramid_limit' })
  t.equal(broker.orders().filter((order) => /^sig-\d+$/.test(order.clOrdId ?? '')).length, 1)
})
}

// The account's lock holder decides on its own connection: with every pool connection held (one by the
// holder, the rest by decisions waiting for the lock, and more asking the pool), a read it made on another
// pool connection (the broker/trades difference, a reversal's close) would wait until the pool timed it out.
t.test('more decisions of one account at once than the pool has connections: each decided in turn, none waits on the pool', async (t) => {
  const { broker, app, db } = await slowContractLookup(t)
  // More than the pool's connections (createDb's default is 10): every one is held while the first decides.
  const count = 12
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    const { rows } = await sql<{ id: number }>`
      INSERT INTO alerts (alert_id, user_id, owner_user_id, symbol, root, action, entry_price, sl, tp, raw_data, received_at, status)
      VALUES (${randomUUID()}, 'u-0', 'owner', 'MNQ1!', 'MNQ', 'LONG', 21000, 20950, 21100, '{}'::jsonb, now(), 'received')
      RETURNING id::int AS id`.execute(db)
    ids.push(rows[0]?.id as number)
  }
  const started = Date.now()
  const settled = await Promise.allSettled(ids.map((id) => app.trading.settle([{ id, userId: 'u-0' }])))
  const elapsedMs = Date.now() - started
  t.same(settled.filter((outcome) => outcome.status === 'rejected').map((outcome) => String(outcome.reason)), [], 'no decision failed')
  t.ok(elapsedMs < 5_000, `decided in ${elapsedMs} ms, within the pool's 5 s wait for a connection`)
  const { rows } = await sql<{ status: string; refusal_code: string | null }>`SELECT status, refusal_code FROM alerts WHERE id = ANY(${ids}::bigint[]) ORDER BY id`.execute(db)
  t.equal(rows.filter((row) => row.status === 'placed').length, 1, 'one placed')
  t.equal(rows.filter((row) => row.refusal_code === 'pyramid_limit').length, count - 1, 'the others refused: the first is open')
  t.equal(broker.orders().filter((order) => /^sig-\d+$/.test(order.clOrdId ?? '')).length, 1, 'one entry order at the broker')
})
