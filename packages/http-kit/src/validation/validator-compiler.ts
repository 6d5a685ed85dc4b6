import { Ajv, type Options, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

/** Where a validation error came from: the route's whole schema for its part, so the formatter can read its annotations. */
export const ROOT_SCHEMA = Symbol('rootSchema')

const common: Options = {
  removeAdditional: false,
  // Fastify's own choice: all errors would let a crafted body make validation quadratic.
  allErrors: false,
  // Errors carry the offending value and schema, so messages can say `null` is a missing value.
  verbose: true,
  // A oneOf tagged by a property reports the errors of the branch the tag picks, not of every branch.
  discriminator: true,
}

function createAjv(text: boolean): Ajv {
  const ajv = new Ajv({ ...common, coerceTypes: text ? 'array' : false, useDefaults: text })
  addFormats.default(ajv)
  // The words a schema may carry for its error messages (see schema-error-formatter.ts).
  ajv.addKeyword({ keyword: 'x-error-prefix', schemaType: 'string' })
  return ajv
}

/**
 * Two validators, as Fastify's documentation suggests for this need: JSON bodies are checked as sent
 * (`"true"` is not a boolean, and a missing field is missing, not filled from the schema's default),
 * while querystrings, params and headers, which are always text, are coerced (`?limit=20` is a number)
 * and take their defaults. Each failure keeps a reference to the route's schema for that part.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = createAjv(false)
  const coercing = createAjv(true)
  return ({ schema, httpPart }) => {
    // Compiled at the route's first request, not at registration: most routes of a service are called
    // seldom, and a compiled validator (generated source, its function, ajv's cache entry) is kept for the
    // process's life (docs/decisions/memory.md). Same validator, built once.
    let validate: ValidateFunction | undefined
    const withRoot = (data: unknown) => {
      validate ??= (httpPart === 'body' ? strict : coercing).compile(schema as object)
      const valid = validate(data)
      withRoot.errors = valid ? null : (validate.errors ?? []).map((error) => Object.assign(error, { [ROOT_SCHEMA]: schema }))
      return valid
    }
    withRoot.errors = null as ValidateFunction['errors']
    return withRoot
  }
}
