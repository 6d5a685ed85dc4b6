import type { Test } from 'tap'
import type { Database, Kysely } from '@signals/db'
import type { PaperBroker, PaperBrokerOptions } from '@signals/dev-paper-broker'
import { statusOf } from '../../feeds/feed-helper.ts'
import { eventually, type App } from '../../helper.ts'
import { connect, liveTrader, paperBroker, tradingApp } from '../../trading-helper.ts'
import { connectedTraderOn, type BrokerKind, type BrokerUnderTest } from '../../brokers-under-test.ts'

/** The account trader0 trades (the saved one). */
export const ACCOUNT = 9000

/**
 * A paper broker with MNQZ6 at 21000 and the connector reconciling every 300 ms (its status every 500 ms);
 * `before` runs at the broker before trader u-0's session opens; `options` start the broker (`onRequest`).
 */
export async function reconcilingTrader(t: Test, before: (broker: PaperBroker) => void = () => undefined, options: Partial<PaperBrokerOptions> = {}) {
  const broker = await paperBroker(t, options)
  broker.setPrice('MNQZ6', '21000')
  before(broker)
  const { app, db, config } = await tradingApp(t, broker, { POSITION_RECONCILE_MS: '300', FEED_STATUS_REFRESH_MS: '500', ...(process.env.DEBUG_LOG ? { LOG_LEVEL: 'warn' } : {}) }, process.env.DEBUG_LOG ? { loggerStream: process.stderr } : {})
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  return { broker, app, db, config }
}

/** `reconcilingTrader` at either paper broker (issue 23, item 6): the same reconciling connector. */
export const reconcilingTraderOn = (t: Test, kind: BrokerKind, before: (broker: BrokerUnderTest) => void = () => undefined) =>
  connectedTraderOn(t, kind, { overrides: { POSITION_RECONCILE_MS: '300', FEED_STATUS_REFRESH_MS: '500' }, before })

/** The account's signed position in a contract at the paper broker. */
export const netPosition = (broker: PaperBroker, contractId: number) =>
  broker.positions().find((position) => position.accountId === ACCOUNT && position.contractId === contractId)?.netPos ?? 0

export const discrepancies = (db: Kysely<Database>) => db.selectFrom('position_discrepancies').selectAll().orderBy('id').execute()

/** Waits until the feed status's detail says what `pattern` matches, and returns it. */
export async function statusSaying(app: App, pattern: RegExp): Promise<string> {
  let detail = ''
  await eventually(async () => pattern.test((detail = (await statusOf(app, 'u-0'))?.detail ?? '')), 10_000)
  return detail
}
