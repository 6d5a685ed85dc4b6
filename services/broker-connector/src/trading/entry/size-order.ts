import { contractSpec, frontMonthContract } from '@signals/instruments'
import { additionRoom, normalizeRiskEngineConfig, positionChange, sessionGate, sizeEntry, type MarketView, type PositionChangeCode, type RefusalCode, type RiskEngineConfig, type SessionRefusalCode } from '@signals/risk-engine'
import type { BracketRequest, BrokerContract, BrokerSession, DayRealizedPnl } from '../../feeds/broker/broker-adapter.ts'
import type { EntryRecord } from '../../repositories/entry-records.ts'
import { accountStateOf } from './account-state.ts'
import type { AccountRows } from '../../repositories/account-rows.ts'
import { isLimitEntry, orderTagOf, planPrices } from './order-plan.ts'
import { entryOrderFields, entryOrderOf, sizingPriceOf } from './entry-order-plan.ts'
import { countBrokerRealized } from '../risk/day-realized.ts'
import { markOpenPnl } from '../risk/open-pnl.ts'

/** Refusals the flow adds to the risk engine's own. */
type FlowRefusalCode = RefusalCode | SessionRefusalCode | PositionChangeCode | 'incomplete_alert' | 'unknown_contract' | 'position_differs'

export type SizedOrder =
  | { kind: 'order'; request: BracketRequest }
  | { kind: 'refuse'; code: FlowRefusalCode; reason: string; flatten: boolean; contract: string | null }
  /** A reversal the account allows: the `closes` position (`held` contracts) is closed first; the entry waits for that fill. */
  | { kind: 'close_first'; side: 'LONG' | 'SHORT'; closes: 'LONG' | 'SHORT'; held: number; contract: BrokerContract }

const contractCache = new WeakMap<BrokerSession, Map<string, Promise<BrokerContract>>>()

/**
 * Per batch: every record of one alert has the same symbol and time, and most users the same stored
 * configuration (often none), so each is worked out once.
 */
export class SizingMemo {
  readonly #contracts = new Map<string, ReturnType<typeof frontMonthContract>>()
  readonly #configs = new Map<string, RiskEngineConfig>()

