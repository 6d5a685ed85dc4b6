import Type, { type TObject, type TSchema, type Static } from 'typebox'
import { Value } from 'typebox/value'
import { ConfigError } from './errors.ts'

type Environment = Record<string, string | undefined>

interface Offender {
  variable: string
  problem: string
}

/**
 * Reads the variables named by `schema` from `env`, applies development defaults, converts numbers and
 * validates. Every offending variable is reported at once in one ConfigError.
 * With NODE_ENV=production, secrets (`x-secret`) get no default: they must be set.
 */
export function loadConfig<S extends TObject>(schema: S, env: Environment = process.env): Static<S> {
  const production = env.NODE_ENV === 'production'
  const input: Record<string, unknown> = {}
  const offenders: Offender[] = []

  for (const [name, property] of Object.entries(schema.properties) as [string, TSchema & Record<string, unknown>][]) {
    const raw = env[name]
    if (raw !== undefined && raw !== '') {
      input[name] = raw
      continue
    }
    if (property['x-secret'] === true) {
      if (production) offenders.push({ variable: name, problem: 'is required in production (no default for secrets)' })
      else input[name] = property['x-dev-default']
    }
  }

  const value = Value.Convert(schema, Value.Default(schema, input)) as Record<string, unknown>
  const seen = new Set(offenders.map((o) => o.variable))
  for (const error of Value.Errors(schema, value)) {
    const variable = error.instancePath.split('/')[1] ?? missingProperty(error.params)
    if (!variable || seen.has(variable)) continue
    seen.add(variable)
    offenders.push({ variable, problem: describe(schema.properties[variable], env[variable], error.message) })
  }
  if (offenders.length > 0) throw new ConfigError(offenders)
  return value as Static<S>
}

function missingProperty(params: unknown): string | undefined {
  const required = (params as { requiredProperties?: string[] } | undefined)?.requiredProperties
  return required?.[0]
}

function describe(property: TSchema | undefined, raw: string | undefined, message: string): string {
  if (raw === undefined || raw === '') return 'is required'
  const expected = (property as Record<string, unknown> | undefined)?.['x-expected']
  const shown = (property as Record<string, unknown> | undefined)?.['x-sensitive'] === true ? '(hidden)' : JSON.stringify(raw)
  return `${shown} is not valid: ${typeof expected === 'string' ? `expected ${expected}` : message}`
}

export { Type }
