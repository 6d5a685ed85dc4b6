import t from 'tap'
import { connectBus } from '@signals/bus'
import { loadConfig } from '@signals/config'
import { Buckets } from '@signals/contracts'
import { createDb, sql, type Database, type Kysely } from '@signals/db'
import { startPaperBroker } from '@signals/dev-paper-broker'
import { createTestDatabase, eventually, freePort, startPrivateNatsCluster, startRoundRobinProxy, testNamespace } from '@signals/test-support'
import { ConfigSchema as ConnectorConfig } from '../../services/broker-connector/src/config.ts'
import { PASSWORD, saveCredentials } from '../../services/broker-connector/test/feeds/feed-helper.ts'
import { roundAlerts, sendUntilAccepted, ServiceProcess, type SendTally } from './cluster-harness.ts'

// Three NATS nodes, six service processes and a paper broker on a loaded machine: more than the default.
t.setTimeout(600_000)

const USERS = 4
const ROUNDS = 10

/** Live traders trader0..n-1 with orders placed automatically and paper credentials. */
async function seedLiveTraders(db: Kysely<Database>, env: Record<string, string>): Promise<string[]> {
  const config = loadConfig(ConnectorConfig, { ...process.env, ...env })
  const users = Array.from({ length: USERS }, (_, i) => `trader-${i}`)
  for (const [i, userId] of users.entries()) {
    await sql`INSERT INTO users (user_id, email, approved) VALUES (${userId}, ${`${userId}@example.com`}, true)`.execute(db)
    // The spec's live_trading setting: the primary account's switches (made with the user).
    await sql`UPDATE broker_accounts SET live_trading = true, auto_place = true, switches_updated_at = now() WHERE user_id = ${userId} AND is_primary`.execute(db)
    await saveCredentials(db, config, userId, `trader${i}`)
  }
  return users
}

/** The entry's records once every live user's is settled and each placed one has its trade open. */
async function settledRound(db: Kysely<Database>, entryId: string) {
  let records: { id: string; status: string; reason: string | null; trades: number }[] = []
  await eventually(
    async () => {
      const result = await sql<{ id: string; status: string; reason: string | null; trades: number }>`
        SELECT a.id::text, a.status, a.reason, (SELECT count(*)::int FROM trades tr WHERE tr.alert_record_id = a.id) AS trades
        FROM alerts a WHERE a.alert_id = ${entryId} AND a.is_test = false`.execute(db)
      records = result.rows
      return records.length >= USERS && records.every((row) => (row.status === 'placed' ? row.trades > 0 : row.status !== 'received' && row.status !== 'placing'))
    },
    { timeoutMs: 120_000, intervalMs: 200, what: `the records and trades of entry ${entryId}` },
  )
  return records
}

