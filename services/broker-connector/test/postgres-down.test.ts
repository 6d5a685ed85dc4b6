import t from 'tap'
import { randomUUID } from 'node:crypto'
import { loadConfig } from '@signals/config'
import { sql } from '@signals/db'
import { buildApp } from '../src/app.ts'
import { ConfigSchema } from '../src/config.ts'
import { Durables } from '../src/intake/plugin.ts'
import { countRows, drained, eventually, jsonLogStream, makeAlert, privatePostgres, publishAlert, publishIntake, seedUsers } from './helper.ts'

const ALERTS = 20
const USERS = 5

t.test('Postgres down: messages are nak\'ed with growing delay and all processed once it returns, none lost', async (t) => {
  const { postgres, url, namespace } = await privatePostgres(t)

  const logLines: { msg: string; deliveryCount?: number; delayMs?: number; subject?: string }[] = []
  const logStream = jsonLogStream<(typeof logLines)[number]>((line) => logLines.push(line))
  // A small delivery budget: were an outage to count against it, one this long would dead-letter.
  const config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', DATABASE_URL: url, BUS_NAMESPACE: namespace, CONSUMER_MAX_ATTEMPTS: '4' })
  const app = await buildApp(config, { loggerStream: logStream })
  t.teardown(() => app.close())
  await app.ready()
  await seedUsers(app.db, USERS, { prefix: 'live' })

  await postgres.stop()
  const alerts = Array.from({ length: ALERTS }, () => makeAlert())
  for (const alert of alerts) await publishAlert(app, alert)
  const intakeIds = Array.from({ length: 5 }, () => randomUUID())
  for (const intakeId of intakeIds) {
    await publishIntake(app, [{
      version: 1, intakeId, receivedAt: new Date().toISOString(), source: 'body', contentType: 'application/json', remoteAddress: null,
      rawBody: '{}', outcome: 'invalid', statusCode: 400, reason: 'no fields', alertId: null, kind: null,
    }])
  }
  // Let the consumers fail past their budget of 4 deliveries while the database is away.
  const waits = () => logLines.filter((line) => line.msg === 'dependency unavailable; the message waits for it' && line.subject?.endsWith('alerts.entry'))
  await eventually(() => waits().some((line) => (line.deliveryCount ?? 0) > 4), 30_000)
  const retries = waits()
  const firstAlertDelays = retries.filter((line) => line.deliveryCount !== undefined).slice(0, 3)
  t.ok(firstAlertDelays.length >= 2, 'failures were nak\'ed for redelivery')
  const byDelivery = new Map<number, number>()
  for (const line of retries) if (line.deliveryCount && line.delayMs !== undefined) byDelivery.set(line.deliveryCount, line.delayMs)
  const d1 = byDelivery.get(1)
  const d2 = byDelivery.get(2)
  t.ok(d1 !== undefined && d2 !== undefined && d2 > d1, `the delay grows (${d1} ms, then ${d2} ms)`)

  await postgres.start()
  await eventually(async () => (await countRows(app.db, sql<{ count: number }>`SELECT count(*)::int AS count FROM alerts`)) === ALERTS * USERS, 60_000)
  await eventually(async () => (await countRows(app.db, sql<{ count: number }>`SELECT count(*)::int AS count FROM intake_log`)) === intakeIds.length, 30_000)
  await drained(app, 'ALERTS', Durables.entry, 30_000)
  const perPair = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alerts GROUP BY alert_id, user_id HAVING count(*) > 1`.execute(app.db)
  t.equal(perPair.rows.length, 0, 'no duplicates')
  t.equal(await countRows(app.db, sql<{ count: number }>`SELECT count(*)::int AS count FROM alerts WHERE status = 'not_placed'`), ALERTS * USERS, 'all handed off')
  const deadLetters = await app.bus.jsm.streams.info(app.bus.stream('DEAD_LETTERS'))
  t.equal(deadLetters.state.messages, 0, 'nothing was dead-lettered')
})
