/** Guards for values read off Tradovate's JSON, which the connector never trusts to match the documented types. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** A JSON number that is a whole, safely representable id or count; null otherwise. */
export const int = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null)
