import t from 'tap'
import { Buckets, FeedLeaseV1, contract } from '@signals/contracts'
import { openBucket } from '@signals/bus'
import { build, buildInstance, eventually, publishAlert, type App } from '../helper.ts'
import { liveTrader, mnqEntry } from '../trading-helper.ts'
import { command, statusOf } from './feed-helper.ts'
import { OWNERSHIP, connectorProcess, eachConnectedOnce, paperBrokerFor, shardsOf } from './ownership-helper.ts'
import { shardKey, shardOf } from '../../src/feeds/ownership/shard.ts'

const USERS = 12
const userIds = Array.from({ length: USERS }, (_, i) => `owned-${i}`)
const usernames = userIds.map((_, i) => `trader${i}`)
const leases = contract(FeedLeaseV1)

async function ownerOf(app: App, userId: string): Promise<string | null> {
  const bucket = await openBucket(app.bus, Buckets.feedOwners, { ttlMs: Number(OWNERSHIP.FEED_LEASE_TTL_MS) })
  const entry = await bucket.get(shardKey(shardOf(userId, Number(OWNERSHIP.FEED_SHARDS))))
  if (!entry || entry.operation !== 'PUT') return null
  const lease = entry.json()
  return leases.check(lease) ? lease.instanceId : null
}

t.test('the users spread over every shard (the precondition of the sharing tests)', async (t) => {
  t.equal(shardsOf(userIds, Number(OWNERSHIP.FEED_SHARDS)).size, Number(OWNERSHIP.FEED_SHARDS))
})

t.test('two instances share the live users, commands reach the owner, and a graceful close hands everything over', async (t) => {
  const broker = await paperBrokerFor(t, USERS)
  const overrides = { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl, ...OWNERSHIP }
  const first = await build(t, overrides, { feeds: true, consumers: false })
  for (const [i, userId] of userIds.entries()) await liveTrader(first.db, first.config, { userId, username: `trader${i}` })
  for (const userId of userIds) await command(first.app, userId, 'start')
  await eventually(() => eachConnectedOnce(broker, usernames), 60_000)

  const second = await buildInstance(t, first.config, { feeds: true, consumers: false })
  await eventually(() => second.feeds.connectedUsers().length > 0 && eachConnectedOnce(broker, usernames), 60_000)
  await eventually(() => first.app.feeds.connectedUsers().length + second.feeds.connectedUsers().length === USERS, 60_000)
  const held = [first.app.feeds.connectedUsers(), second.feeds.connectedUsers()]
  t.ok(held[0]!.length > 0 && held[1]!.length > 0, `both instances hold users (${held[0]!.length} and ${held[1]!.length})`)
  t.equal(new Set(held.flat()).size, USERS, 'no user held by both')
  t.same(first.app.feedLeases.heldShards().length, 2, 'the first holds half the shards')
  t.same(second.feedLeases.heldShards().length, 2, 'the second holds the other half')
  for (const userId of userIds) {
    const holder = held[0]!.includes(userId) ? first.app : second
    t.equal(await ownerOf(first.app, userId), holder.feedOwners.instanceId, `${userId}: the lease names the instance holding the feed`)
  }
  t.match(await statusOf(first.app, held[1]![0]!), { state: 'connected', instanceId: second.feedOwners.instanceId })

  // Whichever instance consumes a command, the owner acts on it: every user stops, then starts again.
  for (const userId of userIds) await command(first.app, userId, 'stop')
  await eventually(() => broker.sessions().length === 0, 60_000)
  // The broker sees a socket close as the owner closes it, a moment before the owner writes `stopped`.
  const stopped = async () => (await Promise.all(userIds.map((userId) => statusOf(first.app, userId)))).every((status) => status?.state === 'stopped')
  await eventually(stopped, 60_000)
  for (const userId of userIds) t.equal((await statusOf(first.app, userId))?.state, 'stopped', `${userId} stopped`)
  for (const userId of userIds) await command(second, userId, 'start')
  // The broker counts a session once it is authorized, the connector once its snapshot is read: wait for both.
  const connectedAtOwners = () => first.app.feeds.connectedUsers().length + second.feeds.connectedUsers().length
  await eventually(() => eachConnectedOnce(broker, usernames) && connectedAtOwners() === USERS, 60_000)
  t.equal(connectedAtOwners(), USERS, 'every user started by its owner')

  await second.close()
  await eventually(() => first.app.feeds.connectedUsers().length === USERS && eachConnectedOnce(broker, usernames), 60_000)
  t.equal(first.app.feedLeases.heldShards().length, Number(OWNERSHIP.FEED_SHARDS), 'the remaining instance holds every shard')
  t.pass('after a graceful close the other instance holds every user, each connected once')
})

