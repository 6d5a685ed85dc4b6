// Live entry flow (issue 12, point 9): from the webhook's 200 (the real ingest app, over HTTP) to the
// order arriving at the paper broker (its onRequest hook), through the bus and the connector's entry flow
// (risk-engine sizing, bracket over the user's real session), for each broker: the Tradovate paper broker
// (WebSocket) and the ProjectX one (REST and its SignalR user hub), one after the other (issue 23).
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
import { ProjectXAdapter } from '../services/broker-connector/src/feeds/broker/projectx/adapter.ts'
import type { BrokerAdapter, BrokerSession } from '../services/broker-connector/src/feeds/broker/broker-adapter.ts'
import { ConfigSchema } from '../services/broker-connector/src/config.ts'
import { loadIngestConfig } from '../services/ingest/src/config.ts'
import { buildApp as buildIngest } from '../services/ingest/src/app.ts'
import { forkPaperBroker, wallClock, type PaperBrokerKind, type PaperBrokerProcess } from './support/paper-broker-process.ts'
import { seedPaperUsers } from './support/paper-users.ts'

const USERS = 1_000
const SINGLE_RUNS = Number(process.env.BENCH_SINGLE_RUNS ?? 200)
const MANY_RUNS = 3
const BAR = { p99Ms: 100, manyMs: 2_000 }
const BROKERS: readonly PaperBrokerKind[] = process.env.BENCH_BROKERS ? (process.env.BENCH_BROKERS.split(',') as PaperBrokerKind[]) : ['tradovate', 'projectx']

const out = (line = '') => process.stdout.write(`${line}\n`)
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] as number
const until = (predicate: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000) => eventually(predicate, { what, timeoutMs, intervalMs: 5 })
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
const entry = (id: string) => ({ action: 'Buy', symbol: 'MNQ1!', entryPrice: 21000, sl: 20950, tp: 21100, user_id: 'bench-owner', alertId: id })

/** Order arrivals at the broker and bracket hand-overs to the sessions, wall clock, since the last reset. */
const times = { arrivals: [] as number[], sentAt: [] as number[] }

/** The session with its placeBracket timed: when the connector hands each bracket to it (the order leaves). */
function timedSession(session: BrokerSession): BrokerSession {
  const placeBracket = session.placeBracket.bind(session)
  return Object.assign(session, {
    placeBracket: (request: Parameters<typeof placeBracket>[0]) => {
      times.sentAt.push(wallClock())
      return placeBracket(request)
    },
  })
}

/** The broker's real adapter, timed; ProjectX's own rate window raised as the paper broker's is (see its child). */
function timingAdapters(kind: PaperBrokerKind) {
  if (kind === 'projectx') {
    const projectx = new ProjectXAdapter({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } })
    const adapter: BrokerAdapter<'projectx'> = { openSession: async (endpoints, login, options) => timedSession(await projectx.openSession(endpoints, login, options)) }
    return { projectx: adapter }
  }
  const tradovate = new TradovateAdapter()
  const adapter: BrokerAdapter<'paper'> = { openSession: async (endpoints, login, options) => timedSession(await tradovate.openSession(endpoints, login, options)) }
  return { paper: adapter }
}

/** The connector's variables pointing it at this broker. */
const brokerEnv = (kind: PaperBrokerKind, broker: PaperBrokerProcess): Record<string, string> =>
  kind === 'projectx'
    ? { PROJECTX_DEMO_API_URL: broker.restUrl, PROJECTX_DEMO_USER_HUB_URL: broker.wsUrl, PROJECTX_DEMO_MARKET_HUB_URL: broker.mdUrl }
    : { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }

type Rig = Awaited<ReturnType<typeof rig>>

