import t from 'tap'
import { randomUUID } from 'node:crypto'
import { INTAKE_LOG_BATCH_MAX_ENTRIES, type IntakeLogEntry } from '@signals/contracts'
import { Durables } from '../../src/intake/plugin.ts'
import { build, drained, eventually, publishIntake } from '../helper.ts'

const entry = (overrides: Partial<IntakeLogEntry> = {}): IntakeLogEntry => ({
  version: 1,
  intakeId: randomUUID(),
  receivedAt: '2026-11-21T07:00:00.123Z',
  source: 'body',
  contentType: 'text/plain',
  remoteAddress: '203.0.113.9',
  rawBody: 'Action: Buy\nSymbol: NQ1!',
  outcome: 'accepted' as IntakeLogEntry['outcome'],
  statusCode: 200,
  reason: null,
  alertId: randomUUID(),
  kind: 'entry',
  ...overrides,
})

t.test('every webhook outcome is written to intake_log once, a batch in one go', async (t) => {
  const { app, db } = await build(t)
  const accepted = entry()
  const refused = entry({ outcome: 'missing_user_id' as IntakeLogEntry['outcome'], statusCode: 400, reason: 'user_id required', alertId: null, kind: null, source: 'query', contentType: null, remoteAddress: null })
  const batchId = randomUUID()
  await publishIntake(app, [accepted, refused], batchId)
  await publishIntake(app, [accepted, refused], batchId)
  const laterBatch = [entry(), accepted]
  await publishIntake(app, laterBatch)
  await drained(app, 'INTAKE', Durables.intakeLog)
  const rows = await db.selectFrom('intake_log').selectAll().orderBy('id').execute()
  t.same(rows.map((row) => row.intake_id).sort(), [accepted.intakeId, refused.intakeId, laterBatch[0]!.intakeId].sort(), 'one row per intake id: a resent batch and a resent entry add nothing')
  t.match(rows.find((r) => r.intake_id === accepted.intakeId), {
    source: 'body', content_type: 'text/plain', remote_address: '203.0.113.9', raw_body: accepted.rawBody, outcome: 'accepted',
    status_code: 200, reason: null, alert_id: accepted.alertId, kind: 'entry',
  })
  t.equal(rows.find((r) => r.intake_id === accepted.intakeId)?.received_at.toISOString(), '2026-11-21T07:00:00.123Z')
  t.match(rows.find((r) => r.intake_id === refused.intakeId), { outcome: 'missing_user_id', status_code: 400, reason: 'user_id required', alert_id: null, kind: null })
  t.match(await app.metrics.metrics(), /connector_records_written_total\{[^}]*kind="intake"[^}]*\} 3/)
})

t.test('a full batch is written in one statement', async (t) => {
  const { app, db } = await build(t)
  const entries = Array.from({ length: INTAKE_LOG_BATCH_MAX_ENTRIES }, () => entry({ rawBody: 'x'.repeat(200) }))
  await publishIntake(app, entries)
  await drained(app, 'INTAKE', Durables.intakeLog)
  const { count } = await db.selectFrom('intake_log').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow()
  t.equal(Number(count), INTAKE_LOG_BATCH_MAX_ENTRIES)
})

t.test('a body Postgres cannot store as text (a NUL byte, a lone surrogate) is escaped, and the good entries beside it are written (issue 22 item 7)', async (t) => {
  const { app, db } = await build(t)
  const good = [entry(), entry({ outcome: 'invalid' as IntakeLogEntry['outcome'], statusCode: 400, reason: 'bad', alertId: null, kind: null })]
  const withNul = entry({ rawBody: 'Action: Buy\u0000\nSymbol: NQ1!', reason: 'quoted \u0000 here', contentType: 'text/plain\u0000', outcome: 'invalid' as IntakeLogEntry['outcome'], statusCode: 400, alertId: null, kind: null })
  const withSurrogate = entry({ rawBody: 'half a pair: \ud800 end', outcome: 'invalid' as IntakeLogEntry['outcome'], statusCode: 400, alertId: null, kind: null })
  await publishIntake(app, [good[0]!, withNul, withSurrogate, good[1]!])
  const count = async () => Number((await db.selectFrom('intake_log').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow()).count)
  await eventually(async () => (await count()) === 4, 10_000).catch(() => undefined)
  const rows = await db.selectFrom('intake_log').selectAll().execute()
  t.same(rows.map((row) => row.intake_id).sort(), [...good, withNul, withSurrogate].map((e) => e.intakeId).sort(), 'every entry of the batch is written')
  t.match(rows.find((row) => row.intake_id === withNul.intakeId), { raw_body: 'Action: Buy\\u0000\nSymbol: NQ1!', reason: 'quoted \\u0000 here', content_type: 'text/plain\\u0000' }, 'the NUL is written as the text \\u0000')
  t.equal(rows.find((row) => row.intake_id === withSurrogate.intakeId)?.raw_body, 'half a pair: \ufffd end', 'a lone surrogate becomes U+FFFD')
  const deadLetters = await app.bus.jsm.streams.info(app.bus.stream('DEAD_LETTERS'))
  t.equal(deadLetters.state.messages, 0, 'nothing was dead-lettered')
})

t.test('an entry Postgres refuses for any other data reason is set aside alone; the rest of its batch is written (issue 22 item 7)', async (t) => {
  const { app, db } = await build(t)
  const good = [entry(), entry()]
  const outOfRange = entry({ receivedAt: '0000-01-01T00:00:00Z' })
  await publishIntake(app, [good[0]!, outOfRange, good[1]!])
  const count = async () => Number((await db.selectFrom('intake_log').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow()).count)
  await eventually(async () => (await count()) === 2, 10_000).catch(() => undefined)
  await drained(app, 'INTAKE', Durables.intakeLog)
  const rows = await db.selectFrom('intake_log').select('intake_id').execute()
  t.same(rows.map((row) => row.intake_id).sort(), good.map((e) => e.intakeId).sort(), 'the good entries are written')
  const deadLetters = await app.bus.jsm.streams.info(app.bus.stream('DEAD_LETTERS'))
  t.equal(deadLetters.state.messages, 0, 'the batch was not dead-lettered')
})
