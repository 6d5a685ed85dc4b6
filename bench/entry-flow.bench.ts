// Live entry flow (issue 12, point 9): from the webhook's 200 (the real ingest app, over HTTP) to the
// order arriving at the paper broker (its onRequest hook), through the bus and the connector's entry flow
// (risk-engine sizing, bracket over the user's real WebSocket session).
//  1. one live user, one alert at a time: p50 / p99 (bar: p99 < 100 ms);
//  2. 1,000 live users with auto-place on, one alert: the 200 to the 1,000th order (bar: < 2 s).
// Ingest and the connector run in this process; the paper broker, standing in for a remote broker, runs
// in a child process of its own (its market work is not ours to count) and reports each order's arrival
// time (wall clock with sub-millisecond precision, comparable across the two processes).
import { loadConfig } from '@signals/config'
import { sql } from '@signals/db'
import { createTestDatabase, deleteNamespaceStreams, eventually, testNamespace, freePort } from '@signals/test-support'
import { buildApp as buildConnector } from '../services/broker-connector/src/app.ts'
import { TradovateAdapter } from '../services/broker-connector/src/feeds/broker/tradovate/adapter.ts'
import type { BrokerAdapter } from '../services/broker-connector/src/feeds/broker/broker-adapter.ts'
import { ConfigSchema } from '../services/broker-connector/src/config.ts'
import { loadIngestConfig } from '../services/ingest/src/config.ts'
import { buildApp as buildIngest } from '../services/ingest/src/app.ts'
import { forkPaperBroker, wallClock } from './support/paper-broker-process.ts'
import { seedPaperUsers } from './support/paper-users.ts'

const USERS = 1_000
const SINGLE_RUNS = Number(process.env.BENCH_SINGLE_RUNS ?? 200)
const MANY_RUNS = 3
const BAR = { p99Ms: 100, manyMs: 2_000 }

const out = (line = '') => process.stdout.write(`${line}\n`)
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] as number

let arrivals: number[] = []
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
const broker = await forkPaperBroker(USERS, { execArgv: profile, onOrder: (at) => arrivals.push(at) })
const database = await createTestDatabase()
const namespace = testNamespace()
const env = { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', DATABASE_URL: database.url, BUS_NAMESPACE: namespace, PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }
const config = loadConfig(ConfigSchema, env)
/** The real adapter, noting when the connector hands each bracket to its session (the order leaves). */
let sentAt: number[] = []
const tradovate = new TradovateAdapter()
const timingAdapter: BrokerAdapter<'paper'> = {
  async openSession(endpoints, login, options) {
    const session = await tradovate.openSession(endpoints, login, options)
    const placeBracket = session.placeBracket.bind(session)
    return Object.assign(session, {
      placeBracket: (request: Parameters<typeof placeBracket>[0]) => {
        sentAt.push(wallClock())
        return placeBracket(request)
      },
    })
  },
}
const connector = await buildConnector(config, { brokerAdapters: { paper: timingAdapter } })
const ingestPort = await freePort()
const ingest = await buildIngest(loadIngestConfig({ ...env, INGEST_PORT: String(ingestPort), INGEST_RATE_LIMIT_PER_MINUTE: '100000000' }))
let passed = false

// Only bench-0 is live for the single-user part; the others are switched on for the second.
const seed = () =>
  seedPaperUsers(connector.db, {
    count: USERS,
    prefix: 'bench-',
    live: 1,
    autoPlace: true,
    credentials: { keyId: config.CREDENTIALS_KEY_ID, key: config.CREDENTIALS_KEY, previousKeys: config.CREDENTIALS_PREVIOUS_KEYS },
  })

/** Posts an alert; returns when the 200 came and the alert's id as ingest stored it (scoped to its sender). */
async function post(body: Record<string, unknown>): Promise<{ at: number; alertId: string }> {
  const response = await fetch(`http://127.0.0.1:${ingestPort}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const at = wallClock()
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${await response.text()}`)
  const { alertId } = (await response.json()) as { alertId: string }
  return { at, alertId }
}

const until = (predicate: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000) => eventually(predicate, { what, timeoutMs, intervalMs: 5 })

const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(connector.db)).rows[0]?.n ?? 0)
const openTrades = () => count(sql<{ n: number }>`SELECT count(*)::int AS n FROM trades WHERE status = 'open'`)

/**
 * Closes every open MNQ trade by an Exit alert (flattened at the broker by each session's holder) and waits
 * until all are flat; returns when, after the 200, every position was flat and every trade closed at its fill.
 */
async function exitAll(id: string, expectedOpen: number): Promise<{ flatMs: number; closedMs: number }> {
  await until(async () => (await openTrades()) === expectedOpen, `${expectedOpen} trades open`)
  const { at: ok } = await post({ symbol: 'MNQ1!', result: 'Exit', exitPrice: 21000, alertId: id })
  await until(() => broker.flat(), 'every position flat')
  const flatMs = wallClock() - ok
  await until(async () => (await openTrades()) === 0, 'every trade closed')
  return { flatMs, closedMs: wallClock() - ok }
}

