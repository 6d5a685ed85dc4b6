import type { Static, TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { badRequest } from '@signals/http-kit'

interface SchemaError {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message: string
}

/** `/trailingDrawdown/amount` -> `trailingDrawdown.amount`; the root is named `root`. */
function fieldName(instancePath: string, prefix: string): string {
  const parts = instancePath.split('/').filter(Boolean)
  const joined = [prefix, ...parts].filter(Boolean).join('.')
  return joined || 'body'
}

/**
 * One sentence naming the offending field, from the first problem TypeBox reports. Literal unions
 * (enums) list their allowed values; unknown fields and missing ones are said as such.
 */
export function describeFirstError(errors: readonly SchemaError[], prefix = ''): string {
  const first = errors[0]
  if (!first) return `${prefix || 'body'} is invalid`
  if (first.keyword === 'boolean' || first.keyword === 'additionalProperties') {
    const unknown = first.keyword === 'additionalProperties' ? `${first.instancePath}/${(first.params.additionalProperties as string[])[0]}` : first.instancePath
    return `${fieldName(unknown, prefix)} is not a known field`
  }
  if (first.keyword === 'required') {
    const missing = (first.params.requiredProperties as string[] | undefined)?.[0] ?? ''
    return `${fieldName(`${first.instancePath}/${missing}`, prefix)} is required`
  }
  const field = fieldName(first.instancePath, prefix)
  if (first.keyword === 'minLength' && first.params.limit === 1) return `${field} must not be empty`
  const sameField = errors.filter((error) => error.instancePath === first.instancePath)
  const allowed = sameField.filter((error) => error.keyword === 'const').map((error) => JSON.stringify(error.params.allowedValue))
  if (allowed.length > 0) return `${field} must be one of ${allowed.join(', ')}`
  const alternatives = sameField.filter((error) => error.keyword !== 'anyOf').map((error) => error.message)
  return `${field} ${[...new Set(alternatives)].join(' or ')}`
}

export interface Validator<S extends TSchema> {
  schema: S
  /** The value, typed; or a 400 HttpError naming the field (`prefix.field`). */
  parse(value: unknown, prefix?: string): Static<S>
  check(value: unknown): value is Static<S>
}

/** Compiles once; `parse` throws a 400 whose message starts with `messagePrefix` and names the field. */
export function validator<S extends TSchema>(schema: S, messagePrefix: string): Validator<S> {
  const compiled = Compile(schema)
  return {
    schema,
    check: (value: unknown): value is Static<S> => compiled.Check(value),
    parse(value: unknown, prefix = ''): Static<S> {
      if (compiled.Check(value)) return value
      throw badRequest(`${messagePrefix}: ${describeFirstError([...compiled.Errors(value)] as SchemaError[], prefix)}`)
    },
  }
}

/**
 * Fastify validator compiler for the service's routes: TypeBox's compiler (the schemas are TypeBox) with
 * 400 messages that name the field. A schema may carry `x-error-prefix` ("Invalid risk-engine
 * configuration") to say what was wrong in the caller's terms.
 */
export function typeboxValidatorCompiler({ schema, httpPart }: { schema: unknown; httpPart?: string }) {
  const prefix = (schema as Record<string, unknown>)['x-error-prefix']
  const check = validator(schema as TSchema, typeof prefix === 'string' ? prefix : `Invalid request ${httpPart ?? 'body'}`)
  return (data: unknown) => {
    try {
      return { value: check.parse(data) }
    } catch (error) {
      return { error: error as Error }
    }
  }
}
