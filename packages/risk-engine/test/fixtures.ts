import { DEFAULT_RISK_ENGINE_CONFIG, type RiskEngineConfig } from '../src/config.ts'
import type { AccountState, ContractTerms, EntryIntent, MarketView, OrderCaps, SizingInput } from '../src/sizing-types.ts'

type AreaOverrides = { [Area in keyof RiskEngineConfig]?: Partial<RiskEngineConfig[Area]> }

/** The defaults (50k, 2k trailing, 1k soft daily, 1 %, 10 % buffer, 3 open) with some fields changed. */
export function configWith(overrides: AreaOverrides = {}): RiskEngineConfig {
  const config = structuredClone(DEFAULT_RISK_ENGINE_CONFIG) as unknown as Record<string, Record<string, unknown>>
  for (const [area, fields] of Object.entries(overrides)) Object.assign(config[area] as object, fields)
  return config as unknown as RiskEngineConfig
}

/** A fresh 50 000 account: no trades, peak at the start. */
export function accountWith(overrides: Partial<AccountState> = {}): AccountState {
  return {
    balance: '50000',
    peakBalance: '50000',
    todayRealizedPnl: '0',
    openPnl: '0',
    openTrades: [],
    closedResults: '',
    haltedForSession: false,
    dailyPnl: [],
    tradingDays: 0,
    ...overrides,
  }
}

export const NQ: ContractTerms = { root: 'NQ', pointValue: '20', tickSize: '0.25' }
export const MNQ: ContractTerms = { root: 'MNQ', pointValue: '2', tickSize: '0.25' }
export const CL: ContractTerms = { root: 'CL', pointValue: '1000', tickSize: '0.01' }

/** A long NQ market entry at 21000 with a 10-point stop and a 30-point target. */
export function alertWith(overrides: Partial<EntryIntent> = {}): EntryIntent {
  return { side: 'LONG', orderType: 'market', entryPrice: '21000', stopPrice: '20990', targetPrice: '21030', quantity: null, ...overrides }
}

/** The platform ceiling the connector defaults to, and no risk-strategy maximum. */
export const CAPS: OrderCaps = { platformMaxContracts: 50, maxContracts: null }

/**
 * Sizing input; the market defaults to the alert's entry price (the broker's price where the alert says),
 * so the figures of a case are those of the alert unless the case moves the market.
 */
export function input(parts: { config?: RiskEngineConfig; account?: AccountState; alert?: EntryIntent; contract?: ContractTerms; market?: MarketView; caps?: Partial<OrderCaps> } = {}): SizingInput {
  const alert = parts.alert ?? alertWith()
  const market: MarketView = parts.market ?? (alert.entryPrice === null ? { price: null, reason: 'no price in this test' } : { price: alert.entryPrice })
  return { config: parts.config ?? configWith(), account: parts.account ?? accountWith(), alert, contract: parts.contract ?? NQ, market, caps: { ...CAPS, ...parts.caps } }
}
