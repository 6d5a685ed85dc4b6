import t from 'tap'
import { sql } from 'kysely'
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { startTracing, stopTracing, withSpan } from '@signals/telemetry'
import { createTestDatabase } from '@signals/test-support'
import { createDb, prepared } from '../src/index.ts'
import { querySpans, statementOfText } from '../src/query-spans.ts'

// Issue 21 item 5: one span per SQL statement, named by its operation and table, a child of the caller's
// span; no SQL text and no parameter value on it. Real Postgres, real SDK with an in-memory exporter.

const SECRET = 'sk-live-do-not-trace-0123456789'
const exporter = new InMemorySpanExporter()

t.test('with tracing off no hook is made: Kysely times nothing', async (t) => {
  t.equal(querySpans('db-test'), undefined)
})

t.test('a raw statement is named by the statement a WITH leads to, and by the first table it reads', async (t) => {
  const cases: [string, string, string | undefined][] = [
    ['/* prepared */ WITH r AS MATERIALIZED (SELECT user_id FROM trading_settings) , created AS (INSERT INTO alerts (a) SELECT 1 FROM r RETURNING id) SELECT id FROM created', 'INSERT', 'alerts'],
    ['UPDATE alerts AS a SET reason = m.reason FROM unnest($1::bigint[]) AS m(id)', 'UPDATE', 'alerts'],
    ['INSERT INTO "intake_log" (x) VALUES ($1) ON CONFLICT (x) DO UPDATE SET x = excluded.x', 'INSERT', 'intake_log'],
    ['WITH c AS (SELECT id FROM alerts FOR UPDATE SKIP LOCKED) DELETE FROM public.trades t USING c', 'DELETE', 'public.trades'],
    ["SELECT EXTRACT(EPOCH FROM now()) AS t, id FROM unnest($1::int[]) AS u(id) JOIN users ON true", 'SELECT', undefined],
    ['select id from alerts where id = $1 for update', 'SELECT', 'alerts'],
    ['begin', 'BEGIN', undefined],
  ]
  for (const [text, operation, table] of cases) t.same(statementOfText(text), { operation, table }, text.slice(0, 60))
})

t.test('tracing on: each statement is a span under the caller, named and without values', async (t) => {
  await startTracing({ service: 'db-test', exporter, immediate: true })
  t.teardown(() => stopTracing())
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const db = createDb({ connectionString: database.url, max: 2, applicationName: 'db-test-service' })
  t.teardown(() => db.destroy())

  await withSpan('caller', 'caller', {}, async () => {
    await db.insertInto('users').values({ user_id: 'traced-user', email: SECRET }).execute()
    await db.selectFrom('users as u').select('u.email').where('u.email', '=', SECRET).execute()
    await db.updateTable('users').set({ name: SECRET }).where('user_id', '=', 'traced-user').execute()
    await sql`${prepared} WITH found AS (SELECT user_id FROM users WHERE email = ${SECRET}) INSERT INTO banned_emails (email, reason) SELECT ${SECRET}, ${SECRET} FROM found`.execute(db)
    await sql`SELECT ${SECRET}::uuid`.execute(db).catch(() => undefined)
    await db.deleteFrom('users').where('email', '=', SECRET).execute()
  })

  await db.selectFrom('users').select('user_id').execute()
  const spans = exporter.getFinishedSpans()
  const caller = spans.find((span) => span.name === 'caller') as ReadableSpan
  const statements = spans.filter((span) => span !== caller)
  t.same(
    statements.map((span) => span.name),
    ['INSERT users', 'SELECT users', 'UPDATE users', 'INSERT banned_emails', 'SELECT', 'DELETE users'],
    'one span per statement within the trace; none for the statement outside any',
  )
  for (const span of statements) {
    t.equal(span.parentSpanContext?.spanId, caller.spanContext().spanId, `${span.name}: a child of the caller`)
    t.equal(span.instrumentationScope.name, 'db-test-service', `${span.name}: named after the service`)
    t.ok(span.duration[0] > 0 || span.duration[1] > 0, `${span.name}: dated by the statement's duration`)
  }
  t.match(statements[0]?.attributes, { 'db.system.name': 'postgresql', 'db.operation.name': 'INSERT', 'db.collection.name': 'users' })
  const failed = statements[4] as ReadableSpan
  t.equal(failed.status.code, 2, 'a failed statement is a failed span')
  t.equal(failed.attributes['db.response.status_code'], '22P02', 'with its SQLSTATE')
  t.notOk(JSON.stringify(statements.map((span) => [span.name, span.attributes, span.status, span.events])).includes(SECRET), 'no parameter value on any span')
  t.notOk(JSON.stringify(statements.map((span) => span.status)).includes('invalid input syntax'), "nor Postgres' message, which quotes the value")
})
