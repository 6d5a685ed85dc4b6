import t from 'tap'
import { sql } from 'kysely'
import { eventually, startPrivatePostgres } from '@signals/test-support'
import { createDb, isDatabaseReachable } from '../src/index.ts'

t.test('a pool survives a Postgres restart: the process stays up and queries work again', async (t) => {
  const server = await startPrivatePostgres()
  t.teardown(() => server.destroy())
  const warnings: string[] = []
  const db = createDb({
    connectionString: `${server.url}/postgres`,
    max: 3,
    logger: { warn: (_o, message) => warnings.push(message) },
  })
  t.teardown(() => db.destroy())

  // Hold idle connections in the pool, so the restart hits clients that are not in use.
  await Promise.all([1, 2, 3].map(() => sql`SELECT pg_sleep(0.05)`.execute(db)))
  t.ok(await isDatabaseReachable(db))

  await server.stop()
  // The idle connections' errors reach the pool as the server ends them: handled and logged, not thrown.
  await eventually(() => warnings.length >= 1, { what: 'the pool to log the lost idle connections' })
  t.notOk(await isDatabaseReachable(db), 'queries fail while the server is down')

  await server.start()
  let reachable = false
  for (let i = 0; i < 50 && !reachable; i++) {
    reachable = await isDatabaseReachable(db)
    if (!reachable) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.ok(reachable, 'queries work again once the server is back')
  const { rows } = await sql<{ n: number }>`SELECT 41 + 1 AS n`.execute(db)
  t.equal(rows[0]?.n, 42)
})
