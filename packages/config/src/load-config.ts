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
 * (docker compose generates its development secrets into files). A service URL left unset follows its
 * service's port variable when that is set (`AUTH_URL` from `AUTH_PORT`, see `variables.ts`).
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
    const followed = followedPort(property, env)
    if (followed !== undefined) {
      input[name] = `http://127.0.0.1:${followed}`
      continue
    }
    if (property['x-secret'] === true) {
      if (production) offenders.push({ variable: name, problem: 'is required in production (no default for secrets)' })
      else input[name] = property['x-dev-default']
    }
  }

  const value = Value.Convert(schema, Value.Default(schema, input)) as Record<string, unknown>
  const seen = new Set(offenders.map((o) => o.variable))
  // Each variable checked against its own schema: checked as one object, the first variable failing a
  // union (an enumerated one) stopped the report, hiding every other bad variable.
  const required = new Set<string>((schema as TObject & { required?: string[] }).required ?? [])
  for (const [variable, property] of Object.entries(schema.properties) as [string, TSchema][]) {
    if (seen.has(variable)) continue
    const problem =
      value[variable] === undefined
        ? required.has(variable) ? 'is required' : undefined
        : firstError(property, value[variable], env[variable])
    if (problem === undefined) continue
    seen.add(variable)
    offenders.push({ variable, problem })
  }
  if (production) offenders.push(...productionOffenders(schema, value, env).filter((offender) => !seen.has(offender.variable)))
  if (offenders.length > 0) throw new ConfigError(offenders)
  return value as Static<S>
}

/** The port a `*_URL` left unset follows (`x-port-variable`), when that port variable is set to a number. */
function followedPort(property: Record<string, unknown>, env: Environment): string | undefined {
  const variable = property['x-port-variable']
  if (typeof variable !== 'string') return undefined
  const port = env[variable]?.trim()
  return port && /^\d+$/.test(port) ? port : undefined
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

/** What is wrong with one variable's converted value, or undefined when it is valid. */
function firstError(property: TSchema, converted: unknown, raw: string | undefined): string | undefined {
  for (const error of Value.Errors(property, converted)) return describe(property, raw, error.message)
  return undefined
}

function describe(property: TSchema, raw: string | undefined, message: string): string {
  if (raw === undefined || raw === '') return 'is required'
  const annotations = property as TSchema & Record<string, unknown>
  const allowed = allowedValues(property)
  const expected = allowed ? `one of ${allowed.join(', ')}` : annotations['x-expected']
  const shown = annotations['x-sensitive'] === true ? '(hidden)' : JSON.stringify(withoutCredentials(raw))
  return `${shown} is not valid: ${typeof expected === 'string' ? `expected ${expected}` : message}`
}

/** The values an enumerated variable (a union of literals) allows, or undefined for any other kind. */
function allowedValues(property: TSchema): string[] | undefined {
  const members = (property as { anyOf?: { const?: unknown }[] }).anyOf
  if (!members?.length || !members.every((member) => member.const !== undefined)) return undefined
  return members.map((member) => String(member.const))
}

/** A URL's user part (`scheme://user:password@host`) as `[hidden]`, wherever it appears in the value. */
function withoutCredentials(raw: string): string {
  return raw.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1[hidden]@')
}

export { Type }
