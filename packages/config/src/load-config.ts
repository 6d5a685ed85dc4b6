import Type, { type TObject, type TSchema, type Static } from 'typebox'
import { Value } from 'typebox/value'
import { readFileSync } from 'node:fs'
import { ConfigError } from './errors.ts'
import { productionOffenders, type Offender } from './production-rules.ts'

type Environment = Record<string, string | undefined>

/**
 * Reads the variables named by `schema` from `env`, applies development defaults, converts numbers and
 * validates. Every offending variable is reported at once in one ConfigError.
 * With NODE_ENV=production, secrets (`x-secret`) get no default: they must be set, and unsafe settings are
 * refused (`production-rules.ts`). A variable may instead be read from the file `<NAME>_FILE` names
 * (docker compose generates its development secrets into files).
 */
export function loadConfig<S extends TObject>(schema: S, env: Environment = process.env): Static<S> {
  const production = env.NODE_ENV === 'production'
  const input: Record<string, unknown> = {}
  const offenders: Offender[] = []

  for (const [name, property] of Object.entries(schema.properties) as [string, TSchema & Record<string, unknown>][]) {
    const raw = env[name] !== undefined && env[name] !== '' ? env[name] : fromFile(name, env, offenders)
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
  if (production) offenders.push(...productionOffenders(schema, value, env).filter((offender) => !seen.has(offender.variable)))
  if (offenders.length > 0) throw new ConfigError(offenders)
  return value as Static<S>
}

/** The content of the file `<name>_FILE` names (trailing newline dropped), or undefined. */
function fromFile(name: string, env: Environment, offenders: Offender[]): string | undefined {
  const file = env[`${name}_FILE`]
  if (file === undefined || file === '') return undefined
  try {
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '')
  } catch {
    offenders.push({ variable: name, problem: `${name}_FILE (${JSON.stringify(file)}) cannot be read` })
    return undefined
  }
}

function missingProperty(params: unknown): string | undefined {
  const required = (params as { requiredProperties?: string[] } | undefined)?.requiredProperties
  return required?.[0]
}

function describe(property: TSchema | undefined, raw: string | undefined, message: string): string {
  if (raw === undefined || raw === '') return 'is required'
  const expected = (property as Record<string, unknown> | undefined)?.['x-expected']
  const shown = (property as Record<string, unknown> | undefined)?.['x-sensitive'] === true ? '(hidden)' : JSON.stringify(withoutCredentials(raw))
  return `${shown} is not valid: ${typeof expected === 'string' ? `expected ${expected}` : message}`
}

/** A URL's user part (`scheme://user:password@host`) as `[hidden]`, wherever it appears in the value. */
function withoutCredentials(raw: string): string {
  return raw.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1[hidden]@')
}

export { Type }
