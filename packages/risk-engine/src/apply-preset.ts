import type { RiskEngineConfig } from './config.ts'
import { fieldValue, patchFields, withFields, type ConfigFieldPath, type ConfigFieldValue, type RiskEngineConfigPatch } from './config-fields.ts'
import type { PropFirmPreset } from './prop-firm-presets.ts'

export interface PresetApplied {
  config: RiskEngineConfig
  /** What the preset set, by dotted name (its fields and the lock worked out): kept to tell what the trader changed later. */
  presetValues: Record<string, ConfigFieldValue>
}

/**
 * The trader's configuration with the preset's fields set, then the trader's own fields over them. A lock
 * given relative to the starting balance follows the starting balance the result ends with (the trader's,
 * when the preset has no account size), unless the trader sets the lock too. Cross-field rules are the
 * caller's to check (`crossFieldProblem`).
 */
export function applyPreset(base: RiskEngineConfig, preset: PropFirmPreset, overrides: RiskEngineConfigPatch = {}): PresetApplied {
  const trader = patchFields(overrides)
  let config = withFields(withFields(base, preset.fields), trader)
  const presetValues: Record<string, ConfigFieldValue> = { ...(preset.fields as Record<string, ConfigFieldValue>) }
  if (preset.lockAboveStartingBalance !== null) {
    const lock = config.account.startingBalance + preset.lockAboveStartingBalance
    presetValues['trailingDrawdown.stopTrailingAtBalance'] = lock
    if (trader['trailingDrawdown.stopTrailingAtBalance'] === undefined) config = withFields(config, { 'trailingDrawdown.stopTrailingAtBalance': lock })
  }
  return { config, presetValues }
}

/** The fields the preset set that the configuration no longer has at the preset's value. */
export function fieldsChangedFromPreset(config: RiskEngineConfig, presetValues: Record<string, ConfigFieldValue>): ConfigFieldPath[] {
  return (Object.keys(presetValues) as ConfigFieldPath[]).filter((path) => JSON.stringify(fieldValue(config, path)) !== JSON.stringify(presetValues[path]))
}
