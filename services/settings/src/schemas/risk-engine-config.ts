import Type from 'typebox'
import { RiskEngineConfig } from '@signals/risk-engine'

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null while the defaults apply' })

export const RiskEngineConfigResponse = Type.Object({
  success: Type.Literal(true),
  config: RiskEngineConfig,
  updatedAt: Timestamp,
  isDefault: Type.Boolean({ description: 'true when nothing was saved yet and these are the defaults' }),
})