/** The paper broker (its own process), a database, ingest and the connector, for one broker. */
async function rig(kind: PaperBrokerKind) {
  const broker = await forkPaperBroker(USERS, { kind, execArgv: profile, onOrder: (at) => times.arrivals.push(at) })
  const database = await createTestDatabase()
  const namespace = testNamespace()
  const env = { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', DATABASE_URL: database.url, BUS_NAMESPACE: namespace, ...brokerEnv(kind, broker) }
  const config = loadConfig(ConfigSchema, env)
  const connector = await buildConnector(config, { brokerAdapters: timingAdapters(kind) })
  const ingestPort = await freePort()
  const ingest = await buildIngest(loadIngestConfig({ ...env, INGEST_PORT: String(ingestPort), INGEST_RATE_LIMIT_PER_MINUTE: '100000000' }))
  const close = async () => {
    await ingest.close()
    await connector.close()
    await broker.stop()
    await deleteNamespaceStreams(namespace)
    await database.drop()
  }
  // Only bench-0 is live for the single-user part; the others are switched on for the second.
  await seedPaperUsers(connector.db, {
    count: USERS,
    prefix: 'bench-',
    live: 1,
    autoPlace: true,
    broker: kind,
    credentials: { keyId: config.CREDENTIALS_KEY_ID, key: config.CREDENTIALS_KEY, previousKeys: config.CREDENTIALS_PREVIOUS_KEYS },
  })
  await connector.ready()
  await ingest.listen({ host: '127.0.0.1', port: ingestPort })
  return { kind, broker, connector, ingestPort, close }
}

/** Posts an alert; returns when the 200 came and the alert's id as ingest stored it (scoped to its sender). */
async function post(rig: Rig, body: Record<string, unknown>): Promise<{ at: number; alertId: string }> {
  const response = await fetch(`http://127.0.0.1:${rig.ingestPort}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const at = wallClock()
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${await response.text()}`)
  const { alertId } = (await response.json()) as { alertId: string }
  return { at, alertId }
}

const count = async (rig: Rig, query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(rig.connector.db)).rows[0]?.n ?? 0)
const openTrades = (rig: Rig) => count(rig, sql<{ n: number }>`SELECT count(*)::int AS n FROM trades WHERE status = 'open'`)

/**
 * Closes every open MNQ trade by an Exit alert (flattened at the broker by each session's holder) and waits
 * until all are flat; returns when, after the 200, every position was flat and every trade closed at its fill.
 */
async function exitAll(rig: Rig, id: string, expectedOpen: number): Promise<{ flatMs: number; closedMs: number }> {
  await until(async () => (await openTrades(rig)) === expectedOpen, `${expectedOpen} trades open`)
  const { at: ok } = await post(rig, { symbol: 'MNQ1!', result: 'Exit', exitPrice: 21000, alertId: id })
  await until(() => rig.broker.flat(), 'every position flat')
  const flatMs = wallClock() - ok
  await until(async () => (await openTrades(rig)) === 0, 'every trade closed')
  return { flatMs, closedMs: wallClock() - ok }
}

/** 1. One live user, one alert at a time: the 200 to the order at the broker, per alert. */
async function singleUser(rig: Rig): Promise<number[]> {
  await until(() => rig.connector.feeds.session('bench-0') !== null, 'the first session')
  const single: number[] = []
  for (let run = -5; run < SINGLE_RUNS; run++) {
    times.arrivals = []
    const { at: ok } = await post(rig, entry(`single-${run}`))
    await until(() => times.arrivals.length === 1, 'the order at the broker', 10_000)
    if (run >= 0) single.push((times.arrivals[0] as number) - ok)
    await exitAll(rig, `single-exit-${run}`, 1)
  }
  return single
}

