// One connector holding 1,000 live broker connections (issue 14, point 6): the real broker-connector main in
// a process of its own (feeds on, default Tradovate heartbeats: the client's `[]` every 2.5 s, the paper
// broker's `h` frames), the paper broker in another, N live paper users (BENCH_FEED_USERS, 1,000 default;
// far fewer and the first session's one-off costs swamp the per-connection figures).
// Driven only the way the platform drives it: the database (users, sealed credentials, live trading),
// `feeds.start` commands on the bus, and the FEED_STATUS bucket for each feed's state.
//  - memory per connection: the connector's RSS and V8 heap after a full collection, before any feed and
//    after all N are connected and settled, delta / N (bar on RSS: under 100 KiB);
//  - idle CPU of the connector with every connection up and no alerts (% of one core);
//  - the time from the first command to the Nth feed `connected`.
// BENCH_HEAP_SNAPSHOTS=<dir> also writes the connector's heap before and after (to see what a session holds;
// writing a snapshot grows the RSS, so such a run's RSS figure is for diagnosis only).
import path from 'node:path'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { randomUUID } from 'node:crypto'
import { loadConfig } from '@signals/config'
import { createDb, sql } from '@signals/db'
import { connectBus, openBucket } from '@signals/bus'
import { Buckets, FeedCommandV1, contract, type FeedStatus } from '@signals/contracts'
import { createTestDatabase, deleteNamespaceStreams, freePort, testNamespace, waitFor } from '@signals/test-support'
import { ConfigSchema } from '../services/broker-connector/src/config.ts'
import { forkPaperBroker } from './support/paper-broker-process.ts'
import { seedPaperUsers } from './support/paper-users.ts'
import { forkProbed, type ProbeReading } from './support/process-probe.ts'

const USERS = Number(process.env.BENCH_FEED_USERS ?? 1_000)
const SETTLE_MS = Number(process.env.BENCH_SETTLE_SECONDS ?? 10) * 1000
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 30) * 1000
const BYTES_PER_CONNECTION_BAR = 100 * 1024
const SNAPSHOTS = process.env.BENCH_HEAP_SNAPSHOTS

const here = path.dirname(fileURLToPath(import.meta.url))
const connectorMain = path.resolve(here, '../services/broker-connector/src/main.ts')
const out = (line = '') => process.stdout.write(`${line}\n`)
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
const commands = contract(FeedCommandV1)

const broker = await forkPaperBroker(USERS)
const database = await createTestDatabase()
const namespace = testNamespace()
const port = await freePort()
const env = {
  ...process.env,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test' as const,
  DATABASE_URL: database.url,
  BUS_NAMESPACE: namespace,
  PAPER_BROKER_URL: broker.restUrl,
  PAPER_BROKER_WS_URL: broker.wsUrl,
  BROKER_CONNECTOR_HOST: '127.0.0.1',
  BROKER_CONNECTOR_PORT: String(port),
}
const config = loadConfig(ConfigSchema, env)
const db = createDb({ connectionString: config.DATABASE_URL })
const bus = await connectBus({ url: config.NATS_URL, name: 'bench-feed-connections', namespace })
const connector = forkProbed(connectorMain, env)
let passed = false

/** Every feed's latest state by user, from the FEED_STATUS bucket's watcher; `lost` counts drops once connected. */
async function watchStates() {
  const bucket = await openBucket(bus, Buckets.feedStatus)
  const watcher = await bucket.watch()
  const states = new Map<string, FeedStatus['state']>()
  const tally = { lost: 0, errors: 0 }
  void (async () => {
    for await (const entry of watcher) {
      if (entry.operation !== 'PUT') continue
      const status = entry.json<FeedStatus>()
      if (status.state === 'error') tally.errors++
      if (states.get(status.userId) === 'connected' && status.state !== 'connected') tally.lost++
      states.set(status.userId, status.state)
    }
  })()
  const connected = () => [...states.values()].filter((state) => state === 'connected').length
  return { connected, tally, stop: () => watcher.stop() }
}

async function startFeeds(users: string[]) {
  for (let i = 0; i < users.length; i += 100) {
    await Promise.all(
      users.slice(i, i + 100).map((userId) => {
        const commandId = randomUUID()
        const command = { version: 1 as const, commandId, userId, action: 'start' as const, reason: 'bench', requestedAt: new Date().toISOString() }
        return bus.publish('feeds.start', commands, command, { messageId: commandId })
      }),
    )
  }
}

/** Polls `probe` like waitFor, but gives up at once when the connector's process has ended. */
const whileConnectorRuns = <T>(probe: () => T | undefined | Promise<T | undefined>, options: { timeoutMs: number; intervalMs: number; what: string }) =>
  waitFor(() => {
    if (connector.child.exitCode !== null || connector.child.signalCode !== null) throw new Error(`the connector exited (${connector.child.exitCode ?? connector.child.signalCode}) while waiting for ${options.what}`)
    return probe()
  }, options)

