// Gateway overhead (issue 4, point 6): an authenticated GET /api/live-trading-status through the gateway
// beside the same call straight to the settings service with a valid internal header, in one run.
// Bar: the gateway path keeps at least half the direct throughput.
//
// Three processes, as deployed: the settings service, the real gateway (services/gateway/src/main.ts),
// and this one driving autocannon. Rounds alternate direct / gateway so drift hits both alike; the verdict
// uses the median of each. The settings service is the real one (services/settings/src/main.ts): its
// live-trading-status reads the user's settings, credentials, open-trade count and feed state (NATS KV).
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import autocannon from 'autocannon'
import { sql, type Database, type Kysely } from '@signals/db'
import { signIdentity, IDENTITY_HEADER } from '@signals/http-kit'
import { createTestDatabase, deleteNamespaceStreams, freePort, testNamespace, waitForPort, TEST_REDIS_URL } from '@signals/test-support'
import { createRedisClient, mintSession, sessionSettings, endUserSessions, deleteUserStatus } from '@signals/sessions'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const INTERNAL_AUTH_SECRET = 'bench-internal-auth-secret-0123456789-0123456789'
const SESSION_SECRET = 'bench-session-secret-0123456789-0123456789'
const USER_ID = 'bench-gateway-user'
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const ROUND_SECONDS = 5
const ROUNDS = 3
const BAR = 0.5

process.exitCode = await main()

function start(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] })
  return child
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
  })
}

async function load(url: string, headers: Record<string, string>, seconds: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`)
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
}

async function seed(db: Kysely<Database>) {
  await sql`INSERT INTO users (user_id, email, approved) VALUES (${USER_ID}, 'bench@example.com', true)`.execute(db)
  for (let i = 0; i < 3; i++) {
    await sql`INSERT INTO trades (user_id, symbol, side, quantity, entry_price) VALUES (${USER_ID}, 'MNQZ6', 'LONG', 1, 21000)`.execute(db)
  }
}

async function main(): Promise<number> {
  const database = await createTestDatabase()
  const namespace = testNamespace()
  const children: ChildProcess[] = []
  const redis = createRedisClient(TEST_REDIS_URL)
  await redis.connect()
  try {
    const { createDb } = await import('@signals/db')
    const db = createDb({ connectionString: database.url })
    await seed(db)
    await db.destroy()

    const settingsPort = await freePort()
    const gatewayPort = await freePort()
    children.push(
      start(['services/settings/src/main.ts'], {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        SETTINGS_PORT: String(settingsPort),
        DATABASE_URL: database.url,
        BUS_NAMESPACE: namespace,
        INTERNAL_AUTH_SECRET,
      }),
    )
    const publicUrl = `http://127.0.0.1:${gatewayPort}`
    children.push(
      start([...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), 'services/gateway/src/main.ts'], {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        GATEWAY_PORT: String(gatewayPort),
        PUBLIC_URL: publicUrl,
        REDIS_URL: TEST_REDIS_URL,
        SESSION_SECRET,
        INTERNAL_AUTH_SECRET,
        SETTINGS_URL: `http://127.0.0.1:${settingsPort}`,
      }),
    )
    await Promise.all([waitForPort(settingsPort, 30_000), waitForPort(gatewayPort, 30_000)])

    const settings = sessionSettings({ SESSION_SECRET, PUBLIC_URL: publicUrl, SESSION_IDLE_MINUTES: 120, SESSION_ABSOLUTE_HOURS: 168 })
    const cookie = await mintSession(redis, settings, USER_ID, { email: 'bench@example.com', role: 'trader', approved: true, banned: false })
    const viaGateway = `${publicUrl}/api/live-trading-status`
    const direct = `http://127.0.0.1:${settingsPort}/api/live-trading-status`
    const directHeaders = (method = 'GET', path = '/api/live-trading-status') => ({
      [IDENTITY_HEADER]: signIdentity({ userId: USER_ID, email: 'bench@example.com', role: 'trader', approved: true }, INTERNAL_AUTH_SECRET, { audience: 'settings', method, path }, 600),
    })
    // A fully configured trader, set up through the settings API itself.
    const settingsApi = `http://127.0.0.1:${settingsPort}/api`
    const write = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${settingsApi}${path}`, { method, headers: { ...directHeaders(method, `/api${path}`), 'content-type': 'application/json' }, body: JSON.stringify(body) })
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    }
    await write('PUT', '/broker-credentials', { broker: 'paper', environment: 'demo', accountId: 'DEMO-1', username: 'bench', password: 'bench-password' })
    await write('POST', '/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } })

    // Same answer both ways, and a warm-up for the JIT and the connection pools.
    const [one, two] = await Promise.all([fetch(direct, { headers: directHeaders() }), fetch(viaGateway, { headers: { cookie } })])
    const [a, b] = [await one.json(), await two.json()]
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`different answers:\n${JSON.stringify(a)}\n${JSON.stringify(b)}`)
    await load(direct, directHeaders(), 2)
    await load(viaGateway, { cookie }, 2)

    const rounds: { direct: Awaited<ReturnType<typeof load>>; gateway: Awaited<ReturnType<typeof load>> }[] = []
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push({ direct: await load(direct, directHeaders(), ROUND_SECONDS), gateway: await load(viaGateway, { cookie }, ROUND_SECONDS) })
    }
    const directRps = median(rounds.map((r) => r.direct.rps))
    const gatewayRps = median(rounds.map((r) => r.gateway.rps))
    const ratio = gatewayRps / directRps
    const passed = ratio >= BAR

    const lines = [
      '## Gateway overhead: GET /api/live-trading-status',
      '',
      `${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s, medians. Settings: the real service`,
      '(Postgres and NATS KV reads). Gateway path: session read, user status read, signed identity, proxy hop.',
      '',
      '| path | req/s (median) | p50 ms | p99 ms | rounds req/s |',
      '|---|---|---|---|---|',
      `| direct to settings (internal header) | ${directRps.toFixed(0)} | ${median(rounds.map((r) => r.direct.p50))} | ${median(rounds.map((r) => r.direct.p99))} | ${rounds.map((r) => r.direct.rps.toFixed(0)).join(', ')} |`,
      `| through the gateway (session cookie) | ${gatewayRps.toFixed(0)} | ${median(rounds.map((r) => r.gateway.p50))} | ${median(rounds.map((r) => r.gateway.p99))} | ${rounds.map((r) => r.gateway.rps.toFixed(0)).join(', ')} |`,
      '',
      `Gateway keeps **${(ratio * 100).toFixed(0)} %** of direct throughput (bar: at least ${BAR * 100} %): **${passed ? 'PASS' : 'FAIL'}**`,
      '',
    ]
    process.stdout.write(lines.join('\n'))
    await endUserSessions(redis, USER_ID)
    await deleteUserStatus(redis, USER_ID)
    return passed ? 0 : 1
  } finally {
    await Promise.all(children.map(stop))
    await redis.close()
    await database.drop()
    await deleteNamespaceStreams(namespace)
  }
}
