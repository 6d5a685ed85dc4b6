export interface BackoffOptions {
  /** Delay before the second delivery. */
  initialMs: number
  /** Upper bound for any delay. */
  maxMs: number
}

export const defaultBackoff: BackoffOptions = { initialMs: 250, maxMs: 30_000 }

/** Doubling delay after each failed delivery (1-based), capped, with +-20% jitter so instances spread out. */
export function backoffDelay(deliveryCount: number, options: BackoffOptions = defaultBackoff): number {
  const base = Math.min(options.maxMs, options.initialMs * 2 ** Math.max(0, deliveryCount - 1))
  const jitter = base * 0.2 * (Math.random() * 2 - 1)
  return Math.max(0, Math.round(base + jitter))
}
