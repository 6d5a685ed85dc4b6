import t from 'tap'
import { randomUUID } from 'node:crypto'
import type { IntakeLogMessage } from '@signals/contracts'
import { Durables } from '../../src/consumers/plugin.ts'
import { build, drained, publishIntake } from '../helper.ts'

const entry = (overrides: Partial<IntakeLogMessage> = {}): IntakeLogMessage => ({
  version: 1,
  intakeId: randomUUID(),
  receivedAt: '2026-11-21T07:00:00.123Z',
  source: 'body',
  contentType: 'text/plain',
  remoteAddress: '203.0.113.9',
  rawBody: 'Action: Buy\nSymbol: NQ1!',
  outcome: 'accepted' as IntakeLogMessage['outcome'],
  statusCode: 200,
  reason: null,
  alertId: randomUUID(),
  kind: 'entry',
  ...overrides,
})

t.test('every webhook outcome is written to intake_log once', async (t) => {
  const { app, db } = await build(t)
  const accepted = entry()
  const refused = entry({ outcome: 'missing_user_id' as IntakeLogMessage['outcome'], statusCode: 400, reason: 'user_id required', alertId: null, kind: null, source: 'query', contentType: null, remoteAddress: null })
  await publishIntake(app, accepted)
  await publishIntake(app, refused)
  await publishIntake(app, accepted, 'resent-under-another-id')
  await drained(app, 'INTAKE', Durables.intakeLog)
  const rows = await db.selectFrom('intake_log').selectAll().orderBy('id').execute()
  t.equal(rows.length, 2)
  t.match(rows.find((r) => r.intake_id === accepted.intakeId), {
    source: 'body', content_type: 'text/plain', remote_address: '203.0.113.9', raw_body: accepted.rawBody, outcome: 'accepted',
    status_code: 200, reason: null, alert_id: accepted.alertId, kind: 'entry',
  })
  t.equal(rows.find((r) => r.intake_id === accepted.intakeId)?.received_at.toISOString(), '2026-11-21T07:00:00.123Z')
  t.match(rows.find((r) => r.intake_id === refused.intakeId), { outcome: 'missing_user_id', status_code: 400, reason: 'user_id required', alert_id: null, kind: null })
})
