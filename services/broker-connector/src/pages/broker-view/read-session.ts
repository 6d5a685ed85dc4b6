import { add, contractSpec, parseDecimal, rootOf, toPlain } from '@signals/instruments'
import { closingAction, positionOpenPnl } from '@signals/risk-engine'
import type { BrokerOrdersBody, BrokerPositionsBody } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { isDone, type BrokerOrder, type BrokerOrderVersion, type BrokerSession, type DayRealizedPnl } from '../../feeds/broker/broker-adapter.ts'
import { parseOrderTag } from '../../trading/entry/order-plan.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { openTradesOnAccount, tradesOfFills } from '../../repositories/broker-view.ts'
import { stopCoverage } from '../../trading/positions/stop-coverage.ts'
import { tradeCommissions } from './trade-commissions.ts'

type Position = BrokerPositionsBody['positions'][number]
type Order = BrokerPositionsBody['workingOrders'][number]

/** What the session's reader needs of the instance holding it. */
export interface SessionReading {
  db: Kysely<Database>
  userId: string
  session: BrokerSession
  scope: BrokerScope
  /** The day's realized pnl as the broker last told it (the trade keeper's book). */
  realizedPnl: DayRealizedPnl | null
}

/** Contract names by id: ours from our trades, any other asked of the broker once per read. */
class ContractNames {
  readonly #names = new Map<number, string | null>()
  constructor(private readonly session: BrokerSession) {}
  know(contractId: number, name: string | null): void {
    if (name !== null) this.#names.set(contractId, name)
  }
  async of(contractId: number): Promise<string | null> {
    if (!this.#names.has(contractId)) this.#names.set(contractId, await this.session.contractName(contractId))
    return this.#names.get(contractId) ?? null
  }
}

async function ordersView(orders: readonly BrokerOrder[], versions: ReadonlyMap<number, BrokerOrderVersion>, names: ContractNames): Promise<Order[]> {
  const views: Order[] = []
  for (const order of orders) {
    const version = versions.get(order.id)
    const tagged = parseOrderTag(order.tag)
    views.push({
      id: String(order.id),
      contract: await names.of(order.contractId),
      side: order.action,
      type: version?.orderType ?? null,
      quantity: version?.quantity ?? null,
      price: version?.price ?? null,
      stopPrice: version?.stopPrice ?? null,
      status: order.status,
      tag: order.tag,
      ours: tagged !== null,
      recordId: tagged === null ? null : String(tagged.recordId),
      text: order.text,
    })
  }
  return views
}

/**
 * The account's positions as the broker holds them, each marked at the price it could be closed at (as
 * the risk watchdog marks them, risk/open-pnl.ts) and matched with our open trades in its contract, with
 * what its working stops cover (the trader told when they close fewer or more than held); the working
 * orders; the broker's cash and realized pnl of the day.
 */
export async function readPositions(reading: SessionReading): Promise<BrokerPositionsBody> {
  const { session } = reading
  const names = new ContractNames(session)
  const [positions, orders, fills, trades, cash] = await Promise.all([
    session.listPositions(),
    session.listOrders(),
    session.listFills(),
    openTradesOnAccount(reading.db, reading.userId, reading.scope),
    session.cashBalance(),
  ])
  for (const trade of trades) names.know(Number(trade.broker_contract_id), trade.contract)
  const working = orders.filter((order) => !isDone(order.status))
  const versions = await session.orderVersions(working.map((order) => order.id))
  const views: Position[] = []
  for (const position of positions.filter((held) => held.netPos !== 0)) {
    const contract = await names.of(position.contractId)
    const mine = trades.filter((trade) => Number(trade.broker_contract_id) === position.contractId)
    const ourNet = mine.reduce((sum, trade) => sum + (trade.side === 'LONG' ? 1 : -1) * Number(trade.quantity), 0)
    const priced = await markPosition(session, position.contractId, contract, position.netPos, position.netPrice)
    const stops = stopCoverage(position, working, versions, fills)
    views.push({
      contract,
      contractId: String(position.contractId),
      side: position.netPos > 0 ? 'LONG' : 'SHORT',
      quantity: Math.abs(position.netPos),
      averagePrice: position.netPrice,
      ...priced,
      ours: mine.length > 0,
      tradeIds: mine.map((trade) => String(trade.id)),
      ourNetQuantity: ourNet,
      stopQuantity: stops.stopQuantity,
      stopNote: stops.note,
    })
  }
  return {
    account: session.snapshot.account.name,
    heardAt: session.lastHeardAt().toISOString(),
    positions: views,
    workingOrders: await ordersView(working, versions, names),
    broker: { brokerCash: cash, brokerRealizedPnl: reading.realizedPnl?.pnl ?? null, brokerTradeDate: reading.realizedPnl?.tradeDate ?? null },
  }
}

type Priced = Pick<Position, 'marketPrice' | 'marketPriceAt' | 'unrealizedPnl' | 'unpricedReason'>

async function markPosition(session: BrokerSession, contractId: number, contract: string | null, netPos: number, averagePrice: string | null): Promise<Priced> {
  const none = (reason: string): Priced => ({ marketPrice: null, marketPriceAt: null, unrealizedPnl: null, unpricedReason: reason })
  if (contract === null) return none(`the broker did not name contract ${contractId}`)
  const root = rootOf(contract)
  const pointValue = root === null ? undefined : contractSpec(root)?.pointValue
  const quoted = await session.marketPrice({ id: contractId, name: contract }, closingAction(netPos))
  if (quoted.kind === 'none') return none(quoted.reason)
  const marked = { marketPrice: quoted.price, marketPriceAt: quoted.at.toISOString() }
  if (pointValue === undefined) return { ...marked, unrealizedPnl: null, unpricedReason: `the point value of ${contract} is not known` }
  if (averagePrice === null) return { ...marked, unrealizedPnl: null, unpricedReason: `the broker gave no average price for the ${contract} position` }
  return { ...marked, unrealizedPnl: positionOpenPnl({ netPos, averagePrice, markPrice: quoted.price, pointValue }), unpricedReason: null }
}

/**
 * The account's orders, newest first (the last `limit`), with the day's fills of those orders and what each
 * cost (the broker's FillFee), and each of our trades with fills among the day's: its commission and net pnl.
 */
export async function readOrders(reading: Omit<SessionReading, 'realizedPnl'>, limit: number): Promise<BrokerOrdersBody> {
  const { session } = reading
  const names = new ContractNames(session)
  const [orders, fills] = await Promise.all([session.listOrders(), session.listFills()])
  const fees = await session.fillFees(fills.map((fill) => fill.id))
  const latest = [...orders].sort((a, b) => b.id - a.id).slice(0, limit)
  const shown = new Set(latest.map((order) => order.id))
  const fillViews = []
  let commissions: string | null = null
  for (const fill of fills.filter((one) => shown.has(one.orderId)).sort((a, b) => b.id - a.id)) {
    const commission = fees.get(fill.id) ?? null
    if (commission !== null) commissions = toPlain(add(parseDecimal(commissions ?? '0'), parseDecimal(commission)))
    fillViews.push({ id: String(fill.id), orderId: String(fill.orderId), contract: await names.of(fill.contractId), side: fill.action, quantity: fill.quantity, price: fill.price, at: fill.timestamp, commission })
  }
  const ours = await tradesOfFills(reading.db, reading.userId, reading.scope, fills.map((fill) => fill.id))
  const trades = ours.trades.map((row) => ({ id: row.id, parentTradeId: row.parent_trade_id, contract: row.contract, side: row.side, quantity: row.quantity, status: row.status, pnl: row.pnl, entryFillIds: row.entry_fill_ids }))
  return {
    account: session.snapshot.account.name,
    heardAt: session.lastHeardAt().toISOString(),
    orders: await ordersView(latest, await session.orderVersions(latest.map((order) => order.id)), names),
    fills: fillViews,
    commissions,
    tradeCommissions: tradeCommissions(trades, ours.exits, new Map(fills.map((fill) => [fill.id, fill.quantity])), fees),
  }
}
