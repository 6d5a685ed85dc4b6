import t from 'tap'
import { loadConfig } from '@signals/config'
import { dependenciesOf, dependencyDownMessage } from '@signals/http-kit'
import { freePort } from '@signals/test-support'
import { buildApp } from '../src/app.ts'
import { ConfigSchema } from '../src/config.ts'

/** What buildApp threw (null when it started, then closed). */
async function startFailure(overrides: Record<string, string>) {
  const config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...overrides })
  const error = await buildApp(config).then(
    async (app) => {
      await app.close()
      return null
    },
    (failure: unknown) => failure,
  )
  return { error, config }
}

t.test('with Postgres down, the start fails at once with one sentence: what, where (no credentials), how', async (t) => {
  const port = await freePort()
  const { error, config } = await startFailure({ DATABASE_URL: `postgres://owner:pg-secret-1@127.0.0.1:${port}/signals` })
  t.ok(error, 'buildApp refuses to start without Postgres')
  const message = dependencyDownMessage('admin', error, dependenciesOf(config))
  t.equal(
    message,
    `admin cannot start: Postgres is not reachable at 127.0.0.1:${port} (ECONNREFUSED). Start it with \`docker compose up -d postgres\`, or start a local PostgreSQL 15+, or point the service at another one with its URL setting.`,
  )
  t.notMatch(message ?? '', /owner|pg-secret-1/)
})

t.test('with Redis down, the start fails at once (not after a plugin time-out) with one sentence', async (t) => {
  const port = await freePort()
  const began = Date.now()
  const { error, config } = await startFailure({ REDIS_URL: `redis://signals:redis-secret-1@127.0.0.1:${port}` })
  t.ok(error, 'buildApp refuses to start without Redis')
  t.ok(Date.now() - began < 5_000, `failed within 5 s (${Date.now() - began} ms), not at the 10 s plugin time-out`)
  const message = dependencyDownMessage('admin', error, dependenciesOf(config))
  t.equal(
    message,
    `admin cannot start: Redis is not reachable at 127.0.0.1:${port} (ECONNREFUSED). Start it with \`docker compose up -d redis\`, or \`redis-server\`, or point the service at another one with its URL setting.`,
  )
  t.notMatch(message ?? '', /redis-secret-1/)
})
