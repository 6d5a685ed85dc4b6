import type { Test } from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { startProjectXPaperBroker, type ProjectXPaperAccount, type ProjectXPaperBroker, type ProjectXPaperBrokerOptions } from '@signals/dev-paper-broker-projectx'
import { CredentialsCipher, sealCredentials } from '@signals/secrets'
import { storePrimaryLogin } from '@signals/test-support'
import type { BrokerEndpoints, BrokerEvent, BrokerLogin, BrokerSession } from '../../../../src/feeds/broker/broker-adapter.ts'
import { ProjectXAdapter, type ProjectXAdapterOptions } from '../../../../src/feeds/broker/projectx/adapter.ts'
import type { Config } from '../../../../src/config.ts'
import type { BuildOptions } from '../../../../src/app.ts'
import { build, eventually, publishAlert, setLiveTrading, type App } from '../../../helper.ts'
import { connect, mnqEntry, settledRecord } from '../../../trading-helper.ts'

export const API_KEY = 'px-key-0123456789'

/** ProjectX logins trader0..trader3 (accounts PAPERX7000..7003), each with its own API key. */
export const ACCOUNTS: ProjectXPaperAccount[] = [0, 1, 2, 3].map((i) => ({ userName: `trader${i}`, apiKey: API_KEY, accountId: 7000 + i, accountName: `PAPERX${7000 + i}` }))

export async function projectXBroker(t: Test, options: Partial<ProjectXPaperBrokerOptions> = {}): Promise<ProjectXPaperBroker> {
  const broker = await startProjectXPaperBroker({ accounts: ACCOUNTS, keepAliveMs: 1_000, ...options })
  t.teardown(() => broker.close())
  return broker
}

export const endpointsOf = (broker: ProjectXPaperBroker): BrokerEndpoints => ({ restUrl: broker.apiUrl, wsUrl: broker.userHubUrl, mdUrl: broker.marketHubUrl })

export const loginOf = (userName = 'trader0', account = 'PAPERX7000', apiKey = API_KEY): BrokerLogin<'projectx'> => ({ broker: 'projectx', account, username: userName, apiKey })

/** A session of the ProjectX adapter, closed after the test; every event it sends is kept in `events`. */
export async function openSession(t: Test, broker: ProjectXPaperBroker, login = loginOf(), options: ProjectXAdapterOptions = {}) {
  const events: BrokerEvent[] = []
  const lost: string[] = []
  const session: BrokerSession = await new ProjectXAdapter(options).openSession(endpointsOf(broker), login, { onEvent: (event) => events.push(event), onLost: (reason) => lost.push(reason) })
  t.teardown(() => session.close())
  return { session, events, lost }
}

/** ProjectX credentials stored as settings stores them (the primary account's login): sealed for this user, broker `projectx` and account. */
export async function saveProjectXCredentials(db: Kysely<Database>, config: Config, userId: string, userName: string, account: string, apiKey = API_KEY) {
  const cipher = CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  const owner = { userId, broker: 'projectx' as const, environment: 'demo' as const, accountId: account }
  const sealed = sealCredentials(cipher, owner, { username: userName, apiKey })
  await storePrimaryLogin(db, { ...owner, sealed })
}

/**
 * The ProjectX start of a trading test: the ProjectX paper broker with MNQZ6 at 21000, the connector with
 * feeds pointed at it, and trader u-0 (ProjectX login trader0, account PAPERX7000) live with orders placed
 * automatically, its session held.
 */
export async function connectedProjectXTrader(
  t: Test,
  options: { accounts?: ProjectXPaperAccount[]; env?: Record<string, string>; broker?: Partial<ProjectXPaperBrokerOptions>; build?: BuildOptions; built?: (db: Kysely<Database>) => void } = {},
) {
  const broker = await projectXBroker(t, { ...options.broker, ...(options.accounts ? { accounts: options.accounts } : {}) })
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await build(
    t,
    { PROJECTX_DEMO_API_URL: broker.apiUrl, PROJECTX_DEMO_USER_HUB_URL: broker.userHubUrl, PROJECTX_DEMO_MARKET_HUB_URL: broker.marketHubUrl, ENTRY_SESSION_WAIT_MS: '3000', CONSUMER_ACK_WAIT_MS: '2000', ...options.env },
    { ...options.build, feeds: true },
  )
  options.built?.(db)
  await sql`INSERT INTO users (user_id, email, approved) VALUES ('u-0', 'u-0@example.com', true)`.execute(db)
  await setLiveTrading(db, ['u-0'], { enabled: true, autoPlaceOrders: true })
  await saveProjectXCredentials(db, config, 'u-0', 'trader0', 'PAPERX7000')
  await connect(app, 'u-0')
  return { broker, app, db, config }
}