const entry = (id: string) => ({ action: 'Buy', symbol: 'MNQ1!', entryPrice: 21000, sl: 20950, tp: 21100, user_id: 'bench-owner', alertId: id })

try {
  await seed()
  await connector.ready()
  await ingest.listen({ host: '127.0.0.1', port: ingestPort })
  await until(() => connector.feeds.session('bench-0') !== null, 'the first session')

  // 1. One live user.
  const single: number[] = []
  for (let run = -5; run < SINGLE_RUNS; run++) {
    arrivals = []
    const { at: ok } = await post(entry(`single-${run}`))
    await until(() => arrivals.length === 1, 'the order at the broker', 10_000)
    if (run >= 0) single.push((arrivals[0] as number) - ok)
    await exitAll(`single-exit-${run}`, 1)
  }

  // 2. 1,000 live users.
  await sql`UPDATE trading_settings SET setting_value = '{"enabled": true, "autoPlaceOrders": true}'`.execute(connector.db)
  const others = Array.from({ length: USERS - 1 }, (_, i) => `bench-${i + 1}`)
  for (let i = 0; i < others.length; i += 50) await Promise.all(others.slice(i, i + 50).map((userId) => connector.feeds.start(userId)))
  await until(() => others.every((userId) => connector.feeds.session(userId) !== null), 'every session', 120_000)
  const many: number[] = []
  const manySent: number[] = []
  const manyFirst: number[] = []
  const manyExits: { flatMs: number; closedMs: number }[] = []
  for (let run = 0; run < MANY_RUNS; run++) {
    arrivals = []
    sentAt = []
    const { at: ok, alertId } = await post(entry(`many-${run}`))
    await until(() => arrivals.length >= USERS, `${USERS} orders at the broker`, 60_000)
    many.push((arrivals[USERS - 1] as number) - ok)
    manySent.push((sentAt[USERS - 1] as number) - ok)
    manyFirst.push((arrivals[0] as number) - ok)
    const placed = await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM alerts WHERE alert_id = ${alertId} AND status = 'placed'`)
    await until(async () => (await count(sql<{ n: number }>`SELECT count(*)::int AS n FROM alerts WHERE alert_id = ${alertId} AND status = 'placed'`)) === USERS, 'every record placed')
    if (arrivals.length !== USERS) throw new Error(`${arrivals.length} orders for ${USERS} users (placed ${placed})`)
    manyExits.push(await exitAll(`many-exit-${run}`, USERS))
  }

  const p50 = percentile(single, 50)
  const p99 = percentile(single, 99)
  const manyMedian = percentile(many, 50)
  passed = p99 < BAR.p99Ms && Math.max(...many) < BAR.manyMs
  out('## Live entry flow (webhook 200 -> order at the paper broker)')
  out()
  out('Ingest (HTTP) and the connector (bus, risk-engine sizing, bracket over each user\'s WebSocket session) in one process; the paper broker in another.')
  out()
  out('| case | figure | bar |')
  out('|---|---|---|')
  out(`| one live user, ${SINGLE_RUNS} alerts one at a time | p50 **${p50.toFixed(1)} ms**, p99 **${p99.toFixed(1)} ms** (min ${Math.min(...single).toFixed(1)}, max ${Math.max(...single).toFixed(1)}) | p99 < ${BAR.p99Ms} ms |`)
  out(`| ${USERS.toLocaleString('en-US')} live users, one alert (${MANY_RUNS} runs) | 1,000th order **${manyMedian.toFixed(0)} ms** after the 200 (runs: ${many.map((ms) => ms.toFixed(0)).join(', ')} ms) | < ${BAR.manyMs} ms |`)
  out()
  out(`The Exit alert after each 1,000-user run (durable flatten requests, run by the holder of each session): every position flat ${manyExits.map((exit) => exit.flatMs.toFixed(0)).join(', ')} ms after the 200, every trade closed at its fill ${manyExits.map((exit) => exit.closedMs.toFixed(0)).join(', ')} ms after it (no bar).`)
  out()
  out(`In the 1,000-user runs the first order reached the broker ${manyFirst.map((ms) => ms.toFixed(0)).join(', ')} ms after the 200, and the connector had handed the 1,000th to its session ${manySent.map((ms) => ms.toFixed(0)).join(', ')} ms after it; the rest is the paper broker taking the orders one after another on its one thread.`)
  out()
  out(`**${passed ? 'PASS' : 'FAIL'}**`)
} finally {
  await ingest.close()
  await connector.close()
  await broker.stop()
  await deleteNamespaceStreams(namespace)
  await database.drop()
}
process.exit(passed ? 0 : 1)
