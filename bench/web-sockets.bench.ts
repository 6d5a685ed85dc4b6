// Live pages at scale (issue 13, point 9): 1,000 browser sockets (WebSocket clients with session cookies)
// on one real gateway process. Measures the gateway's memory per open socket (its RSS before and after,
// divided by the sockets) and the time from a trade change to its arrival at all 1,000 sockets: one
// statement changes one trade of each of the 1,000 users; the database trigger NOTIFYs at commit, the
// broker connector's relay (in this process, the real plugin) publishes on NATS, the gateway pushes.
// Latency is from just before the UPDATE is sent to each socket's message; p99 and the slowest per round.
// Bar: p99 under one second (the "within a second") and at most 100 KiB per socket.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import WebSocket from 'ws'
import { loadConfig } from '@signals/config'
import { createDb, sql } from '@signals/db'
import { createTestDatabase, deleteNamespaceStreams, freePort, testNamespace, waitForPort, TEST_NATS_URL, TEST_REDIS_URL } from '@signals/test-support'
import { createRedisClient, mintSession, sessionSettings } from '../packages/sessions/src/index.ts'
import { buildApp as buildConnector } from '../services/broker-connector/src/app.ts'
import { ConfigSchema as ConnectorConfig } from '../services/broker-connector/src/config.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000)
const ROUNDS = 5
const INTERNAL_AUTH_SECRET = 'bench-internal-auth-secret-0123456789-0123456789'
const SESSION_SECRET = 'bench-session-secret-0123456789-0123456789'
const P99_BAR_MS = 1000
const BYTES_PER_SOCKET_BAR = 100 * 1024

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('VmRSS:'))
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
  })
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] as number

/** Opens every socket (50 at a time), each with its own user's session. */
async function openSockets(url: string, origin: string, cookies: string[]): Promise<WebSocket[]> {
  const sockets: WebSocket[] = []
  for (let start = 0; start < cookies.length; start += 50) {
    const batch = cookies.slice(start, start + 50).map(
      (cookie) =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(url, { headers: { origin, cookie } })
          socket.once('open', () => resolve(socket))
          socket.once('error', reject)
        }),
    )
    sockets.push(...(await Promise.all(batch)))
  }
  return sockets
}

/** One round: every user's trade changes in one statement; resolves with each socket's latency (ms). */
async function round(db: ReturnType<typeof createDb>, sockets: WebSocket[], pnl: number): Promise<number[]> {
  const started = performance.now()
  const arrivals = sockets.map(
    (socket) =>
      new Promise<number>((resolve) => {
        const onMessage = (data: Buffer) => {
          if (!data.toString('utf8').includes('"kind":"trade"')) return
          socket.off('message', onMessage)
          resolve(performance.now() - started)
        }
        socket.on('message', onMessage)
      }),
  )
  await sql`UPDATE trades SET pnl = ${pnl} WHERE user_id LIKE 'bench-ws-%'`.execute(db)
  return Promise.all(arrivals)
}

async function main(): Promise<number> {
  const database = await createTestDatabase()
  const namespace = testNamespace()
  const redis = createRedisClient(TEST_REDIS_URL)
  await redis.connect()
  const db = createDb({ connectionString: database.url })
  const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: database.url, NATS_URL: TEST_NATS_URL, BUS_NAMESPACE: namespace, INTERNAL_AUTH_SECRET, FEEDS_ENABLED: 'false' }
  const connector = await buildConnector(loadConfig(ConnectorConfig, env), { consumers: false, feeds: false })
  let gateway: ChildProcess | undefined
  let sockets: WebSocket[] = []
  try {
    await connector.ready()
    const users = Array.from({ length: SOCKETS }, (_unused, index) => `bench-ws-${index}`)
    await sql`INSERT INTO users (user_id, email, approved) SELECT u, u || '@example.com', true FROM unnest(${users}::text[]) AS u`.execute(db)
    await sql`INSERT INTO trades (user_id, symbol, side, quantity, entry_price) SELECT u, 'MNQZ6', 'LONG', 1, 21000 FROM unnest(${users}::text[]) AS u`.execute(db)

    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}`
    gateway = spawn(process.execPath, ['--import', 'tsx', 'services/gateway/src/main.ts'], {
      cwd: root,
      env: { ...env, GATEWAY_PORT: String(port), PUBLIC_URL: publicUrl, REDIS_URL: TEST_REDIS_URL, SESSION_SECRET, LIVE_RECHECK_MS: '5000' },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    await waitForPort(port, 30_000)
    const settings = sessionSettings({ SESSION_SECRET, PUBLIC_URL: publicUrl, SESSION_IDLE_MINUTES: 120, SESSION_ABSOLUTE_HOURS: 168 })
    const cookies = await Promise.all(users.map((userId) => mintSession(redis, settings, userId, { email: `${userId}@example.com`, role: 'trader', approved: true, banned: false })))

    // Warm-up: a few sockets and a round, so the JIT and the pools are not measured.
    const warm = await openSockets(`ws://127.0.0.1:${port}/api/live`, publicUrl, cookies.slice(0, 10))
    for (const socket of warm) socket.close()
    await pause(2_000)
    const before = rssBytes(gateway.pid as number)
    sockets = await openSockets(`ws://127.0.0.1:${port}/api/live`, publicUrl, cookies)
    await pause(3_000)
    const after = rssBytes(gateway.pid as number)
    const perSocket = (after - before) / SOCKETS

    const rounds: number[][] = []
    for (let index = 0; index < ROUNDS; index++) {
      rounds.push(await round(db, sockets, index + 1))
      await pause(500)
    }
    const all = rounds.flat()
    const p50 = percentile(all, 50)
    const p99 = percentile(all, 99)
    const slowest = rounds.map((latencies) => Math.max(...latencies))
    const passed = p99 < P99_BAR_MS && perSocket <= BYTES_PER_SOCKET_BAR

    process.stdout.write(
      [
        '## Live sockets: 1,000 browser sockets on one gateway',
        '',
        `${SOCKETS} WebSocket clients, one user each, on one gateway process. Each of ${ROUNDS} rounds changes one trade of`,
        'every user in one UPDATE; trigger NOTIFY at commit, connector relay to NATS, gateway push.',
        '',
        '| figure | value |',
        '|---|---|',
        `| gateway RSS before / after opening | ${(before / 2 ** 20).toFixed(1)} MiB / ${(after / 2 ** 20).toFixed(1)} MiB |`,
        `| memory per open socket | ${(perSocket / 1024).toFixed(1)} KiB |`,
        `| change to arrival, p50 | ${p50.toFixed(1)} ms |`,
        `| change to arrival, p99 | ${p99.toFixed(1)} ms |`,
        `| change to the last of ${SOCKETS} arrivals, per round | ${slowest.map((ms) => ms.toFixed(0)).join(', ')} ms |`,
        '',
        `Bar: p99 under ${P99_BAR_MS} ms and at most ${BYTES_PER_SOCKET_BAR / 1024} KiB per socket: **${passed ? 'PASS' : 'FAIL'}**`,
        '',
      ].join('\n'),
    )
    return passed ? 0 : 1
  } finally {
    for (const socket of sockets) socket.terminate()
    if (gateway) await stop(gateway)
    await connector.close()
    await db.destroy()
    await redis.close()
    await database.drop()
    await deleteNamespaceStreams(namespace)
  }
}

process.exitCode = await main()
