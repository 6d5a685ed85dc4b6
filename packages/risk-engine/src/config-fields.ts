import Type, { type Static } from 'typebox'
import { RISK_AREAS, RiskEngineConfig } from './config.ts'

type Area = keyof RiskEngineConfig

/** A field of the configuration by its dotted name, as the docs and 400 messages write it (`dailyLossLimit.amount`). */
export type ConfigFieldPath = { [A in Area]: `${A}.${keyof RiskEngineConfig[A] & string}` }[Area]

type ValueAt<P> = P extends `${infer A extends Area}.${infer F}` ? (F extends keyof RiskEngineConfig[A] ? RiskEngineConfig[A][F] : never) : never

/** Some fields of the configuration, each with a value of its own type. */
export type ConfigFieldValues = { [P in ConfigFieldPath]?: ValueAt<P> }

/** A field's value: a scalar, or a list of trading windows (`sessionRules.tradingWindows`). */
export type ConfigFieldValue = string | number | boolean | null | readonly { start: string; end: string }[]

/**
 * Some fields of the configuration in its own nested shape (every area and field optional, the same bounds,
 * nothing unknown): what a trader sends with a preset to change it.
 */
export const RiskEngineConfigPatch = Type.Object(
  Object.fromEntries(RISK_AREAS.map((area) => [area, Type.Optional(Type.Partial(RiskEngineConfig.properties[area], { additionalProperties: false }))])) as {
    [A in Area]: ReturnType<typeof Type.Optional<ReturnType<typeof Type.Partial<(typeof RiskEngineConfig.properties)[A]>>>>
  },
  {
    additionalProperties: false,
    description: 'fields to set over the preset, in the configuration shape; any field may be left out',
    'x-error-prefix': 'Invalid risk-engine configuration',
  },
)
export type RiskEngineConfigPatch = Static<typeof RiskEngineConfigPatch>

export function fieldValue(config: RiskEngineConfig, path: ConfigFieldPath): ConfigFieldValue {
  const [area, field] = path.split('.') as [Area, string]
  return (config[area] as unknown as Record<string, ConfigFieldValue>)[field] ?? null
}

/** A copy of the configuration with the given fields set. */
export function withFields(config: RiskEngineConfig, values: ConfigFieldValues): RiskEngineConfig {
  const copy = structuredClone(config) as unknown as Record<string, Record<string, unknown>>
  for (const [path, value] of Object.entries(values)) {
    const [area, field] = path.split('.') as [string, string]
    const fields = copy[area]
    if (fields) fields[field] = value
  }
  return copy as unknown as RiskEngineConfig
}

/** The patch's fields by dotted name. */
export function patchFields(patch: RiskEngineConfigPatch): ConfigFieldValues {
  const values: Record<string, unknown> = {}
  for (const [area, fields] of Object.entries(patch)) {
    for (const [field, value] of Object.entries(fields ?? {})) if (value !== undefined) values[`${area}.${field}`] = value
  }
  return values as ConfigFieldValues
}
