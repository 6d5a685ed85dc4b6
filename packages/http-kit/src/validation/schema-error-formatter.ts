import type { ErrorObject } from 'ajv'
import { ROOT_SCHEMA } from './validator-compiler.ts'

type SchemaNode = Record<string, unknown>
type ValidationError = ErrorObject & { [ROOT_SCHEMA]?: unknown }

/**
 * The one wording of a request that does not fit its schema, for every route of every service: the
 * first problem, naming the field as the caller wrote it (`limits.maxRiskPerTradePercent must be <= 10`),
 * after a prefix that says what was wrong in the caller's terms. The prefix is the nearest
 * `x-error-prefix` on the way from the route's schema to the failing keyword, else `Invalid <part>`.
 * JSON `null` where a value is required reads as a missing value.
 */
export function schemaErrorFormatter(errors: readonly ValidationError[], dataVar: string): Error {
  return new Error(describeSchemaErrors(errors, dataVar))
}

export function describeSchemaErrors(errors: readonly ValidationError[], dataVar: string): string {
  const first = errors[0]
  if (!first) return `Invalid ${dataVar}`
  const root = first[ROOT_SCHEMA]
  const path = schemaPathOf(first)
  const prefix = (steps: readonly string[]) => prefixAlong(root, steps) ?? `Invalid ${dataVar}`
  const field = (instancePath: string) => fieldName(instancePath, dataVar)

  switch (first.keyword) {
    case 'additionalProperties':
      return `${prefix(path)}: ${field(`${first.instancePath}/${String(first.params.additionalProperty)}`)} is not a known field`
    case 'required': {
      const missing = String(first.params.missingProperty)
      const tagValues = tagValuesOf(first.parentSchema, missing)
      const choices = tagValues.length > 0 ? ` (${tagValues.join(' or ')})` : ''
      return `${prefix(path)}: ${field(`${first.instancePath}/${missing}`)} is required${choices}`
    }
    case 'discriminator':
      return discriminatorMessage(first, root, path, prefix, field)
  }
  // A null where an object or a value is required: the field is missing, said in its parent's terms.
  if (first.keyword === 'type' && first.data === null && first.instancePath !== '') {
    return `${prefix(path.slice(0, Math.max(0, path.lastIndexOf('properties'))))}: ${field(first.instancePath)} is required`
  }
  if (first.keyword === 'type' && first.instancePath === '') {
    return `${prefix(path)}: ${dataVar} must be ${String(first.params.type)}: send a JSON ${String(first.params.type)}`
  }
  if (first.keyword === 'minLength' && first.params.limit === 1) return `${prefix(path)}: ${field(first.instancePath)} must not be empty`
  const sameField = errors.filter((error) => error.instancePath === first.instancePath)
  const allowed = sameField.filter((error) => error.keyword === 'const').map((error) => JSON.stringify(error.params.allowedValue))
  if (allowed.length > 0) return `${prefix(path)}: ${field(first.instancePath)} must be one of ${allowed.join(', ')}`
  // Ajv shouts (`must NOT have more than 255 characters`); the answers speak evenly.
  const alternatives = sameField
    .filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf')
    .map((error) => (error.message ?? 'is invalid').replaceAll('NOT', 'not'))
  return `${prefix(path)}: ${field(first.instancePath)} ${[...new Set(alternatives)].join(' or ')}`
}

/**
 * A oneOf tagged by a property (`settingKey`): a missing tag is a missing field; a tag that names no
 * branch is quoted after the tag property's own prefix, with the values it may take.
 */
function discriminatorMessage(
  error: ValidationError,
  root: unknown,
  path: readonly string[],
  prefix: (steps: readonly string[]) => string,
  field: (instancePath: string) => string,
): string {
  const tag = String(error.params.tag)
  const allowed = tagValuesOf(error.parentSchema, tag)
  const value = error.params.tagValue as unknown
  const name = field(`${error.instancePath}/${tag}`)
  if (value === undefined || value === null || value === '') return `${prefix(path)}: ${name} is required (${allowed.join(' or ')})`
  const tagPrefix = prefixAlong(root, [...path, 'oneOf', '0', 'properties', tag]) ?? prefix(path)
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 50)) : JSON.stringify(value)?.slice(0, 50)
  return `${tagPrefix} ${shown}: ${name} must be one of ${allowed.map((one) => JSON.stringify(one)).join(', ')}`
}

/** The values a oneOf's tag property may take, when `tag` is the schema's discriminator; else none. */
function tagValuesOf(schema: unknown, tag: string): unknown[] {
  const node = schema as SchemaNode | undefined
  if ((node?.discriminator as SchemaNode | undefined)?.propertyName !== tag || !Array.isArray(node?.oneOf)) return []
  return (node.oneOf as SchemaNode[])
    .map((branch) => ((branch.properties as SchemaNode | undefined)?.[tag] as SchemaNode | undefined)?.const)
    .filter((value) => value !== undefined)
}

/** `#/oneOf/1/properties/settingValue/type` -> the steps to the node holding the failing keyword. */
function schemaPathOf(error: ValidationError): string[] {
  return error.schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean).slice(0, -1).map(decodeURIComponent)
}

function prefixAlong(root: unknown, steps: readonly string[]): string | undefined {
  let node: unknown = root
  let found = prefixOf(node)
  for (const step of steps) {
    if (node === null || typeof node !== 'object') break
    node = (node as SchemaNode)[step]
    found = prefixOf(node) ?? found
  }
  return found
}

function prefixOf(node: unknown): string | undefined {
  const prefix = node !== null && typeof node === 'object' ? (node as SchemaNode)['x-error-prefix'] : undefined
  return typeof prefix === 'string' ? prefix : undefined
}

/** `/trailingDrawdown/amount` -> `trailingDrawdown.amount`; the part itself is named by its part (`body`). */
function fieldName(instancePath: string, dataVar: string): string {
  const joined = instancePath.split('/').filter(Boolean).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')).join('.')
  return joined || dataVar
}
