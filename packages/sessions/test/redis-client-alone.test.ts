import { execFileSync } from 'node:child_process'
import t from 'tap'
import { TEST_REDIS_URL } from '@signals/test-support'
import { createRedisClient } from '../src/redis-plugin.ts'

// node-redis's index loads its cluster and sentinel clients too; every service that holds sessions kept
// them, unused, for its life (docs/decisions/memory.md). In a process of its own, so nothing else loaded them.
t.test('the sessions client loads node-redis without its cluster and sentinel clients', async (t) => {
  const probe = `await import(${JSON.stringify(new URL('../src/redis-plugin.ts', import.meta.url).href)})
const { createRequire } = await import('node:module')
const loaded = Object.keys(createRequire(process.cwd() + '/').cache).filter((file) => file.includes('/@redis/client/dist/'))
console.log(JSON.stringify({ client: loaded.some((file) => file.includes('/lib/client/index.js')), others: loaded.filter((file) => /\\/lib\\/(cluster|sentinel)\\//.test(file)).length }))`
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { encoding: 'utf8' })
  t.same(JSON.parse(out.trim().split('\n').at(-1) ?? '{}'), { client: true, others: 0 })
})

t.test('the client sends what the sessions send', async (t) => {
  const client = createRedisClient(TEST_REDIS_URL)
  await client.connect()
  t.teardown(() => client.close())
  const key = `sessions-test:${process.pid}:${Date.now()}`
  t.equal(await client.ping(), 'PONG')
  t.equal(await client.set(key, 'a', { EX: 60 }), 'OK')
  t.same(await client.mGet([key, `${key}:none`]), ['a', null])
  t.equal(await client.eval('return redis.call("GET", KEYS[1])', { keys: [key], arguments: [] }), 'a')
  t.same(await client.multi().get(key).del(key).exec(), ['a', 1])
  t.equal(await client.exists(key), 0)
})