  contractOf(symbol: string, at: Date): ReturnType<typeof frontMonthContract> {
    const key = `${symbol}|${at.getTime()}`
    if (!this.#contracts.has(key)) this.#contracts.set(key, frontMonthContract(symbol, at))
    return this.#contracts.get(key) ?? null
  }

  configOf(stored: unknown): RiskEngineConfig {
    const key = JSON.stringify(stored ?? null)
    let config = this.#configs.get(key)
    if (!config) this.#configs.set(key, (config = normalizeRiskEngineConfig(stored)))
    return config
  }
}

/** `contract/find` once per session and contract name (a failed lookup is asked again next time). */
function findContractOnce(session: BrokerSession, name: string): Promise<BrokerContract> {
  let cache = contractCache.get(session)
  if (!cache) contractCache.set(session, (cache = new Map()))
  let found = cache.get(name)
  if (!found) {
    found = session.findContract(name)
    cache.set(name, found)
    found.catch(() => cache.delete(name))
  }
  return found
}

export interface SizingDeps {
  accounts: AccountRows
  memo: SizingMemo
  session: BrokerSession
  /** The account's cash balance as the broker last told it, or null. */
  cashBalance: string | null
  /** The account's realized pnl of the day as the broker last told it (`countBrokerRealized`), or null. */
  realizedPnl?: DayRealizedPnl | null
  now: Date
  /** The platform's ceiling on one order's contracts (MAX_CONTRACTS_PER_ORDER). */
  platformMaxContracts: number
  /** A market price older than this is not used (MARKET_PRICE_MAX_AGE_MS). */
  marketPriceMaxAgeMs: number
  /** Why the broker's position in the contract and our trades differ (entries wait until they agree), or null. */
  positionDifference?(contract: BrokerContract): Promise<string | null>
}

/**
 * The broker's price for this entry (the side it fills on), from the session's market data; `price: null`
 * with the reason when there is none or it is older than the age limit (a closed or stuck market).
 */
async function marketOf(deps: SizingDeps, contract: BrokerContract, action: 'Buy' | 'Sell'): Promise<MarketView> {
  const quoted = await deps.session.marketPrice(contract, action)
  if (quoted.kind === 'none') return { price: null, reason: quoted.reason }
  const ageMs = deps.now.getTime() - quoted.at.getTime()
  if (ageMs > deps.marketPriceMaxAgeMs) {
    return { price: null, reason: `the last quote for ${contract.name} is ${Math.round(ageMs / 1000)} s old, older than the ${Math.round(deps.marketPriceMaxAgeMs / 1000)} s limit` }
  }
  return { price: quoted.price }
}

/**
 * From a complete record (action and symbol present) to the bracket to send, or a refusal: the dated
 * contract at the alert's time, prices on the tick grid, the broker's current price, the user's risk
 * configuration (defaults when none was saved), account state and contract caps, then the risk engine's
 * size. Every bracket carries a stop.
 */
export async function sizeOrder(deps: SizingDeps, record: EntryRecord & { symbol: string }): Promise<SizedOrder> {
  const dated = deps.memo.contractOf(record.symbol, record.received_at)
  const spec = dated ? contractSpec(dated.root) : undefined
  if (!dated || !spec) {
    return { kind: 'refuse', code: 'unknown_contract', reason: `no futures contract is known for the symbol ${record.symbol}`, flatten: false, contract: null }
  }
  const config = deps.memo.configOf(record.risk_config)
  // Session rules first: outside a window or in a blackout nothing else about the entry matters.
  const { at, news, counts } = deps.accounts.session
  const session = sessionGate(config.sessionRules, at, counts.get(record.user_id) ?? { entries: 0, executions: 0 }, news)
  if (session) return { ...session, contract: dated.name }
  const contract = await findContractOnce(deps.session, dated.name)
  // Never stacked on a position our trades do not account for (docs/decisions/broker-connector.md, "Reconciliation with the broker").
  const difference = (await deps.positionDifference?.(contract)) ?? null
  if (difference !== null) {
    const reason = `not placed: ${difference}; new entries in ${dated.name} wait until the broker and our trades agree`
    return { kind: 'refuse', code: 'position_differs', reason, flatten: false, contract: dated.name }
  }
  // A reversal, an add, or an entry on a position already open (issue 24): what the account allows.
  const inContract = (deps.accounts.openTrades.get(record.user_id) ?? []).filter((trade) => trade.root.toUpperCase() === dated.root.toUpperCase())
  const change = positionChange(config, record.order_word, record.action, inContract, dated.root)
  if (change.kind === 'refuse') return { kind: 'refuse', code: change.code, reason: change.reason, flatten: false, contract: dated.name }
  if (change.kind === 'close_first') return { kind: 'close_first', side: change.side, closes: change.closes, held: change.held, contract }
  const side = change.side
  const asked = entryOrderOf(record.entry_order)
  const prices = planPrices(
    { side, entryPrice: record.entry_price, stop: record.sl, target: record.tp, limit: isLimitEntry(record.raw_data, asked) },
    spec.tickSize,
  )
  // A stop or stop-limit entry, or a time in force (issue 24, item 6): sized where it fills, as a limit is.
  const entryOrder = entryOrderFields(asked, side, prices, record.entry_price, spec.tickSize)
  const sizedAt = sizingPriceOf(entryOrder)
  const action = side === 'LONG' ? 'Buy' : 'Sell'
  // Open pnl counts towards the daily loss limit and the floor; a position that cannot be priced refuses.
  const open = await markOpenPnl(deps.session, deps.accounts.heldContracts.get(record.user_id) ?? [], { now: deps.now, maxPriceAgeMs: deps.marketPriceMaxAgeMs })
  if (open.kind === 'unknown') {
    return { kind: 'refuse', code: 'no_market_price', reason: `${open.reason}, so today's loss and the drawdown floor cannot be checked`, flatten: false, contract: dated.name }
  }
  // A loss the broker realized outside our trades (a position closed by the reconciliation) counts too.
  const account = countBrokerRealized(accountStateOf(deps.accounts, record.user_id, config, deps.cashBalance, deps.now, open.openPnl), deps.realizedPnl ?? null, deps.now)
  const caps = { platformMaxContracts: deps.platformMaxContracts, maxContracts: legacyMaxContracts(record.max_contracts) }
  const decision = sizeEntry({
    config,
    account,
    alert: {
      side,
      orderType: prices.entryType === 'Limit' || sizedAt !== null ? 'limit' : 'market',
      entryPrice: sizedAt ?? prices.entryPrice,
      stopPrice: prices.stopPrice,
      targetPrice: prices.targetPrice,
      quantity: record.alert_quantity === null ? null : Number(record.alert_quantity),
      quantityMultiplier: record.size_multiplier ?? null,
      stopTrigger: entryOrder?.entryStopPrice ?? null,
    },
    contract: { root: dated.root, pointValue: spec.pointValue, tickSize: spec.tickSize },
    market: await marketOf(deps, contract, action),
    caps,
  })
  if (decision.kind === 'refuse') return { ...decision, contract: dated.name }
  // An add: the whole position is held to the per-order caps (its legs are orders of the position's size).
  const room = change.adding ? additionRoom(config, inContract, caps) : decision.quantity
  if (room < 1) {
    const held = inContract.reduce((sum, trade) => sum + Number(trade.quantity), 0)
    return { kind: 'refuse', code: 'pyramid_limit', reason: `add: the ${side} ${dated.root} position of ${held} is already at the most one order may hold (limits.maxContractsPerOrder, the platform's ceiling, the risk strategy's maximum contracts).`, flatten: false, contract: dated.name }
  }
  if (prices.stopPrice === null) {
    return { kind: 'refuse', code: 'no_stop', reason: 'the alert carried no stop-loss, and no order is placed without one', flatten: false, contract: dated.name }
  }
  return {
    kind: 'order',
    request: {
      tag: orderTagOf(record.id),
      contract,
      action,
      quantity: Math.min(decision.quantity, room),
      entryType: prices.entryType,
      entryPrice: prices.entryType === 'Limit' ? prices.entryPrice : null,
      stopPrice: prices.stopPrice,
      targetPrice: prices.targetPrice,
      ...entryOrder,
    },
  }
}

/** The risk strategy's "Maximum contracts" as stored (a JSON number, or null when no bound is set). */
function legacyMaxContracts(stored: unknown): number | null {
  return typeof stored === 'number' && Number.isInteger(stored) && stored >= 1 ? stored : null
}
