// Settings service benchmark: latency of each route side by side in one run, on the real Postgres and
// NATS, through a listening server. The machine is noisy, so the bars are ratios between routes measured
// in the same run, plus one exact check: every live-trading toggle under load published exactly one
// feed command. Run: node --import tsx bench/settings.bench.ts
import { loadConfig } from '@signals/config'
import { Streams } from '@signals/contracts'
import { signIdentity } from '@signals/http-kit'
import { createTestDatabase, deleteNamespaceStreams, freePort, storePrimaryLogins, testNamespace } from '@signals/test-support'
import { buildApp } from '../services/settings/src/app.ts'
import { ConfigSchema } from '../services/settings/src/config.ts'

const WORKERS = 8
const REQUESTS_PER_WORKER = 150
const WARM_UP_PER_WORKER = 30

interface Phase {
  name: string
  request: (worker: number, index: number) => { method: string; path: string; body?: unknown }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

async function main(): Promise<number> {
  const database = await createTestDatabase()
  const namespace = testNamespace()
  const config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', DATABASE_URL: database.url, BUS_NAMESPACE: namespace })
  const app = await buildApp(config)
  const port = await freePort()
  await app.listen({ host: '127.0.0.1', port })
  const base = `http://127.0.0.1:${port}`
  try {
    const users = Array.from({ length: WORKERS }, (_, index) => `bench-user-${index}`)
    await app.db.insertInto('users').values(users.map((userId) => ({ user_id: userId, email: `${userId}@example.com`, approved: true }))).execute()
    // The gateway signs the identity for each call's service, method and path (issue 15).
    const headersFor = (worker: number, method: string, path: string) => {
      const userId = users[worker] ?? ''
      return {
        'content-type': 'application/json',
        'x-signals-identity': signIdentity({ userId, email: `${userId}@example.com`, role: 'trader', approved: true }, config.INTERNAL_AUTH_SECRET, { audience: 'settings', method, path }, 3600),
      }
    }
    const sealed = { keyId: 'k1', iv: Buffer.alloc(12), tag: Buffer.alloc(16), ciphertext: Buffer.alloc(8) }
    await storePrimaryLogins(app.db, users.map((userId) => ({ userId, broker: 'paper', environment: 'demo', accountId: 'P1', sealed })))

    const phases: Phase[] = [
      { name: 'GET /health (baseline)', request: () => ({ method: 'GET', path: '/health' }) },
      { name: 'GET /api/trading-settings', request: () => ({ method: 'GET', path: '/api/trading-settings' }) },
      { name: 'GET /api/live-trading-status', request: () => ({ method: 'GET', path: '/api/live-trading-status' }) },
      { name: 'GET /api/risk-engine/config', request: () => ({ method: 'GET', path: '/api/risk-engine/config' }) },
      {
        name: 'POST risk_strategy (save)',
        request: (_worker, index) => ({
          method: 'POST',
          path: '/api/trading-settings',
          body: { settingKey: 'risk_strategy', settingValue: { enabled: true, type: 'legacy', portfolioBalance: 50_000, riskPercent: 1 + (index % 5), maxContracts: null } },
        }),
      },
      {
        name: 'POST live_trading toggle (save + outbox + JetStream ack)',
        request: (_worker, index) => ({
          method: 'POST',
          path: '/api/trading-settings',
          body: { settingKey: 'live_trading', settingValue: { enabled: index % 2 === 0, autoPlaceOrders: true } },
        }),
      },
    ]

    // Warm-up (JIT, pool connections, the KV bucket) so the first measured route is not penalised.
    await Promise.all(
      users.map(async (_user, worker) => {
        for (let index = 0; index < WARM_UP_PER_WORKER; index++) {
          for (const path of ['/health', '/api/live-trading-status']) {
            await fetch(base + path, { headers: headersFor(worker, 'GET', path) }).then((response) => response.arrayBuffer())
          }
        }
      }),
    )

    const results = new Map<string, { p50: number; p99: number; perSecond: number; errors: number }>()
    let toggles = 0
    for (const phase of phases) {
      const latencies: number[] = []
      let errors = 0
      const started = performance.now()
      await Promise.all(
        users.map(async (_user, worker) => {
          for (let index = 0; index < REQUESTS_PER_WORKER; index++) {
            const { method, path, body } = phase.request(worker, index)
            const t0 = performance.now()
            const response = await fetch(base + path, { method, headers: headersFor(worker, method, path), body: body === undefined ? undefined : JSON.stringify(body) })
            const payload = (await response.json()) as { feedCommand?: unknown }
            latencies.push(performance.now() - t0)
            if (response.status !== 200) errors++
            if (payload.feedCommand) toggles++
          }
        }),
      )
      const elapsed = (performance.now() - started) / 1000
      latencies.sort((a, b) => a - b)
      results.set(phase.name, { p50: percentile(latencies, 50), p99: percentile(latencies, 99), perSecond: latencies.length / elapsed, errors })
    }

    const stream = app.bus.stream(Streams.feeds.name)
    const published = (await app.bus.jsm.streams.info(stream)).state.messages
    const outboxLeft = await app.db.selectFrom('feed_commands').select('id').where('published_at', 'is', null).execute()

    const settingsGet = results.get('GET /api/trading-settings')!
    const status = results.get('GET /api/live-trading-status')!
    const save = results.get('POST risk_strategy (save)')!
    const toggle = results.get('POST live_trading toggle (save + outbox + JetStream ack)')!
    const statusRatio = status.p50 / settingsGet.p50
    const toggleRatio = toggle.p50 / save.p50
    const totalErrors = [...results.values()].reduce((sum, result) => sum + result.errors, 0)
    const checks = [
      { bar: 'live-trading-status p50 <= 3x trading-settings GET p50', value: `${statusRatio.toFixed(2)}x`, pass: statusRatio <= 3 },
      { bar: 'live_trading toggle p50 <= 4x risk_strategy save p50', value: `${toggleRatio.toFixed(2)}x`, pass: toggleRatio <= 4 },
      { bar: 'feed commands published == changes (exactly once under load)', value: `${published} / ${toggles}`, pass: published === toggles && outboxLeft.length === 0 },
      { bar: 'no non-200 answer', value: String(totalErrors), pass: totalErrors === 0 },
    ]

    const lines = [
      '## Settings service',
      '',
      `${WORKERS} concurrent clients (one user each), ${REQUESTS_PER_WORKER} requests per client per route, keep-alive, real Postgres and NATS.`,
      '',
      '| route | req/s | p50 ms | p99 ms |',
      '|---|---|---|---|',
      ...[...results].map(([name, r]) => `| ${name} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`),
      '',
      '| bar | measured | result |',
      '|---|---|---|',
      ...checks.map((check) => `| ${check.bar} | ${check.value} | ${check.pass ? 'PASS' : 'FAIL'} |`),
      '',
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
    return checks.every((check) => check.pass) ? 0 : 1
  } finally {
    await app.close()
    await deleteNamespaceStreams(namespace)
    await database.drop()
  }
}

process.exitCode = await main()