t.test('three NATS nodes (R3), two ingest behind one address, two connectors: a node killed and restarted, a connector killed for good: every accepted alert recorded once and every trade opened and closed once', async (t) => {
  const cluster = await startPrivateNatsCluster(3)
  t.teardown(() => cluster.destroy())
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const db = createDb({ connectionString: database.url })
  t.teardown(() => db.destroy())
  const broker = await startPaperBroker({
    accounts: Array.from({ length: USERS }, (_, i) => ({ name: `trader${i}`, password: PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `DEMO${9000 + i}` })),
    heartbeatMs: 200,
  })
  t.teardown(() => broker.close())
  broker.setPrice('MNQZ6', '21000')

  const shared = { DATABASE_URL: database.url, BUS_NAMESPACE: testNamespace(), BUS_REPLICAS: '3', NATS_URL: cluster.urls, LOG_LEVEL: 'error', NODE_ENV: 'test' }
  // The survivor takes the killed connector's users once their leases lapse, then opens their sessions: on a
  // loaded machine that took over 10 s (a record then failed "no connected broker session"), so 30 s. A NATS
  // node's crash can make both connectors' leases lapse (renewals wait for the R3 bucket's new leader) and
  // their sessions reopen once it answers: on the clean-clone run of dabd445, with four other agents' test
  // runs beside it (load 8-10), a round-4 record waited 40 s for its session. So 60 s, the entry's age limit
  // (ENTRY_MAX_AGE_MS): the record still fails with its reason if no session comes by then.
  const connectorEnv = { ...shared, PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl, CONSUMER_ACK_WAIT_MS: '2000', ENTRY_SESSION_WAIT_MS: '60000', FEED_LEASE_TTL_MS: '3000' }
  const users = await seedLiveTraders(db, connectorEnv)

  const ingests = [new ServiceProcess('ingest', await freePort(), { ...shared, INGEST_RATE_LIMIT_PER_MINUTE: '0' }), new ServiceProcess('ingest', await freePort(), { ...shared, INGEST_RATE_LIMIT_PER_MINUTE: '0' })]
  const connectors = [0, 1].map(async () => new ServiceProcess('broker-connector', await freePort(), connectorEnv))
  const services = [...ingests, ...(await Promise.all(connectors))]
  t.teardown(() => Promise.all(services.map((service) => service.kill())))
  for (const service of services) await service.start()
  await eventually(() => new Set(broker.sessions()).size === USERS, { timeoutMs: 60_000, intervalMs: 200, what: 'every live user\'s broker session' })
  const proxy = await startRoundRobinProxy(ingests.map((ingest) => ingest.url))
  t.teardown(() => proxy.close())
  const webhook = `${proxy.url}/webhook/alert`

  const tally: SendTally = { retried: 0 }
  const rounds: ReturnType<typeof roundAlerts>[] = []
  const sending = (async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const round = roundAlerts()
      await sendUntilAccepted(webhook, round.entry, tally)
      rounds.push(round)
      // A result closes whatever MNQ trade is open: sent once this entry's trades are open, as a real exit comes after the fill.
      await settledRound(db, round.entryId)
      await sendUntilAccepted(webhook, round.result, tally)
      await eventually(async () => {
        const open = await sql<{ n: number }>`SELECT count(*)::int AS n FROM trades WHERE status = 'open'`.execute(db)
        return open.rows[0]?.n === 0
      }, { timeoutMs: 120_000, intervalMs: 200, what: `the trades of round ${i} to close` })
    }
  })()

  // During the stream: one NATS node crashes and comes back, then one connector crashes for good.
  await eventually(() => rounds.length >= 3, { timeoutMs: 300_000, intervalMs: 100 })
  // The connectors renew their shard leases in an R3 bucket every few hundred ms: its stream's last
  // sequence shows the cluster taking writes.
  const watcher = await connectBus({ url: cluster.urls, name: 'cluster-test-watch', namespace: shared.BUS_NAMESPACE, replicas: 3, ensureTopology: false })
  t.teardown(() => watcher.close())
  const leaseWrites = async () => (await watcher.jsm.streams.info(`KV_${watcher.stream(Buckets.feedOwners)}`).catch(() => null))?.state.last_seq ?? 0
  const node = cluster.nodes[0]!
  const writesBeforeTheCrash = await leaseWrites()
  await node.kill()
  // Down until the cluster has gone on without it (a leader it held re-elected): lease renewals committed by
  // the two nodes left.
  await eventually(async () => (await leaseWrites()) >= writesBeforeTheCrash + 3, { timeoutMs: 60_000, intervalMs: 200, what: 'lease renewals committed while a node is down' })
  await node.start()
  await eventually(() => rounds.length >= 6, { timeoutMs: 300_000, intervalMs: 100 })
  // The killed connector stays down: the other one takes its users' shards over when their leases expire,
  // reconciles any record it left placing, and settles the rest of the stream alone.
  const victim = services[2]!
  await victim.kill()
  await eventually(() => new Set(broker.sessions()).size === USERS, { timeoutMs: 60_000, intervalMs: 200, what: 'the surviving connector holding every live user' })
  await sending
  t.equal(rounds.length, ROUNDS, 'every round sent and accepted')
  t.comment(`${tally.retried} webhook(s) answered other than 200 and were sent again`)

  // The restarted node may still be catching up: the JetStream API answers once the meta leader is settled.
  await cluster.waitForMetaLeader()
  let connected: Awaited<ReturnType<typeof connectBus>> | null = null
  await eventually(async () => {
    connected = await connectBus({ url: cluster.urls, name: 'cluster-test', namespace: shared.BUS_NAMESPACE, replicas: 3, ensureTopology: false }).catch(() => null)
    return connected !== null
  }, { timeoutMs: 60_000, intervalMs: 500, what: 'an observer connection to the cluster' })
  const observer = connected!
  t.teardown(() => observer.close())
  const replicasOf = async (stream: string) => {
    let replicas = 0
    await eventually(async () => {
      replicas = (await observer.jsm.streams.info(stream).catch(() => null))?.config.num_replicas ?? 0
      return replicas > 0
    }, { timeoutMs: 60_000, intervalMs: 500, what: `the stream info of ${stream}` })
    return replicas
  }
  t.equal(await replicasOf(observer.stream('ALERTS')), 3, 'the services made the streams R3')
  t.equal(await replicasOf(`KV_${observer.stream(Buckets.feedStatus)}`), 3, 'and the feed-status bucket')

  const entryIds = rounds.map((round) => round.entryId)
  const perPair = await sql<{ alert_id: string; user_id: string; n: number }>`
    SELECT alert_id, user_id, count(*)::int AS n FROM alerts WHERE alert_id = ANY(${entryIds}::text[]) GROUP BY alert_id, user_id`.execute(db)
  t.equal(perPair.rows.length, ROUNDS * USERS, 'every accepted entry has a record for every live user')
  t.ok(perPair.rows.every((row) => row.n === 1), 'no record twice')
  t.same(new Set(perPair.rows.map((row) => row.user_id)), new Set(users))

  const records = await db.selectFrom('alerts').select(['id', 'alert_id', 'status', 'reason', 'refusal_code']).where('alert_id', 'in', entryIds).execute()
  const placed = records.filter((record) => record.status === 'placed')
  t.ok(placed.length > 0, `orders were placed (${placed.length} of ${records.length} records)`)
  // A connector killed after marking a send and before its order reached the broker leaves a record whose
  // outcome nobody can know: it fails "outcome unknown" after the grace, never sent again (issue 20).
  const unknown = records.filter((record) => record.status === 'failed' && record.refusal_code === 'outcome_unknown' && record.reason?.startsWith('outcome unknown: check the broker'))
  // Refused with its reason is settled too: on the loaded machine a connector refused first-round entries for
  // want of a market price, its market-data socket closing as it asked (a market entry is sized from the
  // broker's price, never the alert's: refusing is right there).
  const unsettled = records.filter((record) => !(record.status === 'placed' || ((record.status === 'not_placed' || record.status === 'refused') && record.reason) || unknown.includes(record)))
  t.same(unsettled, [], 'every record settled; each not placed says why')
  const orders = broker.orders()
  t.ok(unknown.every((record) => !orders.some((order) => order.clOrdId === `sig-${record.id}`)), 'a record failed "outcome unknown" has no order at the broker')
  if (unknown.length > 0) t.comment(`failed "outcome unknown" (sends marked by the killed connector): ${unknown.map((record) => `${record.id}: ${record.reason}`).join(' | ')}`)
  t.ok(records.every((record) => orders.filter((order) => order.clOrdId === `sig-${record.id}`).length <= 1), 'at most one entry order per record at the broker')
  t.ok(placed.every((record) => orders.filter((order) => order.clOrdId === `sig-${record.id}`).length === 1), 'exactly one for each placed record')

  const trades = await db.selectFrom('trades').select(['alert_record_id', 'status', 'close_alert_id']).execute()
  const closerOf = new Map<string, string>(rounds.map((round) => [round.entryId, round.resultId]))
  const entryOf = new Map(records.map((record) => [String(record.id), record.alert_id]))
  t.equal(trades.length, placed.length, 'one trade per placed record')
  t.equal(new Set(trades.map((trade) => String(trade.alert_record_id))).size, trades.length, 'no record opened two trades')
  t.ok(
    trades.every((trade) => trade.status === 'closed' && trade.close_alert_id === closerOf.get(entryOf.get(String(trade.alert_record_id)) ?? '')),
    'every trade closed, once, by its own round\'s result',
  )
})
