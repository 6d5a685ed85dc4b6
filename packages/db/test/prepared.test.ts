import t from 'tap'
import { createTestDatabase } from '@signals/test-support'
import { createDb, prepared, sql } from '../src/index.ts'

t.test('a statement marked prepared is parsed once per connection and then runs by name, with its own values each call', async (t) => {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const db = createDb({ connectionString: database.url, max: 1 })
  t.teardown(() => db.destroy())

  const square = (n: number) => sql<{ n: number }>`${prepared}SELECT (${n}::int * ${n}::int) AS n`.execute(db)
  t.same((await square(3)).rows, [{ n: 9 }])
  t.same((await square(4)).rows, [{ n: 16 }], 'the same statement, new values')
  const statements = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(db)
  t.equal(statements.rows.length, 1, 'one named statement on the connection, prepared once')
  t.match(statements.rows[0]?.statement, /^\/\* prepared \*\/ SELECT/)

  // An unmarked statement stays unnamed (its text may differ every call).
  await sql`SELECT ${1}::int AS one`.execute(db)
  t.equal((await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(db)).rows[0]?.n, 1)
})
