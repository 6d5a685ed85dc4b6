import t from 'tap'
import {
  FeedCommandV1,
  IntakeLogEntryV1,
  IntakeLogBatchV1,
  INTAKE_LOG_BATCH_MAX_ENTRIES,
  NormalizedAlertV1,
  SignalSourceKeyV1,
  contract,
  describeIssues,
  feedStatusKey,
  type NormalizedAlert,
} from '../src/index.ts'

const alert: NormalizedAlert = {
  version: 1,
  alertId: 'a1',
  kind: 'entry',
  receivedAt: new Date().toISOString(),
  action: 'LONG',
  symbol: 'NQ1!',
  root: 'NQ',
  entryPrice: 21000.25,
  sl: 20950,
  tp: 21100,
  exitPrice: null,
  indicator: 'Breakout',
  userId: 'u1',
  leverage: null,
  quantity: null,
  result: null,
  closes: null,
  isVendorTest: false,
  parseFailed: false,
  raw: { action: 'Buy' },
}

t.test('a normalized alert validates; a wrong one is refused with the field named', async (t) => {
  const normalized = contract(NormalizedAlertV1)
  t.ok(normalized.check(alert))
  const wrong = normalized.validate({ ...alert, action: 'BUY', extra: 1 })
  t.equal(wrong.ok, false)
  if (!wrong.ok) t.match(describeIssues(wrong.issues), /\/action|extra/)
  t.equal(normalized.problem(alert), null, 'problem: none for a valid alert')
  t.match(normalized.problem({ ...alert, action: 'BUY' }), /\/action/, 'problem: the issue, in one line')
  t.notOk(normalized.check({ ...alert, version: 2 }), 'another version is another contract')
  t.notOk(normalized.check({ ...alert, entryPrice: '21000' }), 'prices are numbers')
  t.ok(normalized.check({ ...alert, parseFailed: true, raw: { _raw: true, text: 'garbage' }, action: null, symbol: null }))
  // Issue 22: the signal source an alert came through; optional (the spec's route sends none), a uuid when sent.
  t.ok(normalized.check({ ...alert, sourceId: '0b7c6a3e-1f2d-4c5b-8a9e-0123456789ab' }))
  t.match(normalized.problem({ ...alert, sourceId: 'not-a-source' }), /\/sourceId/)
  t.notOk(normalized.check({ ...alert, sourceId: null }), 'absent, never null')
})

t.test('a signal source key (the SIGNAL_SOURCES bucket entry ingest reads)', async (t) => {
  const key = contract(SignalSourceKeyV1)
  t.ok(key.check({ version: 1, sourceId: '0b7c6a3e-1f2d-4c5b-8a9e-0123456789ab', ownerUserId: 'alice' }))
  t.ok(key.check({ version: 1, sourceId: '0b7c6a3e-1f2d-4c5b-8a9e-0123456789ab', ownerUserId: null }), 'an operator source')
  t.notOk(key.check({ version: 1, sourceId: '0b7c6a3e-1f2d-4c5b-8a9e-0123456789ab' }), 'the owner is always said')
  t.notOk(key.check({ version: 1, sourceId: 'x', ownerUserId: null }))
})

t.test('intake log and feed command contracts', async (t) => {
  const entry = {
    version: 1,
    intakeId: 'i1',
    receivedAt: new Date().toISOString(),
    source: 'body',
    contentType: 'text/plain',
    remoteAddress: '127.0.0.1',
    rawBody: 'Action: Buy',
    outcome: 'missing_user_id',
    statusCode: 400,
    reason: 'user_id required',
    alertId: null,
    kind: 'entry',
  }
  t.ok(contract(IntakeLogEntryV1).check(entry))
  const batch = contract(IntakeLogBatchV1)
  t.ok(batch.check({ version: 1, batchId: 'b1', entries: [entry, { ...entry, intakeId: 'i2' }] }))
  t.notOk(batch.check({ version: 1, batchId: 'b1', entries: [] }), 'a batch carries at least one entry')
  t.notOk(batch.check({ version: 1, batchId: 'b1', entries: [{ ...entry, outcome: 'lost' }] }), 'every entry is checked')
  t.notOk(
    batch.check({ version: 1, batchId: 'b1', entries: Array.from({ length: INTAKE_LOG_BATCH_MAX_ENTRIES + 1 }, () => entry) }),
    'a batch stays within what one statement writes',
  )
  const feed = contract(FeedCommandV1)
  t.ok(feed.check({ version: 1, commandId: 'c1', userId: 'u1', action: 'start', reason: 'live trading enabled', requestedAt: new Date().toISOString() }))
  t.notOk(feed.check({ version: 1, commandId: 'c1', userId: 'u1', action: 'pause', reason: '', requestedAt: new Date().toISOString() }))
})

t.test('feed status keys are valid KV keys for any user id', async (t) => {
  for (const id of ['1234567890', 'google|abc', 'ü ser/with spaces']) t.match(feedStatusKey(id), /^[-_=A-Za-z0-9]+$/)
  t.not(feedStatusKey('a'), feedStatusKey('b'))
})

t.test('date-times are checked in full; a repeated valid one is remembered, never an invalid one', async (t) => {
  const feed = contract(FeedCommandV1)
  const command = (requestedAt: string) => ({ version: 1, commandId: 'c1', userId: 'u1', action: 'start', reason: 'r', requestedAt })
  const now = new Date().toISOString()
  t.ok(feed.check(command(now)))
  t.ok(feed.check(command(now)), 'the same timestamp again')
  t.notOk(feed.check(command('2026-13-01T00:00:00Z')), 'month 13 after a valid one')
  t.notOk(feed.check(command(now.replace('T', ' '))), 'not RFC 3339')
  t.ok(feed.check(command('2026-02-28T23:59:59.999+01:00')))
  t.notOk(feed.check(command('2026-02-29T00:00:00Z')), 'no 29 February in 2026')
})
