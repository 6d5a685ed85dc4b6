// Feed ownership between connector instances (issue 14, point 6, second part):
//  1. instance 1 holds every live paper user's feed; instance 2 joins: the time from instance 2 being
//     ready until it holds its share of the shards and every user is connected again, exactly once
//     (bar: 30 s);
//  2. instance 1 is killed (SIGKILL): the time until instance 2 holds every shard and every user is
//     connected again (bar: 15 s; the lease TTL is 10 s).
// Both instances are connector processes (main.ts); the paper broker runs here and counts the sockets.
// BENCH_FEED_USERS lowers the user count (default 1,000).
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { connectBus, openBucket } from '@signals/bus'
import { loadConfig } from '@signals/config'
import { Buckets, FeedLeaseV1, contract } from '@signals/contracts'
import { createDb, sql } from '@signals/db'
import { CredentialsCipher, sealCredentials } from '@signals/secrets'
import { createTestDatabase, deleteNamespaceStreams, eventually, freePort, storePrimaryLogins, testNamespace, waitForPort, TEST_NATS_URL } from '@signals/test-support'
import { startPaperBroker } from '../dev/paper-broker/src/index.ts'
import { ConfigSchema } from '../services/broker-connector/src/config.ts'

const USERS = Number(process.env.BENCH_FEED_USERS ?? 1_000)
const BAR = { joinMs: 30_000, killMs: 15_000 }
const PASSWORD = 'bench-password'
const root = fileURLToPath(new URL('..', import.meta.url))
const leases = contract(FeedLeaseV1)

const out = (line = '') => process.stdout.write(`${line}\n`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const broker = await startPaperBroker({
  accounts: Array.from({ length: USERS }, (_, i) => ({ name: `trader-${i}`, password: PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `DEMO${9000 + i}` })),
})
const database = await createTestDatabase()
const namespace = testNamespace()
const env = { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: database.url, BUS_NAMESPACE: namespace, NATS_URL: TEST_NATS_URL, PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }
const config = loadConfig(ConfigSchema, { ...process.env, ...env })
const db = createDb({ connectionString: database.url })
const bus = await connectBus({ url: TEST_NATS_URL, name: 'feed-handover-bench', namespace })
const children: ChildProcess[] = []

async function seed() {
  await sql`INSERT INTO users (user_id, email, approved) SELECT 'bench-' || g, 'bench-' || g || '@example.com', true FROM generate_series(0, ${USERS - 1}::int) g`.execute(db)
  // Live trading on: the primary accounts' switches (each made with its user).
  await sql`UPDATE broker_accounts SET live_trading = true, auto_place = true, switches_updated_at = now() WHERE is_primary AND user_id LIKE 'bench-%'`.execute(db)
  const cipher = CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  const logins = Array.from({ length: USERS }, (_, i) => {
    const owner = { userId: `bench-${i}`, broker: 'paper', environment: 'demo', accountId: `DEMO${9000 + i}` } as const
    return { ...owner, sealed: sealCredentials(cipher, owner, { username: `trader-${i}`, password: PASSWORD, appId: 'bench', appVersion: '1', cid: 1, sec: 'bench', deviceId: null }) }
  })
  await storePrimaryLogins(db, logins) // the primary accounts' logins
}

/** A connector process; resolves once it answers /ready. */
async function startConnector(): Promise<ChildProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/broker-connector/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, BROKER_CONNECTOR_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  children.push(child)
  await waitForPort(port, 60_000)
  while ((await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.status !== 200) await sleep(50)
  return child
}

/** Shard leases by holder. */
async function holders(): Promise<Map<string, number>> {
  const bucket = await openBucket(bus, Buckets.feedOwners, { ttlMs: config.FEED_LEASE_TTL_MS })
  const counts = new Map<string, number>()
  for await (const key of await bucket.keys('shard.*')) {
    const entry = await bucket.get(key)
    const lease: unknown = entry?.operation === 'PUT' ? entry.json() : null
    if (leases.check(lease)) counts.set(lease.instanceId, (counts.get(lease.instanceId) ?? 0) + 1)
  }
  return counts
}

/** Every user has exactly one socket at the broker. */
function everyoneOnce(): boolean {
  const sessions = broker.sessions()
  return sessions.length === USERS && new Set(sessions).size === USERS
}

const until = (predicate: () => Promise<boolean> | boolean, what: string, timeoutMs = 180_000) => eventually(predicate, { what, timeoutMs, intervalMs: 50 })

let passed = false
try {
  await seed()
  out(`## Feed hand-over between connector instances (${USERS} live paper users, ${config.FEED_SHARDS} shards, lease TTL ${config.FEED_LEASE_TTL_MS} ms)\n`)
  const first = await startConnector()
  let started = Date.now()
  await until(everyoneOnce, 'instance 1 to connect every user')
  out(`- instance 1 alone: every user connected ${Date.now() - started} ms after it was ready`)
  const firstId = [...(await holders()).keys()][0] as string

  await startConnector()
  started = Date.now()
  const share = Math.floor(config.FEED_SHARDS / 2)
  const joined = async () => {
    const counts = await holders()
    const theirs = [...counts].filter(([id]) => id !== firstId).reduce((sum, [, n]) => sum + n, 0)
    return theirs >= share && everyoneOnce()
  }
  await until(joined, 'instance 2 to take its share')
  const joinMs = Date.now() - started
  out(`- instance 2 joins: holds ${share} of ${config.FEED_SHARDS} shards and every user is connected once ${joinMs} ms after it was ready (bar ${BAR.joinMs} ms)`)

  first.kill('SIGKILL')
  started = Date.now()
  await until(async () => {
    const counts = await holders()
    return !counts.has(firstId) && [...counts.values()].reduce((a, b) => a + b, 0) === config.FEED_SHARDS && everyoneOnce()
  }, 'instance 2 to take every shard')
  const killMs = Date.now() - started
  out(`- instance 1 killed: instance 2 holds every shard and every user is connected once ${killMs} ms after the kill (bar ${BAR.killMs} ms)`)
  passed = joinMs <= BAR.joinMs && killMs <= BAR.killMs
  out(`\n${passed ? 'PASS' : 'FAIL'}`)
} finally {
  for (const child of children) child.kill('SIGKILL')
  await bus.close()
  await db.destroy()
  await broker.close()
  await deleteNamespaceStreams(namespace)
  await database.drop()
}
process.exit(passed ? 0 : 1)
