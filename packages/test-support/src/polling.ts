export interface PollOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number
  /** Time between probes (default 20 ms). */
  intervalMs?: number
  /** Named in the error when time runs out. */
  what?: string
}

/** A time-out in ms, or the options (a bare number was once ignored by 83 callers, who got the 10 s default). */
type PollLimit = number | PollOptions

/** Polls `probe` until it returns something other than undefined, and resolves with it. */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, limit: PollLimit = {}): Promise<T> {
  const options = typeof limit === 'number' ? { timeoutMs: limit } : limit
  const deadline = Date.now() + (options.timeoutMs ?? 10_000)
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(options.what ? `timed out waiting for ${options.what}` : 'condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20))
  }
}

/** Polls until `predicate` holds. */
export async function eventually(predicate: () => boolean | Promise<boolean>, limit: PollLimit = {}): Promise<void> {
  await waitFor(async () => ((await predicate()) ? true : undefined), limit)
}
