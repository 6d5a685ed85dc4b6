import t from 'tap'
import { sql } from 'kysely'
import { startPrivatePostgres } from '@signals/test-support'
import { DATABASE_UNAVAILABLE, createDb } from '../src/index.ts'

t.test('while Postgres is down a query fails with a code that says so', async (t) => {
  const server = await startPrivatePostgres()
  t.teardown(() => server.destroy())
  const db = createDb({ connectionString: `${server.url}/postgres`, max: 2 })
  t.teardown(() => db.destroy())
  await sql`SELECT 1`.execute(db)

  await server.stop()
  const failure = await sql`SELECT 1`.execute(db).then(() => null, (error: unknown) => error)
  const code = (failure as { code?: unknown } | null)?.code
  t.ok(typeof code === 'string' && [DATABASE_UNAVAILABLE, 'ECONNREFUSED', '57P01'].includes(code), `classified by code (${String(code)})`)

  // A server error keeps its own SQLSTATE.
  await server.start()
  let error: unknown = null
  for (let i = 0; i < 50; i++) {
    error = await sql`SELECT * FROM no_such_table`.execute(db).then(() => null, (e: unknown) => e)
    if ((error as { code?: unknown }).code === '42P01') break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.equal((error as { code?: unknown }).code, '42P01')
})
