import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { Registry } from 'prom-client'
import { connectBus } from '@signals/bus'
import { TEST_NATS_URL, deleteNamespaceStreams, testNamespace } from '@signals/test-support'
import { IntakeLog, type IntakeLogOptions } from '../../src/intake/intake-log.ts'
import type { IntakeEntry } from '../../src/intake/intake-state.ts'
import { build, watchNamespace } from '../helper.ts'

const entry = (): IntakeEntry => ({
  version: 1,
  intakeId: randomUUID(),
  receivedAt: new Date().toISOString(),
  source: 'body',
  contentType: 'text/plain',
  remoteAddress: '127.0.0.1',
  rawBody: 'Action: Buy',
  outcome: 'missing_user_id',
  statusCode: 400,
  reason: 'user_id required',
  alertId: null,
  kind: null,
})

/** An IntakeLog on its own bus connection and namespace, its process-log lines and metrics captured. */
async function standaloneIntakeLog(t: Test, options: IntakeLogOptions = {}) {
  const namespace = testNamespace()
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'intake-log-test', namespace })
  t.teardown(async () => {
    await bus.close()
    await deleteNamespaceStreams(namespace)
  })
  const watcher = await watchNamespace(t, namespace)
  const lines: string[] = []
  const registry = new Registry()
  const intakeLog = new IntakeLog(bus, pino({ level: 'info' }, { write: (line: string) => lines.push(line) }), registry, options)
  return { bus, watcher, lines, registry, intakeLog }
}

t.test('entries recorded just before the app closes still reach the bus', async (t) => {
  const { app, watcher } = await build(t)
  const responses = await Promise.all(Array.from({ length: 20 }, (_, n) => app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', user_id: 'u1', id: `close-${n}` } })))
  t.ok(responses.every((response) => response.statusCode === 200))
  await app.close()
  const entries = await watcher.intakeEntries(20)
  t.equal(entries.length, 20)
  t.same(watcher.invalid, [])
})

t.test('an entry that cannot wait is written whole to the process log and counted, never dropped silently', async (t) => {
  const { intakeLog, watcher, lines, registry } = await standaloneIntakeLog(t, { maxPending: 1 })

  const delivered = entry()
  intakeLog.record(delivered)
  const overflow = entry()
  intakeLog.record(overflow)
  await intakeLog.close()
  await watcher.intakeEntries(1)
  t.same(watcher.intake.map((message) => message.intakeId), [delivered.intakeId], 'the first entry reached the bus')
  const dropped = lines.map((line) => JSON.parse(line) as { msg: string; reason: string; intakeLogEntry: IntakeEntry }).find((line) => line.intakeLogEntry?.intakeId === overflow.intakeId)
  t.match(dropped, { reason: 'intake-log backlog full', intakeLogEntry: overflow }, 'the overflowing entry is in the process log, whole')
  t.match(await registry.metrics(), /ingest_intake_log_dropped_total(\{[^}]*\})? 1/)
  t.match(await registry.metrics(), /ingest_intake_log_published_total(\{[^}]*\})? 1/)

  intakeLog.record(entry())
  t.equal(lines.filter((line) => line.includes('service closing')).length, 1, 'after close, entries go to the process log')
})

t.test('entries recorded together travel in one batch message, each entry once', async (t) => {
  const { app, watcher } = await build(t)
  const responses = await Promise.all(Array.from({ length: 40 }, (_, n) => app.inject({ method: 'POST', url: '/webhook/alert', payload: { action: 'buy', user_id: 'u1', id: `batch-${n}` } })))
  t.ok(responses.every((response) => response.statusCode === 200))
  const entries = await watcher.intakeEntries(40)
  t.equal(new Set(entries.map((entry) => entry.intakeId)).size, 40, 'forty distinct entries')
  t.ok(watcher.intakeBatches.length < 40, `in fewer messages than entries (${watcher.intakeBatches.length})`)
  t.same(watcher.invalid, [])
})

t.test('an entry larger than one bus message goes to the process log whole; the others still travel', async (t) => {
  const { intakeLog, watcher, lines } = await standaloneIntakeLog(t)
  const huge = { ...entry(), rawBody: '"'.repeat(1024 * 1024) }
  const normal = entry()
  intakeLog.record(huge)
  intakeLog.record(normal)
  await intakeLog.close()
  await watcher.intakeEntries(1)
  t.same(watcher.intake.map((message) => message.intakeId), [normal.intakeId])
  const kept = lines.map((line) => JSON.parse(line) as { reason?: string; intakeLogEntry?: IntakeEntry }).find((line) => line.intakeLogEntry?.intakeId === huge.intakeId)
  t.equal(kept?.reason, 'entry larger than the bus takes in one message')
  t.equal(kept?.intakeLogEntry?.rawBody.length, huge.rawBody.length, 'kept whole')
})

t.test('large entries are split over several batch messages, each within the bus message size', async (t) => {
  const { intakeLog, watcher, bus } = await standaloneIntakeLog(t)
  // Two-byte characters: 30 entries of 40 KiB of UTF-8 each, 1.2 MiB in all.
  const entries = Array.from({ length: 30 }, () => ({ ...entry(), rawBody: '\u00e9'.repeat(20 * 1024) }))
  for (const item of entries) intakeLog.record(item)
  await intakeLog.close()
  await watcher.intakeEntries(30)
  t.same(watcher.intake.map((message) => message.intakeId).sort(), entries.map((item) => item.intakeId).sort(), 'every entry arrived once')
  t.ok(watcher.intakeBatches.length >= 2, `in ${watcher.intakeBatches.length} messages`)
  const maxPayload = bus.nc.info?.max_payload ?? 1024 * 1024
  for (const batch of watcher.intakeBatches) t.ok(Buffer.byteLength(JSON.stringify(batch)) < maxPayload, 'each message fits')
})
