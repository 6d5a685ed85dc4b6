import type { Test } from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import type { Interference, PaperBroker, TaggedOrder } from '@signals/dev-paper-broker'
import type { ProjectXPaperBroker } from '@signals/dev-paper-broker-projectx'
import type { Config } from '../src/config.ts'
import type { BuildOptions } from '../src/app.ts'
import { build, setLiveTrading, type App } from './helper.ts'
import { connect, paperBroker } from './trading-helper.ts'
import { saveCredentials } from './feeds/feed-helper.ts'
import { projectXBroker, saveProjectXCredentials } from './feeds/broker/projectx/helper.ts'

// Issue 23, item 6: the trading tests that cover the entry flow, brackets, exits, reconciliation and the
// exactly-once kill run against both paper brokers. Both run the one simulated market engine behind their
// own wire face, so a test drives and reads the market through this common face and the connector through
// its own broker's wire.

export const BROKERS = ['tradovate', 'projectx'] as const
export type BrokerKind = (typeof BROKERS)[number]

type Position = ReturnType<PaperBroker['positions']>[number]

/** A paper broker of either kind, seen through what the two share (the engine) and what differs (names). */
export interface BrokerUnderTest {
  kind: BrokerKind
  /** The broker name of the connector's rows (credentials, trades, discrepancies). */
  brokerName: 'paper' | 'projectx'
  /** The engine account of login `trader<index>` and its name as the broker shows it. */
  accountId(index?: number): number
  accountName(index?: number): string
  /** The endpoint an entry with its bracket is sent to. */
  placeEndpoint: string
  /** The endpoint an order's cancel is sent to. */
  cancelEndpoint: string
  /** The connector's variables pointing it at this broker. */
  env: Record<string, string>
  /** Saves login `trader<index>`'s credentials for the user, as settings stores them. */
  saveCredentials(db: Kysely<Database>, config: Config, userId: string, index?: number): Promise<void>
  setPrice(symbol: string, price: string): void
  orders(): TaggedOrder[]
  positions(): Position[]
  /** Login names whose real-time session is open and following the account. */
  sessions(): string[]
  readonly requests: readonly { endpoint: string }[]
  /** Requests to an endpoint seen so far. */
  seen(endpoint: string): number
  delay(endpoint: string, ms: number): void
  interfere(endpoint: string, interference: Interference, count?: number): void
  dropConnections(): void
  /** A trader's own market order on login `trader<index>`'s account (no tag); returns its order id. */
  placeManualOrder(order: { symbol: string; action: 'Buy' | 'Sell'; qty: number }, index?: number): number
  /** Flattens login `trader<index>`'s positions by hand (cancelling the account's working orders in them). */
  liquidate(index?: number): void
  close(): Promise<void>
}

/** The engine contracts an account holds a position in. */
const heldContracts = (positions: readonly Position[], accountId: number) => positions.filter((position) => position.accountId === accountId && position.netPos !== 0).map((position) => position.contractId)

function tradovateUnderTest(broker: PaperBroker): BrokerUnderTest {
  return {
    kind: 'tradovate',
    brokerName: 'paper',
    accountId: (index = 0) => 9000 + index,
    accountName: (index = 0) => `DEMO${9000 + index}`,
    placeEndpoint: 'order/placeOSO',
    cancelEndpoint: 'order/cancelorder',
    env: { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl },
    saveCredentials: (db, config, userId, index = 0) => saveCredentials(db, config, userId, `trader${index}`),
    setPrice: (symbol, price) => broker.setPrice(symbol, price),
    orders: () => broker.orders(),
    positions: () => broker.positions(),
    sessions: () => broker.sessions(),
    requests: broker.requests,
    seen: (endpoint) => broker.requests.filter((request) => request.endpoint === endpoint).length,
    delay: (endpoint, ms) => broker.delay(endpoint, ms),
    interfere: (endpoint, interference, count) => broker.interfere(endpoint, interference, count),
    dropConnections: () => broker.dropConnections(),
    placeManualOrder: (order, index = 0) => broker.placeManualOrder(`trader${index}`, order),
    liquidate: (index = 0) => heldContracts(broker.positions(), 9000 + index).forEach((contractId) => broker.liquidate(9000 + index, contractId)),
    close: () => broker.close(),
  }
}

