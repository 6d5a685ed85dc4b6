import type { Test } from 'tap'
import type { ExitPlan, TrailingStop } from '@signals/contracts'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connect, connectedTrader, feedCommand, mnqEntry, settledRecord } from '../../trading-helper.ts'
import { mnqExit, netMnq, openedTrade } from '../positions/exit-helper.ts'
import { traderWithSource } from '../../source-helper.ts'

/** Exit plans are off by default (EXIT_PLANS_ENABLED); these tests are of what they do when on. No gap between trail moves unless a test asks. */
export const EXIT_PLANS_ON = { overrides: { EXIT_PLANS_ENABLED: 'true', TRAILING_STOP_MIN_GAP_MS: '0' } }

type Connected = Awaited<ReturnType<typeof connectedTrader>>
type Broker = Connected['broker']
type App = Connected['app']

/** The record's orders at the paper broker by their tag's suffix (`sl`, `tp1`, `sl1`, ...). */
export const ordersOf = (broker: Broker, recordId: number) =>
  Object.fromEntries(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${recordId}.`)).map((order) => [order.clOrdId!.slice(`sig-${recordId}.`.length), order]))

export const stopPriceOf = async (app: App, orderId: number) => (await app.feeds.session('u-0')!.orderVersions([orderId])).get(orderId)?.stopPrice

/** What the record's working stops (`.sl`, `.slN`) and targets still close at the paper broker. */
export function exitsOf(broker: Broker, recordId: number): { stops: number; targets: number } {
  const working = Object.entries(ordersOf(broker, recordId)).filter(([, order]) => order.ordStatus === 'Working')
  const rest = (prefix: string) => working.filter(([leg]) => leg.startsWith(prefix)).reduce((sum, [, order]) => sum + order.orderQty - order.filledQty, 0)
  return { stops: rest('sl'), targets: rest('tp') }
}

/** 5 contracts (50 points of stop at $2 a point, the default $500 budget): TP1 2 at 21020, TP2 2 at 21040, TP3 1 at 21080. */
export const withTargets = (breakeven: ExitPlan['breakeven'] = null, trailingStop: TrailingStop | null = null) =>
  mnqEntry({ userId: 'u-0', tp: null, exitPlan: { targets: [{ price: 21020, quantity: 2 }, { price: 21040, quantity: 2 }, { price: 21080, quantity: 1 }], breakeven }, ...(trailingStop === null ? {} : { trailingStop }) })

/** A trader with the entry placed, filled, and its targets out as pairs of one contract with their stops (TP1: pairs 1-2, TP2: 3-4, TP3: 5). */
export async function openWithTargets(t: Test, entry = withTargets(), overrides: Record<string, string> = {}) {
  const connected = await connectedTrader(t, { overrides: { ...EXIT_PLANS_ON.overrides, ...overrides } })
  await publishAlert(connected.app, entry)
  const record = await settledRecord(connected.db, entry.alertId)
  if (record.status !== 'placed') throw new Error(`entry not placed: ${record.status} ${record.reason}`)
  const trade = await openedTrade(connected.db, record.id)
  await eventually(() => ['tp1', 'sl1', 'tp2', 'sl2', 'tp3', 'sl3', 'tp4', 'sl4', 'tp5', 'sl5'].every((leg) => ordersOf(connected.broker, record.id)[leg]?.ordStatus === 'Working'))
  return { ...connected, entry, record, trade }
}

/** A trader with the entry of 5 filled and its five pairs out (`openWithTargets`), the keeper done with them. */
export async function openPairs(t: Test) {
  const opened = await openWithTargets(t)
  await opened.app.trading.keeper.idle()
  return opened
}

/**
 * The trader's spec-route trade (stop 20900, target 21200) and a house source's trade of 2 with two target
 * pairs, both open in the one MNQ position, the pairs out and the keeper done with them.
 */
export async function specAndHouseTrades(t: Test, overrides: Record<string, string> = {}) {
  const connected = await traderWithSource(t, { overrides: { ...EXIT_PLANS_ON.overrides, ...overrides } })
  const { broker, app, db, house } = connected
  const spec = mnqEntry({ userId: 'u-0', sl: 20900, tp: 21200 })
  await publishAlert(app, spec)
  const specTrade = await openedTrade(db, (await settledRecord(db, spec.alertId)).id)
  const fromHouse = mnqEntry({ userId: null, sourceId: house, tp: null, exitPlan: { targets: [{ price: 21020, quantity: 1 }, { price: 21040, quantity: 1 }], breakeven: null } })
  await publishAlert(app, fromHouse)
  const houseRecord = await settledRecord(db, fromHouse.alertId)
  await openedTrade(db, houseRecord.id)
  await eventually(() => exitsOf(broker, houseRecord.id).targets === 2 && exitsOf(broker, houseRecord.id).stops === 2)
  await app.trading.keeper.idle()
  return { ...connected, specTrade, fromHouse, houseRecord, specQuantity: Number(specTrade.quantity) }
}

/** A partial close of 2 of the LONG MNQ position. */
export const closeTwo = () => mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } })

/** Waits until every pair of the record is placed or said not placed, and the keeper is done with it. */
export async function settledPairs(connected: Connected, alertId: string) {
  await eventually(async () => /targets placed: /.test((await settledRecord(connected.db, alertId)).reason ?? ''))
  await connected.app.trading.keeper.idle()
}

/** The entry published for the connected trader, placed and filled, and its pairs settled (however they went). */
export async function placedWithPairs(connected: Connected, entry = withTargets()) {
  await publishAlert(connected.app, entry)
  const record = await settledRecord(connected.db, entry.alertId)
  const trade = await openedTrade(connected.db, record.id)
  await settledPairs(connected, entry.alertId)
  return { entry, record, trade }
}

/**
 * The record's last pair gone as a crash between its claim and its send leaves it: cancelled at the broker
 * (stops 4 for the 5 held), its answer forgotten, claimed `claimedAgo` ago (a Postgres interval).
 */
export async function lastPairLost(connected: Connected, recordId: number, claimedAgo: '0 minutes' | '5 minutes') {
  const { broker, app, db } = connected
  const session = app.feeds.session('u-0')!
  for (const leg of ['tp5', 'sl5']) if (ordersOf(broker, recordId)[leg]?.ordStatus === 'Working') await session.cancelOrder(ordersOf(broker, recordId)[leg]!.id)
  await eventually(() => exitsOf(broker, recordId).stops === 4)
  await sql`UPDATE trade_targets SET order_id = NULL, stop_order_id = NULL, outcome = NULL, sent_at = now() - ${claimedAgo}::interval WHERE record_id = ${recordId} AND level = 5`.execute(db)
}

/** One reconciliation pass (its stops check included), then the record's working stops at the broker. */
export async function stopsAfterPass(connected: Connected, recordId: number): Promise<number> {
  await connected.app.trading.reconciler.reconcileAll()
  return exitsOf(connected.broker, recordId).stops
}

/** The market falls through the stops (20950): what the account holds in MNQ after (0 when they closed exactly what was held). */
export function stopPriceHit(broker: Broker): number {
  broker.setPrice('MNQZ6', '20940')
  return netMnq(broker)
}

/** The connector lets go of the trader's session (the broker keeps working without it). */
export async function connectorAway(app: App): Promise<void> {
  await feedCommand(app, 'u-0', 'stop')
  await eventually(() => app.feeds.session('u-0') === null)
}

export const connectorBack = (app: App) => connect(app, 'u-0')

/** The market moves and the connector has seen it; then one trailing pass. */
export async function marketAt(broker: Broker, app: App, price: string) {
  const session = app.feeds.session('u-0')!
  const contract = { id: (await session.findContract('MNQZ6')).id, name: 'MNQZ6' }
  broker.setPrice('MNQZ6', price)
  await eventually(async () => {
    const seen = await session.marketPrice(contract, 'Sell')
    return seen.kind === 'price' && Number(seen.price) === Number(price)
  })
  return app.trading.trailingStops!.pass()
}
