import type { Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { Writable } from 'node:stream'
import { loadConfig } from '@signals/config'
import { AlertMessageV1, IntakeLogBatchV1, contract, type IntakeLogEntry, type NormalizedAlert } from '@signals/contracts'
import { ensureDatabase, migrateToLatest, sql, type Database, type Kysely } from '@signals/db'
import { IDENTITY_HEADER } from '@signals/http-kit'
import { signIdentitiesOnInject, unsignedIdentity, eventually as pollUntil, createTestDatabase, testNamespace, deleteNamespaceStreams, startPrivatePostgres } from '@signals/test-support'
import { buildApp, type BuildOptions } from '../src/app.ts'
import { ConfigSchema, type Config } from '../src/config.ts'

export type App = Awaited<ReturnType<typeof buildApp>>

/**
 * Builds the broker-connector app against real services (its own database and bus namespace) and tears it
 * down. Broker feeds are off unless the test asks for them (`feeds: true`).
 */
export async function build(t: Test, overrides: Record<string, string> = {}, buildOptions: BuildOptions = {}) {
  const options: BuildOptions = { feeds: false, ...buildOptions }
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const config: Config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: database.url, BUS_NAMESPACE: namespace, ...overrides })
  const app = await buildApp(config, options)
  signIdentitiesOnInject(app, config.INTERNAL_AUTH_SECRET, 'broker-connector')
  t.teardown(() => app.close())
  await app.ready()
  // The shards taken at start read their live users just after it returns: a trader the test makes live
  // next must not be resumed behind its back (a session it has not opened yet).
  if (options.feeds) await app.feeds.resumed()
  return { app, config, database, namespace, db: app.db }
}

/** Another connector instance on the same database, namespace and durable consumers. */
export async function buildInstance(t: Test, config: Config, options: BuildOptions = {}): Promise<App> {
  const app = await buildApp(config, { feeds: false, ...options })
  signIdentitiesOnInject(app, config.INTERNAL_AUTH_SECRET, 'broker-connector')
  t.teardown(() => app.close())
  await app.ready()
  return app
}

export const alertContract = contract(AlertMessageV1)
export const intakeContract = contract(IntakeLogBatchV1)

/** A normalized alert as ingest publishes it; override what the test is about. */
export function makeAlert(overrides: Partial<NormalizedAlert> = {}): NormalizedAlert {
  const raw = { action: 'Buy', symbol: 'NQ1!', entryPrice: 21000.25, sl: 20950, tp: 21100.5, user_id: 'owner' }
  return {
    version: 1,
    alertId: randomUUID(),
    kind: 'entry',
    receivedAt: new Date().toISOString(),
    action: 'LONG',
    symbol: 'NQ1!',
    root: 'NQ',
    entryPrice: 21000.25,
    sl: 20950,
    tp: 21100.5,
    exitPrice: null,
    indicator: 'trend-rider',
    userId: 'owner',
    leverage: 2,
    quantity: null,
    result: null,
    closes: null,
    isVendorTest: false,
    parseFailed: false,
    raw,
    ...overrides,
  }
}

export const subjectOf = (alert: NormalizedAlert) => `alerts.${alert.kind}`

/** Publishes like ingest does: message id = alertId (pass `messageId` to simulate a second publish). */
export async function publishAlert(app: App, alert: NormalizedAlert, subject = subjectOf(alert), messageId = alert.alertId) {
  return app.bus.publish(subject, alertContract, alert, { messageId })
}

/** Publishes entries as ingest does: one batch message, its batch id the message id. */
export async function publishIntake(app: App, entries: IntakeLogEntry[], batchId: string = randomUUID()) {
  return app.bus.publish('intake.log', intakeContract, { version: 1, batchId, entries }, { messageId: batchId })
}

/**
 * Users `${prefix}-0..n-1`, approved, with a live_trading setting (`live` decides enabled; `autoPlace`
 * decides autoPlaceOrders, off unless asked: intake tests place no orders), in one statement each table.
 */
