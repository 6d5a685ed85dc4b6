// The whole platform under load (issue 21 item 9): every service as production runs it (`pnpm build`,
// NODE_ENV=production, the image's NODE_OPTIONS), each in its own process, on a NATS server of the bench's
// own (the streams are filled to their bounds: a shared server would carry that for every other run) and
// the real Postgres and Redis; beside a bare Fastify route (the same webhook path, the same Node and
// options) in the same run. autocannon posts distinct entry alerts (an explicit id each) to ingest's webhook;
// each round alternates the bare route and the platform, so a burst of noise on the machine hits both.
//
// Per platform round: webhook req/s and p50/p99 (autocannon), and end to end: the alerts accepted (200, not
// a duplicate) over the time from the first post to the last consumer done: every durable consumer of ALERTS
// and INTAKE with nothing pending or unacknowledged and the connector's intake log holding a row for every
// request answered; then every alert id ingest answered is looked up in the intake log. The CPU each service
// used (from /proc), and Postgres' (the backends of the platform's database), less its idle rate over as
// long, is divided by the alerts accepted: which service spends what per alert.
// Two phases: streams empty, then every stream full to its byte bound (DEFAULT_STREAM_MAX_BYTES; the durable
// consumers moved past the filler, as if they had consumed it).
// Bar: in both phases, end to end >= 8,000 alerts/s (median of rounds) and webhook p99 < 20 ms (worst round).
// BENCH_SKIP_BUILD=1 measures the dist/ already built; BENCH_PROFILE=<dir> runs every service with
// --cpu-prof into <dir>/<phase>/<n>-<service> and prints each one's functions with the most self time;
// BENCH_BASELINE=<a checkout, built> runs its services too, as a second platform (its own database and
// namespace, the GLIBC_TUNABLES of its own Dockerfile) measured in the same rounds: before and after a change,
// side by side; BENCH_ENV=`NAME=value,...` sets variables for this build's services only (with
// BENCH_BASELINE=. : a setting priced side by side);
// BENCH_ROUNDS, BENCH_SECONDS and BENCH_CONNECTIONS change the rounds (3), their length (10 s) and the
// connections (50).
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { connectBus, DEFAULT_STREAM_MAX_BYTES, type Bus } from '@signals/bus'
import { Streams } from '@signals/contracts'
import { createDb, sql, type Database, type Kysely } from '@signals/db'
import { createTestDatabase, freePort, startPrivateNats, stopChild, testNamespace, TEST_REDIS_URL, waitFor, type TestDatabase } from '@signals/test-support'
import { summariseProfiles } from './support/cpu-profile-summary.ts'
import { fillStreams, skipConsumersToEnd, type FilledStream } from './support/full-streams.ts'
import { processCpuMs } from './support/process-cpu.ts'
import { buildProduction, imageMallocTunables, imageNodeOptions, productionEnv, SERVICES, startNode, startService, waitHealthy, root, type NodeProcess, type ServiceName } from './support/production-services.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const MEASURE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WARM_UP_SECONDS = 3
const FIRST_WARM_UP_SECONDS = 5
const DRAIN_TIMEOUT_MS = 180_000
/** How long each process's idle CPU is sampled before a round (subtracted from what the round cost). */
const IDLE_SAMPLE_MS = 3_000
const BAR = { alertsPerSecond: 8_000, p99Ms: 20 }
const PROFILE_DIR = process.env.BENCH_PROFILE
const BASELINE = process.env.BENCH_BASELINE
const LOAD_GENERATOR = 'load generator (this process)'
const POSTGRES = 'postgres (the services\' connections)'
/** The bench's own connection to each platform's database (polling for drained), left out of Postgres' CPU. */
const BENCH_APPLICATION = 'bench-platform'
const out = (line = '') => process.stdout.write(`${line}\n`)

const BARE_FASTIFY = `import Fastify from 'fastify'
const app = Fastify({ logger: { level: 'warn' } })
app.get('/health', async () => ({ status: 'ok' }))
app.post('/webhook/alert/:secret', async () => ({ success: true }))
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })`

interface Load {
  requestsPerSecond: number
  p50: number
  p99: number
  /** Responses of any status. */
  responded: number
  /** Alert ids of the 200s that were not duplicates. */
  alertIds: string[]
  failures: number
}

