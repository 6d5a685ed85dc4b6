export interface PeriodicPass {
  /** Runs a pass soon (after the one in flight, if any) instead of at the next tick. */
  poke(): void
  /** No more passes; waits for the one in flight. */
  stop(): Promise<void>
}

/** Runs `pass` every `intervalMs`, never two at once; a failing pass is reported and the next one runs as usual. */
export function startPeriodicPass(intervalMs: number, pass: () => Promise<unknown>, onError: (error: unknown) => void): PeriodicPass {
  let stopped = false
  let running: Promise<void> | null = null
  let again = false
  const run = (): void => {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    running = pass()
      .then(() => undefined, onError)
      .finally(() => {
        running = null
        if (again) {
          again = false
          run()
        }
      })
  }
  const timer = setInterval(run, intervalMs)
  run()
  return {
    poke: run,
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
