import t from 'tap'
import { loadConfig } from '@signals/config'
import type { Bus } from '@signals/bus'
import { sql } from '@signals/db'
import { createTestDatabase, deleteNamespaceStreams, testNamespace } from '@signals/test-support'
import { buildApp } from '../../src/app.ts'
import { ConfigSchema } from '../../src/config.ts'
import { eventually, makeAlert, publishAlert, seedUsers } from '../helper.ts'

t.test('closing the app lets an in-flight alert handler finish on a live database pool before the pool closes', async (t) => {
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const seen: string[] = []
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: database.url, BUS_NAMESPACE: namespace })
  const app = await buildApp(config, {
    feeds: false,
    entryFlow: (flowDb) => ({
      async handOff() {
        seen.push('handler started')
        await released
        // Written through the app's pool after close() was called: it must still be open.
        const result = await sql<{ one: number }>`SELECT 1 AS one`.execute(flowDb)
        seen.push(`handler queried ${result.rows[0]?.one}`)
      },
    }),
  })
  t.teardown(() => app.close())
  // Observed before the app is ready (the consumers start then): the moment close() reaches the consumers'
  // stop, which waits for the handler, and the moment the pool is destroyed.
  let stopping: () => void = () => undefined
  const consumersStopping = new Promise<void>((resolve) => {
    stopping = resolve
  })
  const consume = app.bus.consume.bind(app.bus)
  app.bus.consume = (async (options) => {
    const handle = await consume(options)
    return {
      ...handle,
      stop: () => {
        stopping()
        return handle.stop()
      },
    }
  }) as Bus['consume']
  const destroy = app.db.destroy.bind(app.db)
  app.db.destroy = async () => {
    seen.push('pool closing')
    await destroy()
  }
  await app.ready()
  await seedUsers(app.db, 1, { prefix: 'live' })
  await publishAlert(app, makeAlert())
  await eventually(() => seen.includes('handler started'))

  const closing = app.close().then(() => seen.push('app closed'))
  // close() has run every hook before the one that waits on the handler (a pool closed earlier shows here).
  await consumersStopping
  seen.push('released')
  release()
  await closing
  t.same(seen, ['handler started', 'released', 'handler queried 1', 'pool closing', 'app closed'], 'the handler finished, with the pool open, before the pool closed and close() resolved')
})
