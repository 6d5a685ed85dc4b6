import t from 'tap'
import { startPaperBroker, type PaperBroker } from '@signals/dev-paper-broker'
import { eventually, publishAlert } from '../../helper.ts'
import { PASSWORD, saveCredentials } from '../../feeds/feed-helper.ts'
import { connect, liveTrader, mnqEntry, tradingApp } from '../../trading-helper.ts'

// Broker ids are unique per broker, environment and account, never across them: the paper broker and
// Tradovate, Tradovate demo and live, each count their own ids. Three brokers with the same history give
// the same entry order id (and account id) to three traders, who must each get their trade.

const TRADERS = [
  { userId: 'u-paper', broker: 'paper', environment: 'demo' },
  { userId: 'u-demo', broker: 'tradovate', environment: 'demo' },
  { userId: 'u-live', broker: 'tradovate', environment: 'live' },
] as const

t.test('the same order id at two brokers and two environments: each trader gets their own trade', async (t) => {
  const brokers: PaperBroker[] = []
  for (let i = 0; i < 3; i += 1) {
    const broker = await startPaperBroker({ accounts: [{ name: 'trader0', password: PASSWORD, userId: 100, accountId: 9000, accountName: 'DEMO9000' }], heartbeatMs: 200 })
    t.teardown(() => broker.close())
    broker.setPrice('MNQZ6', '21000')
    brokers.push(broker)
  }
  const [paper, demo, live] = brokers as [PaperBroker, PaperBroker, PaperBroker]
  const { app, db, config } = await tradingApp(t, paper, {
    TRADOVATE_DEMO_URL: demo.restUrl,
    TRADOVATE_DEMO_WS_URL: demo.wsUrl,
    TRADOVATE_DEMO_MD_URL: demo.wsUrl,
    TRADOVATE_LIVE_URL: live.restUrl,
    TRADOVATE_LIVE_WS_URL: live.wsUrl,
    TRADOVATE_LIVE_MD_URL: live.wsUrl,
  })
  for (const trader of TRADERS) {
    await liveTrader(db, config, { userId: trader.userId, username: 'trader0' })
    await saveCredentials(db, config, trader.userId, 'trader0', PASSWORD, { broker: trader.broker, environment: trader.environment })
    await connect(app, trader.userId)
  }

  const alert = mnqEntry()
  await publishAlert(app, alert)
  await eventually(() => brokers.every((broker) => broker.fills().length === 1), 15_000)
  const entryIds = brokers.map((broker) => broker.orders().find((order) => order.clOrdId?.match(/^sig-\d+$/))?.id)
  t.equal(new Set(entryIds).size, 1, `the three brokers numbered the entry alike (${entryIds.join(', ')})`)

  const trades = () => db.selectFrom('trades').select(['user_id', 'broker', 'environment', 'broker_account_id', 'entry_order_id', 'status']).orderBy('user_id').execute()
  const count = async () => Number((await db.selectFrom('trades').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  await eventually(async () => (await count()) === 3, 15_000)
  t.same(await trades(), [
    { user_id: 'u-demo', broker: 'tradovate', environment: 'demo', broker_account_id: 9000, entry_order_id: entryIds[0], status: 'open' },
    { user_id: 'u-live', broker: 'tradovate', environment: 'live', broker_account_id: 9000, entry_order_id: entryIds[0], status: 'open' },
    { user_id: 'u-paper', broker: 'paper', environment: 'demo', broker_account_id: 9000, entry_order_id: entryIds[0], status: 'open' },
  ], 'one trade each, keyed by broker, environment and account')
  t.same(await db.selectFrom('broker_events_set_aside').selectAll().execute(), [], 'nothing was set aside')
})
