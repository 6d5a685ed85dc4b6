import t from 'tap'
import { loadConfig } from '@signals/config'
import { dependenciesOf, dependencyDownMessage, listenWithSummary } from '@signals/http-kit'
import { freePort } from '@signals/test-support'
import { buildApp } from '../src/app.ts'
import { ConfigSchema } from '../src/config.ts'
import { build } from './helper.ts'

t.test('with NATS down, the start fails with one sentence: what, where (no credentials), how to start it', async (t) => {
  const port = await freePort()
  const config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', NATS_URL: `nats://builder:hunter2@127.0.0.1:${port}` })
  const failure = await buildApp(config).then(
    async (app) => {
      await app.close()
      return null
    },
    (error: unknown) => error,
  )
  t.ok(failure, 'buildApp refuses to start without NATS')
  const message = dependencyDownMessage('ingest', failure, dependenciesOf(config))
  t.equal(
    message,
    `ingest cannot start: NATS is not reachable at 127.0.0.1:${port} (ECONNREFUSED). Start it with \`docker compose up -d nats\`, or \`nats-server -js\`, or point the service at another one with its URL setting.`,
  )
  t.notMatch(message ?? '', /builder|hunter2/, 'no credentials in the sentence')
})

t.test('a failure that is not a dependency being down keeps its stack trace (no sentence)', async (t) => {
  t.equal(dependencyDownMessage('ingest', new TypeError('undefined is not a function'), dependenciesOf({ NATS_URL: 'nats://127.0.0.1:4222' })), null)
})

t.test('once listening, a service logs one start-up line: name, address, environment, Node version', async (t) => {
  const { app, logLines } = await build(t, { LOG_LEVEL: 'info' })
  const address = await listenWithSummary(app, { host: '127.0.0.1', port: 0 })
  const listening = logLines.map((line) => JSON.parse(line) as { msg: string }).filter((line) => line.msg.includes('listening'))
  t.same(
    listening.map((line) => line.msg),
    [`ingest listening on ${address} (${process.env.NODE_ENV ?? 'development'}, Node ${process.version})`],
  )
})