t.test('a killed instance\'s users are taken over; an entry sent right after the kill is placed exactly once', async (t) => {
  const broker = await paperBrokerFor(t, USERS)
  broker.setPrice('MNQZ6', '21000')
  const overrides = { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl, ENTRY_SESSION_WAIT_MS: '60000', CONSUMER_ACK_WAIT_MS: '2000', ...OWNERSHIP }
  // Seeded before any instance with feeds runs: the child process takes every shard first.
  const seed = await build(t, overrides, { feeds: false, consumers: false })
  for (const [i, userId] of userIds.entries()) await liveTrader(seed.db, seed.config, { userId, username: `trader${i}` })
  const killed = await connectorProcess(t, seed.config)
  await eventually(() => eachConnectedOnce(broker, usernames), 60_000)

  const survivor = await buildInstance(t, seed.config, { feeds: true })
  await eventually(() => survivor.feedLeases.heldShards().length === Number(OWNERSHIP.FEED_SHARDS) / 2 && eachConnectedOnce(broker, usernames), 60_000)
  const victim = userIds.find((userId) => !survivor.feeds.connectedUsers().includes(userId))
  t.ok(victim, 'some user is held by the child process')

  await killed.kill()
  const killedAt = Date.now()
  const alert = mnqEntry({ entryPrice: 21000, sl: 20950, tp: 21100 })
  await publishAlert(survivor, alert)
  await eventually(() => survivor.feeds.connectedUsers().length === USERS && eachConnectedOnce(broker, usernames), 60_000)
  t.comment(`take-over after the kill: ${Date.now() - killedAt} ms (lease TTL ${OWNERSHIP.FEED_LEASE_TTL_MS} ms)`)

  await eventually(async () => {
    const rows = await survivor.db.selectFrom('alerts').select('status').where('alert_id', '=', alert.alertId).execute()
    return rows.length === USERS && rows.every((row) => row.status === 'placed')
  }, 60_000)
  const records = await survivor.db.selectFrom('alerts').select(['id', 'user_id', 'status']).where('alert_id', '=', alert.alertId).execute()
  t.equal(records.length, USERS, 'one record per live user')
  for (const record of records) {
    const entries = broker.orders().filter((order) => order.clOrdId === `sig-${record.id}`)
    t.equal(entries.length, 1, `${record.user_id}: one entry order at the broker, record ${record.status}`)
  }
  t.equal(await ownerOf(survivor, victim!), survivor.feedOwners.instanceId, 'the victim\'s shard is now the survivor\'s')
})

t.test('the status of a connected feed says when the broker was last heard from, and which instance holds it', async (t) => {
  const broker = await paperBrokerFor(t, 1)
  const { app, db, config } = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl, ...OWNERSHIP }, { feeds: true, consumers: false })
  await liveTrader(db, config, { userId: 'owned-0', username: 'trader0' })
  await command(app, 'owned-0', 'start')
  await eventually(async () => typeof (await statusOf(app, 'owned-0'))?.lastHeardAt === 'string')
  const first = await statusOf(app, 'owned-0')
  t.match(first, { state: 'connected', instanceId: app.feedOwners.instanceId })
  await eventually(async () => ((await statusOf(app, 'owned-0'))?.lastHeardAt ?? '') > (first?.lastHeardAt ?? ''))
  const later = await statusOf(app, 'owned-0')
  t.ok(Date.parse(later!.lastHeardAt!) > Date.parse(first!.lastHeardAt!), 'lastHeardAt advances with the broker\'s heartbeats')
  t.equal(later!.updatedAt, first!.updatedAt, 'updatedAt stays the time the feed connected')
})