const run = randomBytes(4).toString('hex')
let sequence = 0

/** `CONNECTIONS` connections posting distinct entry alerts (an explicit id each) to `url` for `seconds`. */
async function load(url: string, seconds: number): Promise<Load> {
  const alertIds: string[] = []
  let responded = 0
  let failures = 0
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          sequence += 1
          const alert = { action: 'Buy', symbol: 'NQ1!', entryPrice: 15000, sl: 14950, tp: 15100, user_id: `trader-${sequence % 100}`, indicator: 'Momentum', alertId: `bench-${run}-${sequence}` }
          return { ...request, body: JSON.stringify(alert) }
        },
        onResponse: (status, body) => {
          responded += 1
          if (status !== 200) {
            failures += 1
            return
          }
          const answer = JSON.parse(body) as { alertId?: string; duplicate?: boolean }
          if (answer.alertId !== undefined && answer.duplicate !== true) alertIds.push(answer.alertId)
        },
      },
    ],
  })
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, responded, alertIds, failures: failures + result.errors + result.timeouts }
}

interface PlatformRound extends Load {
  /** Alerts accepted over the time from the first post to the last consumer done. */
  endToEnd: number
  drainMs: number
  /** CPU milliseconds per accepted alert, by process. */
  cpuPerAlert: Record<string, number>
  recorded: number
}

buildProduction()
const nats = await startPrivateNats()
const nodeOptions = imageNodeOptions()
const barePort = await freePort()

/** One whole platform: its build, database, namespace, ports and service processes. */
interface Platform {
  label: string
  checkout: string
  namespace: string
  database: TestDatabase
  db: Kysely<Database>
  env: NodeJS.ProcessEnv
  port: (name: ServiceName) => number
  services: NodeProcess[]
  bus?: Bus
}

/** BENCH_ENV (`NAME=value,NAME=value`): settings for this build's services only, to price one beside a baseline. */
const extraEnv = Object.fromEntries((process.env.BENCH_ENV ?? '').split(',').filter((pair) => pair.includes('=')).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))

async function preparePlatform(label: string, checkout: string, settings: Record<string, string> = {}): Promise<Platform> {
  const database = await createTestDatabase()
  const namespace = testNamespace()
  const ports = new Map<ServiceName, number>()
  for (const name of SERVICES) ports.set(name, await freePort())
  const port = (name: ServiceName) => ports.get(name) ?? 0
  const env = productionEnv({ nodeOptions, mallocTunables: imageMallocTunables(checkout), databaseUrl: database.url, redisUrl: TEST_REDIS_URL, natsUrl: nats.url, namespace, port })
  // Counted like in production, but never reached from the one load-generator address.
  env.INGEST_RATE_LIMIT_PER_MINUTE = '100000000'
  Object.assign(env, settings)
  return { label, checkout, namespace, database, db: createDb({ connectionString: database.url, max: 2, applicationName: BENCH_APPLICATION }), env, port, services: [] }
}

const thisBuild = `${BASELINE === undefined ? 'platform' : 'after (this build)'}${process.env.BENCH_ENV ? ` ${process.env.BENCH_ENV}` : ''}`
const platforms = [await preparePlatform(thisBuild, root, extraEnv)]
if (BASELINE !== undefined) {
  const checkout = path.resolve(BASELINE)
  platforms.unshift(await preparePlatform(checkout === root ? 'this build, as configured' : `before (${path.basename(checkout)})`, checkout))
}
const sharedEnv = platforms[0]?.env ?? {}
const webhookUrl = (platform: Platform) => `http://127.0.0.1:${platform.port('ingest')}/webhook/alert/${platform.env.WEBHOOK_SECRET}`
const bareUrl = `http://127.0.0.1:${barePort}/webhook/alert/secret`

// Fastify resolves from ingest's dependencies: the same copy the services bundle.
const bare = startNode('bare Fastify', ['--input-type=module', '-e', BARE_FASTIFY], { ...sharedEnv, PORT: String(barePort) }, barePort, path.join(root, 'services/ingest'))

