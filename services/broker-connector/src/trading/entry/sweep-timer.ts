import type { Logger } from '../../shared/logger.ts'

/** Runs a sweep pass every `intervalMs`, one pass at a time (the next is timed from the end of the last), until stopped. */
export class SweepTimer {
  #timer: NodeJS.Timeout | undefined
  #pass: Promise<void> = Promise.resolve()
  #stopped = false

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    /** What a pass does, for the log line of a failed one. */
    private readonly name = 'sweep of entry records',
  ) {}

  start(): void {
    this.#stopped = false
    this.#next()
  }

  #next(): void {
    if (this.#stopped) return
    this.#timer = setTimeout(() => {
      this.#pass = this.pass()
        .then(
          () => undefined,
          (error: unknown) => this.logger.warn({ err: error }, `${this.name} failed; tried again on the next pass`),
        )
        .finally(() => this.#next())
    }, this.intervalMs)
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#pass
  }
}
