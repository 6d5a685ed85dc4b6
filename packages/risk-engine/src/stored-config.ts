import { contract } from '@signals/contracts'
import { DEFAULT_RISK_ENGINE_CONFIG, RISK_AREAS, RiskEngineConfig } from './config.ts'

const areaContracts = Object.fromEntries(RISK_AREAS.map((area) => [area, contract(RiskEngineConfig.properties[area])]))

/**
 * A stored configuration in today's shape: each area that still fits its schema is kept; an area that
 * is missing or no longer fits (a row from an older schema) takes its defaults, field by field.
 */
export function normalizeRiskEngineConfig(stored: unknown): RiskEngineConfig {
  const source = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {}
  const result: Record<string, unknown> = {}
  for (const area of RISK_AREAS) {
    const defaults = DEFAULT_RISK_ENGINE_CONFIG[area] as unknown as Record<string, unknown>
    const given = source[area]
    if (areaContracts[area]?.check(given)) {
      result[area] = given
      continue
    }
    const merged: Record<string, unknown> = { ...defaults }
    if (given && typeof given === 'object') {
      for (const field of Object.keys(defaults)) {
        const candidate = { ...merged, [field]: (given as Record<string, unknown>)[field] }
        if (areaContracts[area]?.check(candidate)) merged[field] = (given as Record<string, unknown>)[field]
      }
    }
    result[area] = merged
  }
  return result as RiskEngineConfig
}
