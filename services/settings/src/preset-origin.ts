import Type, { type Static } from 'typebox'
import { contract } from '@signals/contracts'
import { fieldsChangedFromPreset, type RiskEngineConfig } from '@signals/risk-engine'
import type { PresetOrigin } from './schemas/risk-engine-config.ts'

const StoredOrigin = contract(
  Type.Object({
    id: Type.String(),
    firm: Type.String(),
    plan: Type.String(),
    values: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
  }),
)

/**
 * Which preset the configuration came from and which of its fields the trader has changed since. A row
 * without a preset (or one the service cannot read) answers null: the configuration is the trader's own.
 */
export function presetOriginOf(stored: unknown, config: RiskEngineConfig): Static<typeof PresetOrigin> {
  if (!StoredOrigin.check(stored)) return null
  return { id: stored.id, firm: stored.firm, plan: stored.plan, changed: fieldsChangedFromPreset(config, stored.values) }
}
