import t from 'tap'
import type { Test } from 'tap'
import { createRedisClient } from '@signals/sessions'
import { freePort, startPrivateNats, startPrivateRedis, testNamespace } from '@signals/test-support'
import { build } from './helper.ts'

// Issue 21 item 7: the gateway uses Redis twice (sessions through node-redis, the sign-in rate limit through
// ioredis) and NATS; all three log in with credentials, and none of them reaches the log.
const REDIS_PASSWORD = 'redis-acl-pass-0123456789'
const NATS_PASSWORD = 'nats-user-pass-0123456789'

async function privateServers(t: Test) {
  // An ACL user with every key and command; the default (anonymous) user switched off.
  const redis = await startPrivateRedis(['--user', 'signals', 'on', `>${REDIS_PASSWORD}`, '~*', '&*', '+@all', '--user', 'default', 'off'])
  t.teardown(() => redis.destroy())
  const nats = await startPrivateNats({
    config: 'authorization { users: [ { user: signals, password: $SIGNALS_NATS_PASSWORD } ] }',
    env: { SIGNALS_NATS_PASSWORD: NATS_PASSWORD },
  })
  t.teardown(() => nats.destroy())
  return { redis, nats }
}

t.test('the gateway logs into a Redis ACL user and a NATS user, and no password reaches its log', async (t) => {
  const { redis, nats } = await privateServers(t)
  const lines: string[] = []
  const loggerStream = { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream
  const { app } = await build(
    t,
    {
      LOG_LEVEL: 'debug',
      REDIS_URL: `redis://signals:${REDIS_PASSWORD}@127.0.0.1:${redis.port}`,
      NATS_URL: nats.url,
      NATS_USER: 'signals',
      NATS_PASSWORD,
      BUS_NAMESPACE: testNamespace(),
      AUTH_URL: `http://127.0.0.1:${await freePort()}`,
      AUTH_RATE_LIMIT: '1',
    },
    { loggerStream },
  )

  const ready = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 200, 'Redis (sessions) and NATS answer: ready')
  // The limiter counts in Redis through its own client: a second request in the minute is refused only if it counted.
  await app.inject({ method: 'GET', url: '/auth/google' })
  const second = await app.inject({ method: 'GET', url: '/auth/google' })
  t.equal(second.statusCode, 429, 'the rate limiter logged in too (it lets everything through when Redis refuses it)')

  t.ok(lines.length > 0, 'the gateway logged')
  t.same(lines.filter((line) => line.includes(REDIS_PASSWORD) || line.includes(NATS_PASSWORD)), [], 'no password in any log line')
})

t.test('the Redis server refuses a client without the ACL user', async (t) => {
  const { redis } = await privateServers(t)
  // Refused: the client reports an error (a wrong password: it would go on retrying) or its ping fails.
  const refused = async (url: string) => {
    const client = createRedisClient(url)
    const errored = new Promise<boolean>((resolve) => client.once('error', () => resolve(true)))
    const pinged = client.connect().then(
      () => client.ping().then(() => false, () => true),
      () => true,
    )
    const outcome = await Promise.race([errored, pinged])
    client.destroy()
    return outcome
  }
  t.ok(await refused(redis.url), 'anonymous: refused')
  t.ok(await refused(`redis://signals:wrong-password@127.0.0.1:${redis.port}`), 'a wrong password: refused')
  t.notOk(await refused(`redis://signals:${REDIS_PASSWORD}@127.0.0.1:${redis.port}`), 'the ACL user: accepted')
})
