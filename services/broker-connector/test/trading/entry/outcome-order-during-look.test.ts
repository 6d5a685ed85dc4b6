import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { TradovateAdapter } from '../../../src/feeds/broker/tradovate/adapter.ts'
import { PASSWORD } from '../../feeds/feed-helper.ts'
import { seen } from '../../broker-controls.ts'
import { connect, liveTrader, paperBroker, tradingApp } from '../../trading-helper.ts'
import { eventually } from '../../helper.ts'

// Found by the order-path model with send faults (seed 1797525873 path "0"): an entry's order the broker
// carried out while the last look for it (past the grace) was on its way: the look's list did not have it, the
// record failed "outcome unknown", and the order's event came before the record was watched (or was skipped
// while the look held the record's lock). The record stayed failed with the order at the broker until the
// trader's next session open.
const SWEEP = { ENTRY_SWEEP_INTERVAL_MS: '200', ENTRY_OUTCOME_GRACE_MS: '5000', ENTRY_MAX_AGE_MS: '5000' }

async function placingRecord(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    INSERT INTO alerts (alert_id, user_id, owner_user_id, symbol, root, action, entry_price, sl, tp, raw_data, received_at, created_at, status,
                        send_attempts, sent_at, order_quantity, contract)
    VALUES (gen_random_uuid()::text, 'u-0', 'owner', 'MNQ1!', 'MNQ', 'LONG', 21000, 20950, 21100, '{}'::jsonb,
            now() - interval '1 minute', now() - interval '1 minute', 'placing', 1, now() - interval '1 minute', 5, 'MNQZ6')
    RETURNING id::int AS id`.execute(db)
  const id = rows[0]?.id as number
  await sql`UPDATE alerts SET order_tag = 'sig-' || id WHERE id = ${id}`.execute(db)
  return id
}

/** The order under `tag`, over a session of its own: the broker carrying out the record's send late. */
async function lateOrder(broker: PaperBroker, tag: string) {
  const adapter = new TradovateAdapter({ heartbeatMs: 200 })
  const session = await adapter.openSession(
    { restUrl: broker.restUrl, wsUrl: broker.wsUrl, mdUrl: broker.mdUrl },
    { username: 'trader0', password: PASSWORD, appId: 'signals', appVersion: '1.0', cid: 8, sec: 'app-secret-value', deviceId: null, account: 'DEMO9000' },
    { onLost: () => undefined, onEvent: () => undefined },
  )
  try {
    const contract = await session.findContract('MNQZ6')
    return await session.placeBracket({ tag, contract, action: 'Buy', quantity: 5, entryType: 'Market', entryPrice: null, stopPrice: '20950', targetPrice: '21100' })
  } finally {
    session.close()
  }
}

t.test('an order that lands while the last look for it is on its way: the record failed "outcome unknown" is corrected to placed', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, SWEEP)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  // The broker's order list is taken at once and answered 3 s later: the look is on its way meanwhile.
  broker.delay('order/list', 3_000)
  const lists = seen(broker, 'order/list')
  const id = await placingRecord(db)
  await eventually(() => seen(broker, 'order/list') > lists, 10_000)
  const sent = await lateOrder(broker, `sig-${id}`)
  broker.delay('order/list', 0)
  await eventually(async () => (await db.selectFrom('alerts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status !== 'placing', 15_000)
  await eventually(async () => (await db.selectFrom('alerts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'placed', 10_000).catch(() => undefined)
  t.match(await db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirstOrThrow(), { status: 'placed', entry_order_id: sent.entryOrderId, refusal_code: null })
  t.equal(seen(broker, 'order/placeOSO'), 1, 'nothing sent by the connector')
})
