// The spec's legacy risk strategy (`risk_strategy`), folded into the one risk section (issue 25, item 6).
// Its balance and percentage size nothing since the risk engine (docs/decisions/risk-engine.md), so the page
// no longer shows them and saves them as they are stored. Its one live field, "Maximum contracts", is a cap
// on every order beside the risk engine's `limits.maxContractsPerOrder`: the page shows the two as one field
// (the lower of them) and saves it in the risk engine, clearing the legacy cap, so the trader's effective
// cap is unchanged and lives in one place. Pure functions.
import type { RiskConfig } from './api-routes.ts'
import type { ResponseOf } from './api-routes.ts'

export type RiskStrategy = ResponseOf<'GET /api/trading-settings'>['settings']['risk_strategy']['value']

/** The configuration the page shows: the per-order cap is the lower of the two caps (within the field's bounds). */
export function withLegacyCap(config: RiskConfig, strategy: RiskStrategy): RiskConfig {
  if (strategy.maxContracts === null || strategy.maxContracts >= config.limits.maxContractsPerOrder) return config
  return { ...config, limits: { ...config.limits, maxContractsPerOrder: Math.max(1, strategy.maxContracts) } }
}

/** The risk strategy the save writes (the spec's second call): as stored, in the client's form, its cap moved to the risk engine. */
export function strategyToSave(strategy: RiskStrategy): RiskStrategy {
  return { ...strategy, type: 'legacy', maxContracts: null }
}
