/**
 * One queue per key: a key's work runs one after another in the order given (a failure does not stop the
 * next), different keys side by side. The trade keeper, the flatten runner and the reconciler each keep one
 * user's work in order with it.
 */
export class SerialQueues {
  readonly #tails = new Map<string, Promise<unknown>>()

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const next = (this.#tails.get(key) ?? Promise.resolve()).then(work, work)
    const settled = next.catch(() => undefined)
    this.#tails.set(key, settled)
    void settled.finally(() => {
      if (this.#tails.get(key) === settled) this.#tails.delete(key)
    })
    return next
  }

  /** Waits for every work handed over so far. */
  async idle(): Promise<void> {
    await Promise.all([...this.#tails.values()])
  }
}
