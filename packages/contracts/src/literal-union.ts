import Type, { type TSchemaOptions, type TUnsafe } from 'typebox'

/**
 * A union of string literals from a list, typed as the union of the list's values. (Mapping a list into
 * `Type.Union` directly loses the literal types: the static type comes out as `never`.)
 */
export function LiteralUnion<const T extends readonly string[]>(values: T, options?: TSchemaOptions): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>(Type.Union(values.map((value) => Type.Literal(value)), options))
}