/** The account's net position in MNQZ6 at the ProjectX paper broker. */
export const netMnq = (broker: ProjectXPaperBroker, accountId = 7000): number => broker.positions().find((position) => position.accountId === accountId)?.netPos ?? 0

/**
 * An account on Position Brackets (it refuses brackets on orders: the connector places the legs) with resting
 * entries taken (PROJECTX_RESTING_OWN_LEGS, off by default: docs/decisions/projectx-adapter.md).
 */
export const POSITION_BRACKETS = { accounts: [{ ...ACCOUNTS[0]!, bracketMode: 'position' as const }], env: { PROJECTX_RESTING_OWN_LEGS: 'true' } }

/** A limit entry resting at 20990 with its stop at 20940 and its target at 21090. */
export const restingMnqEntry = () => mnqEntry({ entryPrice: 20990, sl: 20940, tp: 21090, raw: { orderType: 'limit' }, entryOrder: { type: 'limit', stopPrice: null, timeInForce: null } })

/**
 * A resting entry (`restingMnqEntry`) taken, then its first contract filled: the market fills one contract a
 * price move and comes to the entry's 20990. Returns its record; the test waits for the legs it expects.
 */
export async function restingEntryFilledOnce(broker: ProjectXPaperBroker, app: App, db: Kysely<Database>) {
  const entry = restingMnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await liquidity(broker, 1)
  broker.setPrice('MNQZ6', '20990')
  return record
}

/** The paper market fills each order one contract per price move (null: all at once). */
export async function liquidity(broker: ProjectXPaperBroker, lots: number | null): Promise<void> {
  const answer = await fetch(`${broker.apiUrl}/dev/liquidity`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ symbol: 'MNQZ6', lots }) })
  if (answer.status !== 200) throw new Error(`liquidity: ${answer.status}`)
}

/** The record's own legs (`.sl`, `.tp`) at the paper broker. */
export const legOrdersOf = (broker: ProjectXPaperBroker, recordId: number) => broker.orders().filter((order) => order.clOrdId === `sig-${recordId}.sl` || order.clOrdId === `sig-${recordId}.tp`)

/** How many late closes (`Position/partialCloseContract`) the paper broker was asked for. */
export const partialCloses = (broker: ProjectXPaperBroker) => broker.requests.filter((request) => request.endpoint === 'Position/partialCloseContract').length

/**
 * The race of a resting entry's rest with its cancel: at the first `Order/cancel` while the entry (`isEntry`, by
 * its tag) still works and the market is at its target (21090), the entry fills one more first (the price back
 * at 20990), then `after` runs (a fault to arm). `heldAfterRace` is what the account held right then: the
 * connector may close the late contract before the test's next look. Set `broker` once the trader is started.
 */
export function fillOneMoreAtCancel(isEntry: (tag: string | null | undefined) => boolean, after: (broker: ProjectXPaperBroker) => void = () => undefined) {
  const race = {
    broker: null as ProjectXPaperBroker | null,
    raced: false,
    heldAfterRace: null as number | null,
    onRequest(request: { endpoint: string }): void {
      const { broker } = race
      if (request.endpoint !== 'Order/cancel' || race.raced || broker === null) return
      const working = broker.orders().some((order) => isEntry(order.clOrdId) && order.ordStatus === 'Working')
      if (!working || broker.price('MNQZ6') !== '21090') return
      race.raced = true
      broker.setPrice('MNQZ6', '20990')
      race.heldAfterRace = netMnq(broker)
      after(broker)
    },
  }
  return race
}

/**
 * The target-and-late-fill race on a resting entry (own legs, Position Brackets): a trader connected with the
 * race (`fillOneMoreAtCancel`) listening, the entry taken and its first contract filled, its legs working, then
 * the market at the target: the trade closes, and the entry fills one more as its rest is cancelled. Asserts
 * that the race happened with one contract held after it; returns the connection and the record.
 */
export async function targetRacedByOneMoreFill(t: Test, race: ReturnType<typeof fillOneMoreAtCancel>) {
  const started = await connectedProjectXTrader(t, { ...POSITION_BRACKETS, broker: { onRequest: (request) => race.onRequest(request) } })
  const { broker, app, db } = started
  race.broker = broker
  const record = await restingEntryFilledOnce(broker, app, db)
  await eventually(() => legOrdersOf(broker, record.id).length === 2)
  broker.setPrice('MNQZ6', '21090')
  await eventually(() => race.raced)
  t.equal(race.heldAfterRace, 1, 'one more contract filled after the target closed the trade')
  return { ...started, record }
}

/** What the record says to the trader. */
export const reasonOf = async (db: Kysely<Database>, recordId: number) => (await db.selectFrom('alerts').select('reason').where('id', '=', recordId).executeTakeFirstOrThrow()).reason ?? ''

export { eventually }
