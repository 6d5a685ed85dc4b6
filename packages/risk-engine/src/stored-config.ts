import { contract, mergeWithDefaults } from '@signals/contracts'
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
    const shape = areaContracts[area]
    const defaults = DEFAULT_RISK_ENGINE_CONFIG[area]
    result[area] = shape ? mergeWithDefaults(shape, source[area], defaults) : { ...defaults }
  }
  return result as RiskEngineConfig
}
