import type { Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { FeedCommandV1, contract, type NormalizedAlert } from '@signals/contracts'
import { sql, type Database, type Kysely } from '@signals/db'
import { startPaperBroker, type PaperBroker, type PaperBrokerOptions } from '@signals/dev-paper-broker'
import type { Config } from '../src/config.ts'
import type { BuildOptions } from '../src/app.ts'
import { build, eventually, makeAlert, setLiveTrading, type App } from './helper.ts'
import { PASSWORD, saveCredentials } from './feeds/feed-helper.ts'


const commands = contract(FeedCommandV1)

/** A paper broker with accounts trader0..trader3 (account ids 9000..9003), closed after the test. */
export async function paperBroker(t: Test, options: Partial<PaperBrokerOptions> = {}): Promise<PaperBroker> {
  const broker = await startPaperBroker({
    accounts: [0, 1, 2, 3].map((i) => ({ name: `trader${i}`, password: PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `DEMO${9000 + i}` })),
    heartbeatMs: 200,
    ...options,
  })
  t.teardown(() => broker.close())
  return broker
}

/** The connector with feeds, against this paper broker (its own database and bus namespace). */
export async function tradingApp(t: Test, broker: PaperBroker, overrides: Record<string, string> = {}, options: BuildOptions = {}) {
  return build(
    t,
    { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl, ENTRY_SESSION_WAIT_MS: '3000', CONSUMER_ACK_WAIT_MS: '2000', ...overrides },
    { feeds: true, ...options },
  )
}

/** An approved trader with live trading on, paper credentials and (optionally) a risk configuration. */
export async function liveTrader(
  db: Kysely<Database>,
  config: Config,
  trader: { userId: string; username: string; autoPlace?: boolean; riskConfig?: unknown },
) {
  await sql`INSERT INTO users (user_id, email, approved) VALUES (${trader.userId}, ${`${trader.userId}@example.com`}, true)`.execute(db)
  await setLiveTrading(db, [trader.userId], { enabled: true, autoPlaceOrders: trader.autoPlace ?? true })
  if (trader.riskConfig !== undefined) await savePrimaryRiskConfig(db, trader.userId, trader.riskConfig)
  await saveCredentials(db, config, trader.userId, trader.username)
}

/**
 * Saves (or replaces) the trader's primary account's risk configuration: the row the settings service's
 * `/api/risk-engine/config` writes and the connector reads for the primary (docs/decisions/accounts.md).
 */
export async function savePrimaryRiskConfig(db: Kysely<Database>, userId: string, riskConfig: unknown) {
  const saved = await sql`INSERT INTO account_risk_configs (account_id, user_id, config)
    SELECT id, user_id, ${JSON.stringify(riskConfig)}::jsonb FROM broker_accounts WHERE user_id = ${userId} AND is_primary
    ON CONFLICT (account_id) DO UPDATE SET config = EXCLUDED.config, updated_at = now()`.execute(db)
  if (saved.numAffectedRows !== 1n) throw new Error(`no primary account for ${userId}`)
}

export function feedCommand(app: App, userId: string, action: 'start' | 'stop' | 'restart') {
  const commandId = randomUUID()
  return app.bus.publish(`feeds.${action}`, commands, { version: 1, commandId, userId, action, reason: 'test', requestedAt: new Date().toISOString() }, { messageId: commandId })
}

/** Starts the user's feed and waits for the connector to hold the session. */
export async function connect(app: App, userId: string) {
  await feedCommand(app, userId, 'start')
  await eventually(() => app.feeds.session(userId) !== null)
}

/**
 * The common start of a trading test: a paper broker with MNQZ6 at 21000, the connector with feeds, and
 * trader u-0 (trader0) live with orders placed automatically, its session held. `price: null` leaves
 * MNQZ6 without a market price (entries are then refused: no quote to size them from).
 */
export async function connectedTrader(t: Test, options: { price?: string | null; overrides?: Record<string, string> } = {}) {
  const broker = await paperBroker(t)
  const price = options.price === undefined ? '21000' : options.price
  if (price !== null) broker.setPrice('MNQZ6', price)
  const { app, db, config } = await tradingApp(t, broker, options.overrides)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  return { broker, app, db, config }
}

/**
 * An MNQ entry: 50 points of stop at $2 a point is $100 a contract, so the default $500 budget buys 5 (the
 * default limit per order too), with the market where the alert says (21000).
 */
export function mnqEntry(overrides: Partial<NormalizedAlert> = {}): NormalizedAlert {
  return makeAlert({ symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', entryPrice: 21000, sl: 20950, tp: 21100, ...overrides })
}

export async function recordOf(db: Kysely<Database>, alertId: string) {
  return db.selectFrom('alerts').selectAll().where('alert_id', '=', alertId).where('is_test', '=', false).executeTakeFirstOrThrow()
}

/** Waits until the alert's record has left `received` / `placing`, and returns it. */
export async function settledRecord(db: Kysely<Database>, alertId: string, timeoutMs = 15_000) {
  await eventually(async () => {
    const row = await db.selectFrom('alerts').select('status').where('alert_id', '=', alertId).executeTakeFirst()
    return row !== undefined && row.status !== 'received' && row.status !== 'placing'
  }, timeoutMs)
  return recordOf(db, alertId)
}

export async function tradeOfRecord(db: Kysely<Database>, recordId: number) {
  return db.selectFrom('trades').selectAll().where('alert_record_id', '=', recordId).executeTakeFirst()
}