/** 2. 1,000 live users, one alert per run: the 200 to the 1,000th order, and the Exit after each run. */
async function manyUsers(rig: Rig) {
  const { connector } = rig
  await sql`UPDATE broker_accounts SET live_trading = true, auto_place = true, switches_updated_at = now() WHERE is_primary`.execute(connector.db)
  const others = Array.from({ length: USERS - 1 }, (_, i) => `bench-${i + 1}`)
  for (let i = 0; i < others.length; i += 50) await Promise.all(others.slice(i, i + 50).map((userId) => connector.feeds.start(userId)))
  await until(() => others.every((userId) => connector.feeds.session(userId) !== null), 'every session', 120_000)
  const runs = { many: [] as number[], sent: [] as number[], first: [] as number[], exits: [] as { flatMs: number; closedMs: number }[] }
  const placedOf = (alertId: string) => count(rig, sql<{ n: number }>`SELECT count(*)::int AS n FROM alerts WHERE alert_id = ${alertId} AND status = 'placed'`)
  for (let run = 0; run < MANY_RUNS; run++) {
    times.arrivals = []
    times.sentAt = []
    const { at: ok, alertId } = await post(rig, entry(`many-${run}`))
    await until(() => times.arrivals.length >= USERS, `${USERS} orders at the broker`, 60_000)
    runs.many.push((times.arrivals[USERS - 1] as number) - ok)
    runs.sent.push((times.sentAt[USERS - 1] as number) - ok)
    runs.first.push((times.arrivals[0] as number) - ok)
    const placed = await placedOf(alertId)
    await until(async () => (await placedOf(alertId)) === USERS, 'every record placed')
    if (times.arrivals.length !== USERS) throw new Error(`${times.arrivals.length} orders for ${USERS} users (placed ${placed})`)
    runs.exits.push(await exitAll(rig, `many-exit-${run}`, USERS))
  }
  return runs
}

const FACES: Record<PaperBrokerKind, string> = {
  tradovate: 'Tradovate paper broker: the bracket over each user\'s WebSocket session',
  projectx: 'ProjectX paper broker: `Order/place` over REST, fills and legs over each user\'s SignalR user hub',
}

/** One broker's section, printed as each part ends (a part that fails says why); true when it is within its bars. */
async function benchFor(kind: PaperBrokerKind): Promise<boolean> {
  const setUp = await rig(kind)
  const ms = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
  try {
    out(`### ${FACES[kind]}`)
    out()
    out('| case | figure | bar |')
    out('|---|---|---|')
    const single = await singleUser(setUp)
    const p99 = percentile(single, 99)
    out(`| one live user, ${SINGLE_RUNS} alerts one at a time | p50 **${percentile(single, 50).toFixed(1)} ms**, p99 **${p99.toFixed(1)} ms** (min ${Math.min(...single).toFixed(1)}, max ${Math.max(...single).toFixed(1)}) | p99 < ${BAR.p99Ms} ms |`)
    const runs = await manyUsers(setUp).catch((error: unknown) => error as Error)
    if (runs instanceof Error) {
      out(`| ${USERS.toLocaleString('en-US')} live users, one alert | **failed**: ${runs.message} | < ${BAR.manyMs} ms |`)
      out()
      out('**FAIL**')
      out()
      return false
    }
    const passed = p99 < BAR.p99Ms && Math.max(...runs.many) < BAR.manyMs
    out(`| ${USERS.toLocaleString('en-US')} live users, one alert (${MANY_RUNS} runs) | 1,000th order **${percentile(runs.many, 50).toFixed(0)} ms** after the 200 (runs: ${ms(runs.many)} ms) | < ${BAR.manyMs} ms |`)
    out()
    out(`The Exit alert after each 1,000-user run (durable flatten requests, run by the holder of each session): every position flat ${ms(runs.exits.map((exit) => exit.flatMs))} ms after the 200, every trade closed at its fill ${ms(runs.exits.map((exit) => exit.closedMs))} ms after it (no bar).`)
    out()
    out(`In the 1,000-user runs the first order reached the broker ${ms(runs.first)} ms after the 200, and the connector had handed the 1,000th to its session ${ms(runs.sent)} ms after it; the rest is the paper broker taking the orders one after another on its one thread.`)
    out()
    out(`**${passed ? 'PASS' : 'FAIL'}**`)
    out()
    return passed
  } finally {
    await setUp.close()
  }
}

out('## Live entry flow (webhook 200 -> order at the paper broker)')
out()
out('Ingest (HTTP) and the connector (bus, risk-engine sizing, the bracket over each user\'s session) in one process; the paper broker in another.')
out()
const outcomes: boolean[] = []
for (const kind of BROKERS) outcomes.push(await benchFor(kind))
process.exit(outcomes.every(Boolean) ? 0 : 1)
