import { contract, mergeWithDefaults } from '@signals/contracts'
import { DEFAULT_SETTINGS, LiveTradingValue, RiskStrategyValue, type SettingKey, type SettingsByKey } from './schemas/trading-settings.ts'

const shapes = {
  risk_strategy: contract(RiskStrategyValue),
  live_trading: contract(LiveTradingValue),
} as const

/**
 * A stored value in today's shape. Rows written before a field existed (or by hand) are completed from
 * the defaults and stripped of unknown fields, so a response never fails on an old row.
 */
export function normalizeSettingValue<K extends SettingKey>(key: K, stored: unknown): SettingsByKey[K]['value'] {
  return mergeWithDefaults(shapes[key], stored, DEFAULT_SETTINGS[key] as SettingsByKey[K]['value'])
}