function projectXUnderTest(broker: ProjectXPaperBroker): BrokerUnderTest {
  return {
    kind: 'projectx',
    brokerName: 'projectx',
    accountId: (index = 0) => 7000 + index,
    accountName: (index = 0) => `PAPERX${7000 + index}`,
    placeEndpoint: 'Order/place',
    cancelEndpoint: 'Order/cancel',
    env: { PROJECTX_DEMO_API_URL: broker.apiUrl, PROJECTX_DEMO_USER_HUB_URL: broker.userHubUrl, PROJECTX_DEMO_MARKET_HUB_URL: broker.marketHubUrl },
    saveCredentials: (db, config, userId, index = 0) => saveProjectXCredentials(db, config, userId, `trader${index}`, `PAPERX${7000 + index}`),
    setPrice: (symbol, price) => broker.setPrice(symbol, price),
    orders: () => broker.orders(),
    positions: () => broker.positions(),
    sessions: () => broker.sessions(),
    requests: broker.requests,
    seen: (endpoint) => broker.requests.filter((request) => request.endpoint === endpoint).length,
    delay: (endpoint, ms) => broker.delay(endpoint, ms),
    interfere: (endpoint, interference, count) => broker.interfere(endpoint, interference, count),
    dropConnections: () => broker.dropConnections(),
    liquidate: (index = 0) => heldContracts(broker.positions(), 7000 + index).forEach((contractId) => broker.liquidate(7000 + index, contractId)),
    placeManualOrder: (order, index = 0) => broker.placeManualOrder(7000 + index, { symbol: order.symbol, side: order.action === 'Buy' ? 0 : 1, size: order.qty }),
    close: () => broker.close(),
  }
}

/** A paper broker of this kind with logins trader0..trader3, closed after the test. */
export async function brokerUnderTest(t: Test, kind: BrokerKind): Promise<BrokerUnderTest> {
  return kind === 'tradovate' ? tradovateUnderTest(await paperBroker(t)) : projectXUnderTest(await projectXBroker(t))
}

/** Runs `body` as one subtest per paper broker, named `<name> (<broker>)`. */
export function forEachBroker(t: Test, name: string, body: (t: Test, kind: BrokerKind) => Promise<void>): void {
  for (const kind of BROKERS) void t.test(`${name} (${kind})`, (t) => body(t, kind))
}

/** The connector with feeds, pointed at this broker (its own database and bus namespace). */
export function tradingAppOn(t: Test, broker: BrokerUnderTest, overrides: Record<string, string> = {}, options: BuildOptions = {}) {
  return build(t, { ...broker.env, ENTRY_SESSION_WAIT_MS: '3000', CONSUMER_ACK_WAIT_MS: '2000', ...overrides }, { feeds: true, ...options })
}

/** An approved trader live with orders placed automatically, holding login `trader<index>` at this broker. */
export async function liveTraderOn(db: Kysely<Database>, config: Config, broker: BrokerUnderTest, userId: string, index = 0, autoPlace = true) {
  await sql`INSERT INTO users (user_id, email, approved) VALUES (${userId}, ${`${userId}@example.com`}, true)`.execute(db)
  await setLiveTrading(db, [userId], { enabled: true, autoPlaceOrders: autoPlace })
  await broker.saveCredentials(db, config, userId, index)
}

/**
 * `connectedTrader` for either broker: MNQZ6 at 21000, the connector with feeds, trader u-0 (login trader0)
 * live with orders placed automatically, its session held. `before` runs at the broker before the session opens.
 */
export async function connectedTraderOn(
  t: Test,
  kind: BrokerKind,
  options: { overrides?: Record<string, string>; buildOptions?: BuildOptions; before?: (broker: BrokerUnderTest) => void } = {},
): Promise<{ broker: BrokerUnderTest; app: App; db: Kysely<Database>; config: Config }> {
  const broker = await brokerUnderTest(t, kind)
  broker.setPrice('MNQZ6', '21000')
  options.before?.(broker)
  const { app, db, config } = await tradingAppOn(t, broker, options.overrides, options.buildOptions)
  await liveTraderOn(db, config, broker, 'u-0')
  await connect(app, 'u-0')
  return { broker, app, db, config }
}

/** The account's net position in MNQZ6 (any contract, with `contractId`) at the broker. */
export const netPositionAt = (broker: BrokerUnderTest, contractId?: number, index = 0): number =>
  broker.positions().find((position) => position.accountId === broker.accountId(index) && (contractId === undefined || position.contractId === contractId))?.netPos ?? 0

/** The bracket legs the broker holds for an entry order (its children, whatever their tags). */
export const legsOf = (broker: BrokerUnderTest, entryOrderId: number | string | null) => broker.orders().filter((order) => order.parentId != null && String(order.parentId) === String(entryOrderId))
