import { contract } from '@signals/contracts'
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
  const shape = shapes[key]
  if (shape.check(stored)) return stored as SettingsByKey[K]['value']
  const fallback = DEFAULT_SETTINGS[key] as unknown as Record<string, unknown>
  const merged: Record<string, unknown> = { ...fallback }
  if (stored && typeof stored === 'object') {
    for (const field of Object.keys(fallback)) {
      const candidate = { ...merged, [field]: (stored as Record<string, unknown>)[field] }
      if (shape.check(candidate)) merged[field] = (stored as Record<string, unknown>)[field]
    }
  }
  return merged as SettingsByKey[K]['value']
}