const cpuPercent = (from: ProbeReading, to: ProbeReading) => ((to.cpu.user + to.cpu.system - from.cpu.user - from.cpu.system) / 1000 / (to.wallMs - from.wallMs)) * 100

try {
  const users = await seedPaperUsers(db, {
    count: USERS,
    prefix: 'bench-feed-',
    live: 0,
    autoPlace: false,
    credentials: { keyId: config.CREDENTIALS_KEY_ID, key: config.CREDENTIALS_KEY, previousKeys: config.CREDENTIALS_PREVIOUS_KEYS },
  })
  await whileConnectorRuns(async () => ((await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null))?.ok ? true : undefined), { timeoutMs: 60_000, intervalMs: 100, what: 'the connector ready' })
  await pause(3_000)
  const before = await connector.measure(true)
  if (SNAPSHOTS) await connector.heapSnapshot(path.join(SNAPSHOTS, 'connector-before.heapsnapshot'))

  // Live trading on for everyone (as the settings service's toggle does), then one start command each.
  const states = await watchStates()
  await sql`UPDATE broker_accounts SET live_trading = true, switches_updated_at = now() WHERE is_primary AND user_id LIKE 'bench-feed-%'`.execute(db)
  const started = performance.now()
  await startFeeds(users)
  await whileConnectorRuns(() => (states.connected() === USERS ? true : undefined), { timeoutMs: 60_000 + USERS * 500, intervalMs: 50, what: `${USERS} feeds connected` })
  const connectSeconds = (performance.now() - started) / 1000
  const brokerSessions = await broker.sessions()
  if (brokerSessions !== USERS) throw new Error(`the paper broker holds ${brokerSessions} sessions for ${USERS} connected feeds`)

  await pause(SETTLE_MS)
  const after = await connector.measure(true)
  if (SNAPSHOTS) await connector.heapSnapshot(path.join(SNAPSHOTS, 'connector-after.heapsnapshot'))
  const idleFrom = await connector.measure(false)
  await pause(IDLE_MS)
  const idleTo = await connector.measure(false)
  const sessionsAfterIdle = await broker.sessions()
  const stillConnected = states.connected()
  states.stop()

  const rssPerConnection = (after.memory.rss - before.memory.rss) / USERS
  const heapPerConnection = (after.memory.heapUsed - before.memory.heapUsed) / USERS
  const heapTotalPerConnection = (after.memory.heapTotal - before.memory.heapTotal) / USERS
  const externalPerConnection = (after.memory.external - before.memory.external) / USERS
  const idleCpu = cpuPercent(idleFrom, idleTo)
  const allUp = stillConnected === USERS && sessionsAfterIdle === USERS && states.tally.lost === 0
  passed = rssPerConnection < BYTES_PER_CONNECTION_BAR && allUp

  out(`## One connector holding ${USERS.toLocaleString('en-US')} live broker connections`)
  out()
  out(`The real broker-connector main in its own process (feeds on, Tradovate heartbeats every 2.5 s both ways), the paper broker in another; load average ${loadavg().map((load) => load.toFixed(2)).join(' / ')} at the end.`)
  out()
  out('| figure | measured | bar |')
  out('|---|---|---|')
  out(`| connector RSS, no feeds -> ${USERS} connected (after GC${before.collected ? '' : ': gc not exposed'}) | ${mib(before.memory.rss)} -> ${mib(after.memory.rss)} | |`)
  out(`| connector V8 heap used (committed), same moments | ${mib(before.memory.heapUsed)} (${mib(before.memory.heapTotal)}) -> ${mib(after.memory.heapUsed)} (${mib(after.memory.heapTotal)}) | |`)
  out(`| **memory per connection (RSS)** | **${kib(rssPerConnection)}** | < ${kib(BYTES_PER_CONNECTION_BAR)} |`)
  out(`| memory per connection (V8 heap used; committed ${kib(heapTotalPerConnection)}, external ${kib(externalPerConnection)}) | ${kib(heapPerConnection)} | |`)
  out(`| idle CPU of the connector over ${IDLE_MS / 1000} s, every connection up, no alerts | **${idleCpu.toFixed(1)} %** of one core | |`)
  out(`| first start command to the ${USERS}th feed connected | **${connectSeconds.toFixed(1)} s** (${((connectSeconds * 1000) / USERS).toFixed(1)} ms per feed) | |`)
  out(`| feeds connected / broker sessions after the idle window; feeds lost | ${stillConnected} / ${sessionsAfterIdle}; ${states.tally.lost} lost (${states.tally.errors} error states in all) | all ${USERS}, none lost |`)
  if (SNAPSHOTS) out(`\nHeap snapshots in ${SNAPSHOTS}: writing the first one grows the RSS, so this run's RSS figure is for diagnosis only.`)
  out()
  out(`**${passed ? 'PASS' : 'FAIL'}**`)
} finally {
  await connector.stop()
  await broker.stop()
  await bus.close()
  await db.destroy()
  await deleteNamespaceStreams(namespace)
  await database.drop()
}
process.exit(passed ? 0 : 1)