export async function seedUsers(
  db: Kysely<Database>,
  count: number,
  options: { prefix?: string; live?: boolean; approved?: boolean; autoPlace?: boolean } = {},
) {
  const prefix = options.prefix ?? 'user'
  const live = options.live ?? true
  if (count === 0) return [] as string[]
  await sql`
    INSERT INTO users (user_id, email, name, approved)
    SELECT ${prefix} || '-' || g, ${prefix} || '-' || g || '@example.com', 'Trader ' || g, ${options.approved ?? true}
    FROM generate_series(0, ${count - 1}::int) AS g`.execute(db)
  const userIds = Array.from({ length: count }, (_, i) => `${prefix}-${i}`)
  await setLiveTrading(db, userIds, { enabled: live, autoPlaceOrders: options.autoPlace ?? false })
  return userIds
}

/**
 * Saves the spec's live_trading setting of these users as the settings service does: their primary account's
 * switches (each user has one from the trigger on `users`), the row the connector reads.
 */
export async function setLiveTrading(db: Kysely<Database>, userIds: readonly string[], switches: { enabled: boolean; autoPlaceOrders: boolean }): Promise<void> {
  await sql`
    UPDATE broker_accounts SET live_trading = ${switches.enabled}, auto_place = ${switches.autoPlaceOrders}, switches_updated_at = clock_timestamp()
    WHERE is_primary AND user_id = ANY(${userIds}::text[])`.execute(db)
}

/** The user's live_trading setting as the spec shows it: their primary account's switches. */
export async function liveTradingOf(db: Kysely<Database>, userId: string): Promise<{ enabled: boolean; autoPlaceOrders: boolean }> {
  const row = await db.selectFrom('broker_accounts').select(['live_trading', 'auto_place']).where('user_id', '=', userId).where('is_primary', '=', true).executeTakeFirstOrThrow()
  return { enabled: row.live_trading, autoPlaceOrders: row.auto_place }
}

/** Settles records as an entry flow would, for tests of intake alone: how many this call claimed. */
export async function claimRecords(db: Kysely<Database>, records: readonly { id: number }[]): Promise<number> {
  const ids = records.map((record) => record.id)
  const result = await sql`UPDATE alerts SET status = 'not_placed', reason = 'test flow' WHERE id = ANY(${ids}::bigint[]) AND status = 'received'`.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}

/** Resolves when `predicate` holds, polling every 25 ms; rejects after `timeoutMs`. */
export const eventually = (predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> =>
  pollUntil(predicate, { timeoutMs, intervalMs: 25 })

/** Waits until a durable consumer has nothing pending or unacknowledged. */
export async function drained(app: App, stream: string, durable: string, timeoutMs = 15_000): Promise<void> {
  await eventually(async () => {
    const info = await app.bus.jsm.consumers.info(app.bus.stream(stream), durable).catch(() => undefined)
    return info !== undefined && info.num_pending === 0 && info.num_ack_pending === 0
  }, timeoutMs)
}

export async function countRows(db: Kysely<Database>, query: ReturnType<typeof sql<{ count: number }>>): Promise<number> {
  const result = await query.execute(db)
  return Number(result.rows[0]?.count ?? 0)
}

/** Headers the gateway adds for a signed-in user. */
export function identityHeaders(_config: Config, userId: string) {
  return { [IDENTITY_HEADER]: unsignedIdentity({ userId, email: `${userId}@example.com`, role: 'trader', approved: true }) }
}

/**
 * A Postgres server of the test's own (so it can be stopped and started: an outage), migrated, with a bus
 * namespace of its own; both removed at the end of the test.
 */
export async function privatePostgres(t: Test) {
  const postgres = await startPrivatePostgres()
  t.teardown(() => postgres.destroy())
  const url = `${postgres.url}/signals`
  await ensureDatabase(url)
  const { error } = await migrateToLatest(url)
  if (error) throw error
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  return { postgres, url, namespace }
}

/** A logger stream handing each JSON log line, parsed, to `onLine`. */
export function jsonLogStream<L>(onLine: (line: L) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) onLine(JSON.parse(line) as L)
      done()
    },
  })
}