async function startPlatform(platform: Platform, phase: string): Promise<void> {
  platform.services = SERVICES.map((name) => {
    const dir = path.resolve(PROFILE_DIR ?? '.', phase, `${platforms.indexOf(platform)}-${name}`)
    if (PROFILE_DIR !== undefined) mkdirSync(dir, { recursive: true })
    return startService(name, platform.env, platform.port(name), PROFILE_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`], platform.checkout)
  })
  for (const service of platform.services) await waitHealthy(service)
  platform.bus ??= await connectBus({ url: nats.url, name: 'bench-platform', namespace: platform.namespace, ensureTopology: false })
}

const stopPlatform = (platform: Platform) => Promise.all(platform.services.map((service) => stopChild(service.child, { graceMs: 15_000 })))

/** Every durable consumer of ALERTS and INTAKE has nothing pending or unacknowledged. */
async function consumersDone(bus: Bus): Promise<boolean> {
  for (const stream of [Streams.alerts.name, Streams.intake.name]) {
    for await (const info of bus.jsm.consumers.list(bus.stream(stream))) {
      if (info.num_pending > 0 || info.num_ack_pending > 0) return false
    }
  }
  return true
}

const lastIntakeRow = async (platform: Platform) => Number((await sql<{ id: number | null }>`SELECT max(id)::bigint AS id FROM intake_log`.execute(platform.db)).rows[0]?.id ?? 0)
const intakeRowsAfter = async (platform: Platform, id: number) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM intake_log WHERE id > ${id}`.execute(platform.db)).rows[0]?.n ?? 0)

/** Waits until the platform has done everything the load gave it: `responded` intake rows after `baseline`, and no consumer behind. */
async function drained(platform: Platform, baseline: number, responded: number): Promise<void> {
  const bus = platform.bus
  if (bus === undefined) throw new Error(`${platform.label} is not started`)
  await waitFor(async () => ((await intakeRowsAfter(platform, baseline)) >= responded && (await consumersDone(bus)) ? true : undefined), { timeoutMs: DRAIN_TIMEOUT_MS, intervalMs: 50, what: `${platform.label} to drain` })
}

/** CPU of each Postgres backend serving the platform's services (the same machine's processes), keyed by pid. */
async function postgresCpu(platform: Platform): Promise<Map<number, number>> {
  const backends = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name IS DISTINCT FROM ${BENCH_APPLICATION}`.execute(platform.db)
  const cpu = new Map<number, number>()
  for (const { pid } of backends.rows) {
    try {
      cpu.set(pid, processCpuMs(pid))
    } catch {
      // Not on this machine, or it ended meanwhile: not counted.
    }
  }
  return cpu
}

/**
 * Each process's CPU so far; Postgres as the sum of the platform's backends (one that ended within the
 * round is not counted, one that started is counted whole).
 */
async function cpuNow(platform: Platform, since?: Map<number, number>): Promise<{ processes: Map<string, number>; backends: Map<number, number> }> {
  const backends = await postgresCpu(platform)
  const postgres = [...backends].reduce((sum, [pid, ms]) => sum + ms - (since?.get(pid) ?? 0), 0)
  const processes = new Map<string, number>([
    ...platform.services.map((service) => [service.name, processCpuMs(service.child.pid ?? 0)] as const),
    [LOAD_GENERATOR, (process.cpuUsage().user + process.cpuUsage().system) / 1000],
    [POSTGRES, postgres],
  ])
  return { processes, backends }
}

/** Each process's CPU milliseconds per second while the platform is idle (timers, health of its connections). */
async function idleRates(platform: Platform): Promise<Map<string, number>> {
  const before = await cpuNow(platform)
  const started = performance.now()
  await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS))
  const seconds = (performance.now() - started) / 1000
  const after = await cpuNow(platform, before.backends)
  return new Map([...after.processes].map(([name, ms]) => [name, (ms - (name === POSTGRES ? 0 : (before.processes.get(name) ?? 0))) / seconds]))
}

async function platformRound(platform: Platform): Promise<PlatformRound> {
  const idle = await idleRates(platform)
  const baseline = await lastIntakeRow(platform)
  const cpuBefore = await cpuNow(platform)
  const started = performance.now()
  const figures = await load(webhookUrl(platform), MEASURE_SECONDS)
  await drained(platform, baseline, figures.responded)
  const drainMs = performance.now() - started
  const cpuAfter = await cpuNow(platform, cpuBefore.backends)
  const accepted = figures.alertIds.length
  const recorded = Number((await sql<{ n: number }>`SELECT count(DISTINCT alert_id)::int AS n FROM intake_log WHERE id > ${baseline} AND alert_id = ANY(${figures.alertIds}::text[])`.execute(platform.db)).rows[0]?.n ?? 0)
  // What the alerts cost: the CPU used from the first post to drained, less what the process uses idle over as long.
  // Postgres' figure is already the difference (backend by backend).
  const used = (name: string, ms: number) => ms - (name === POSTGRES ? 0 : (cpuBefore.processes.get(name) ?? 0))
  const cpuPerAlert = Object.fromEntries([...cpuAfter.processes].map(([name, ms]) => [name, (used(name, ms) - (idle.get(name) ?? 0) * (drainMs / 1000)) / Math.max(1, accepted)]))
  return { ...figures, endToEnd: accepted / (drainMs / 1000), drainMs, cpuPerAlert, recorded }
}

interface PhaseResult {
  phase: string
  bare: Load[]
  /** By platform label, a round each. */
  platforms: Map<string, PlatformRound[]>
  filled?: FilledStream[]
}

/** First a warm-up of each target; then each round the bare route and every platform (in turn first), each warmed again. */
async function measurePhase(phase: string): Promise<PhaseResult> {
  const result: PhaseResult = { phase, bare: [], platforms: new Map(platforms.map((platform) => [platform.label, []])) }
  await load(bareUrl, FIRST_WARM_UP_SECONDS)
  for (const platform of platforms) {
    const warm = await lastIntakeRow(platform)
    await drained(platform, warm, (await load(webhookUrl(platform), FIRST_WARM_UP_SECONDS)).responded)
  }
  for (let round = 0; round < ROUNDS; round++) {
    await load(bareUrl, WARM_UP_SECONDS)
    result.bare.push(await load(bareUrl, MEASURE_SECONDS))
    const order = round % 2 === 0 ? platforms : [...platforms].reverse()
    for (const platform of order) {
      const warm = await lastIntakeRow(platform)
      await drained(platform, warm, (await load(webhookUrl(platform), WARM_UP_SECONDS)).responded)
      result.platforms.get(platform.label)?.push(await platformRound(platform))
    }
  }
  return result
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN
const fixed = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

function report(results: PhaseResult[]): boolean {
  let passed = true
  out('## The whole platform under load: webhook to the last consumer, beside a bare Fastify route')
  out()
  out(`Node ${process.version}, NODE_OPTIONS=\`${nodeOptions}\`, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${MEASURE_SECONDS} s alternating the bare route and ${platforms.map((platform) => platform.label).join(' and ')}; ${new Date().toISOString()}, load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} CPUs.`)
  out()
  out('| streams | round | bare req/s (p99 ms) | platform | webhook req/s (p50 / p99 ms) | ratio to bare | alerts accepted | end to end alerts/s (drained in s) | ids in the intake log | failures |')
  out('|---|---|---|---|---|---|---|---|---|---|')
  for (const result of results) {
    result.bare.forEach((bareRound, i) => {
      for (const [label, rounds] of result.platforms) {
        const round = rounds[i]
        if (round === undefined) continue
        out(`| ${result.phase} | ${i + 1} | ${fixed(bareRound.requestsPerSecond)} (${bareRound.p99}) | ${label} | ${fixed(round.requestsPerSecond)} (${round.p50} / ${round.p99}) | ${(round.requestsPerSecond / bareRound.requestsPerSecond).toFixed(3)} | ${fixed(round.alertIds.length)} | **${fixed(round.endToEnd)}** (${(round.drainMs / 1000).toFixed(1)}) | ${fixed(round.recorded)} | ${round.failures + bareRound.failures} |`)
      }
    })
  }
  out()
  out('| streams | platform | end to end alerts/s (median) | webhook p99 (worst round) | webhook req/s to bare (median) | every id recorded | bar |')
  out('|---|---|---|---|---|---|---|')
  const measured = platforms.at(-1)?.label
  for (const result of results) {
    for (const [label, rounds] of result.platforms) {
      const endToEnd = median(rounds.map((round) => round.endToEnd))
      const p99 = Math.max(...rounds.map((round) => round.p99))
      const ratio = median(rounds.map((round, i) => round.requestsPerSecond / (result.bare[i]?.requestsPerSecond ?? Number.NaN)))
      const complete = rounds.every((round) => round.recorded === round.alertIds.length && round.failures === 0)
      const ok = endToEnd >= BAR.alertsPerSecond && p99 < BAR.p99Ms && complete
      // The bar is this build's; a baseline is there to compare with.
      if (label === measured) passed &&= ok
      out(`| ${result.phase} | ${label} | **${fixed(endToEnd)}** | **${p99} ms** | ${ratio.toFixed(3)} | ${complete ? 'yes' : '**no**'} | ${ok ? 'PASS' : 'FAIL'} (>= ${fixed(BAR.alertsPerSecond)}/s, p99 < ${BAR.p99Ms} ms) |`)
    }
  }
  out()
  const processes = [...SERVICES, POSTGRES, LOAD_GENERATOR]
  out('CPU per accepted alert by process (user + system from /proc, over each round from the first post to drained, less the process\'s idle rate sampled for 3 s before the round; Postgres: the backends of the platform\'s database; median of rounds, ms):')
  out()
  out(`| streams | platform | ${processes.join(' | ')} | services together | services and Postgres |`)
  out(`|---|---|${processes.map(() => '---|').join('')}---|---|`)
  for (const result of results) {
    for (const [label, rounds] of result.platforms) {
      const cells = processes.map((name) => median(rounds.map((round) => round.cpuPerAlert[name] ?? 0)))
      const servicesTotal = median(rounds.map((round) => SERVICES.reduce((sum, name) => sum + (round.cpuPerAlert[name] ?? 0), 0)))
      const withPostgres = median(rounds.map((round) => [...SERVICES, POSTGRES].reduce((sum, name) => sum + (round.cpuPerAlert[name] ?? 0), 0)))
      out(`| ${result.phase} | ${label} | ${cells.map((ms) => ms.toFixed(3)).join(' | ')} | ${servicesTotal.toFixed(3)} | ${withPostgres.toFixed(3)} |`)
    }
  }
  for (const result of results) {
    if (result.filled === undefined) continue
    out()
    out(`Streams before the "${result.phase}" phase (each platform's): ${result.filled.map((stream) => `${stream.stream.replace(/^T[0-9a-f]+_/i, '')} ${fixed(stream.bytes / 1024 / 1024, 1)} of ${fixed(stream.maxBytes / 1024 / 1024)} MiB (${fixed(stream.messages)} messages)`).join(', ')}.`)
  }
  out()
  out(`**${passed ? 'PASS' : 'FAIL'}**`)
  return passed
}

let passed = false
try {
  await waitHealthy(bare)
  for (const platform of platforms) await startPlatform(platform, 'empty')
  const empty = await measurePhase('empty')
  await Promise.all(platforms.map(stopPlatform))

  // Every stream to its bound while nothing consumes; the consumers then deliver only what comes next.
  let filled: FilledStream[] = []
  for (const platform of platforms) {
    if (platform.bus === undefined) continue
    filled = await fillStreams(platform.bus)
    await skipConsumersToEnd(platform.bus)
    for (const stream of filled) {
      const key = (Object.keys(Streams) as (keyof typeof Streams)[]).find((name) => platform.bus?.stream(Streams[name].name) === stream.stream)
      if (key !== undefined && stream.maxBytes !== DEFAULT_STREAM_MAX_BYTES[key]) throw new Error(`${stream.stream} is bounded at ${stream.maxBytes} bytes, not the default`)
    }
  }
  for (const platform of platforms) await startPlatform(platform, 'full')
  const full = await measurePhase('full')
  passed = report([empty, { ...full, filled }])
} finally {
  await Promise.all(platforms.map(stopPlatform))
  await stopChild(bare.child, { graceMs: 5_000 })
  for (const platform of platforms) {
    await platform.bus?.close()
    await platform.db.destroy()
    await platform.database.drop()
  }
  await nats.destroy()
}
// Each service writes its profile as it exits.
if (PROFILE_DIR !== undefined) out(`\n## CPU profiles (self time, every service's whole run)\n${summariseProfiles(PROFILE_DIR)}`)
process.exit(passed ? 0 : 1)
