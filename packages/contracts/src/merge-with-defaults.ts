import type { TSchema } from 'typebox'
import type { Contract } from './validate.ts'

/**
 * A stored object in today's shape: kept as it is when it fits `shape`; otherwise the defaults, with each
 * stored field that still fits taken over (unknown fields dropped). Rows written before a field existed,
 * or by hand, never make a response fail. Used by settings' setting values and the risk-engine config.
 */
export function mergeWithDefaults<T extends object>(shape: Contract<TSchema>, stored: unknown, defaults: T): T {
  if (shape.check(stored)) return stored as T
  const merged = { ...defaults } as Record<string, unknown>
  if (stored && typeof stored === 'object') {
    const given = stored as Record<string, unknown>
    for (const field of Object.keys(defaults)) {
      const candidate = { ...merged, [field]: given[field] }
      if (shape.check(candidate)) merged[field] = given[field]
    }
  }
  return merged as T
}
