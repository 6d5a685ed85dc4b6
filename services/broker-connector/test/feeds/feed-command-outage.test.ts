import t from 'tap'
import { loadConfig } from '@signals/config'
import { waitFor } from '@signals/test-support'
import { buildApp } from '../../src/app.ts'
import { ConfigSchema } from '../../src/config.ts'
import { TradovateAdapter } from '../../src/feeds/broker/tradovate/adapter.ts'
import { jsonLogStream, privatePostgres, seedUsers } from '../helper.ts'
import { command, paperBroker, saveCredentials, seenState } from './feed-helper.ts'

/** Deliveries past which the old feed-command consumer (bus defaults: 8) dead-lettered a command. */
const OLD_LIMIT = 8

t.test('a feeds.start delivered while Postgres refuses longer than the delivery budget is carried out once it is back', async (t) => {
  const { postgres, url, namespace } = await privatePostgres(t)
  const broker = await paperBroker(t)

  const deliveries: number[] = []
  const logStream = jsonLogStream<{ msg: string; userId?: string; deliveryCount?: number }>((entry) => {
    if (entry.msg === 'feed command' && entry.userId === 'live-0' && entry.deliveryCount !== undefined) deliveries.push(entry.deliveryCount)
  })
  const config = loadConfig(ConfigSchema, {
    ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'test', DATABASE_URL: url, BUS_NAMESPACE: namespace,
    PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl, CONSUMER_MAX_ATTEMPTS: '3', CONSUMER_BACKOFF_MAX_MS: '1000',
  })
  const adapter = new TradovateAdapter({ heartbeatMs: 200, retry: { rateLimitWaitMs: 2_000, serverErrorWaitMs: 2_000, maxAutoWaitMs: 0 } })
  const app = await buildApp(config, { loggerStream: logStream, consumers: false, feeds: true, brokerAdapters: { paper: adapter } })
  t.teardown(() => app.close())
  await app.ready()
  await seedUsers(app.db, 1, { prefix: 'live' })
  await saveCredentials(app.db, config, 'live-0', 'trader0')
  // The shard leases are in NATS: wait until this instance holds the user, so the command is run here.
  await waitFor(() => app.feedLeases.holds(app.feedOwners.owners.shardOf('live-0')) || undefined, { timeoutMs: 15_000 })

  await postgres.stop()
  await command(app, 'live-0', 'start')
  // Past the configured budget (3) and the bus default the feed consumer used to run on (8).
  const deadLetters = async () => (await app.bus.jsm.streams.info(app.bus.stream('DEAD_LETTERS'))).state.messages
  // Whichever comes first: a delivery past the old limit, or the command dead-lettered (the old behaviour).
  await waitFor(async () => deliveries.some((count) => count > OLD_LIMIT) || (await deadLetters()) > 0 || undefined, { timeoutMs: 60_000, intervalMs: 100 })
  t.equal(await deadLetters(), 0, `nothing was dead-lettered during the outage (deliveries: ${deliveries.join(', ')})`)

  await postgres.start()
  const connected = await seenState(app, 'live-0', 'connected', 60_000)
  t.match(connected.detail, /DEMO9000/, 'the feed opened once Postgres was back')
  t.same(broker.sessions(), ['trader0'])
})
