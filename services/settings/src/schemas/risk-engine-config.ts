import Type from 'typebox'
import { RiskEngineConfig } from '@signals/risk-engine'

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null while the defaults apply' })

export const PresetOrigin = Type.Union(
  [
    Type.Object({
      id: Type.String({ description: 'the preset id (GET /api/risk-engine/presets)' }),
      firm: Type.String(),
      plan: Type.String(),
      changed: Type.Array(Type.String(), { description: 'fields the preset set that now hold another value (dotted names, e.g. dailyLossLimit.amount)' }),
    }),
    Type.Null(),
  ],
  { description: 'the prop-firm preset the configuration was last filled from; null when none was applied' },
)

export const RiskEngineConfigResponse = Type.Object({
  success: Type.Literal(true),
  config: RiskEngineConfig,
  updatedAt: Timestamp,
  isDefault: Type.Boolean({ description: 'true when nothing was saved yet and these are the defaults' }),
  preset: PresetOrigin,
})
