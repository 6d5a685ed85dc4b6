import { BusUnavailableError } from './errors.ts'

/**
 * Codes that mean "a dependency is down", not "this message (or request) is wrong": Node's socket errors,
 * Postgres' connection SQLSTATEs, and @signals/db's DATABASE_UNAVAILABLE (a connection node-postgres lost).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006',
  'DATABASE_UNAVAILABLE',
])

/**
 * Classified by type (BusUnavailableError) and by code, never by message text. The consumers' one retry
 * policy waits such a failure out (docs/decisions/consumers.md); HTTP answers it with a 503.
 */
export function isDependencyDown(error: unknown): boolean {
  if (error instanceof BusUnavailableError) return true
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && UNAVAILABLE_CODES.has(code)
}
