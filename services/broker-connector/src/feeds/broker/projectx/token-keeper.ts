import { BrokerError } from '../broker-adapter.ts'
import type { SessionToken } from './login.ts'

/** Pause before another try after a failed validation that named no wait. */
const RETRY_MS = 5_000

/**
 * Keeps a session's token valid: `Auth/validate` before it expires (`renewBeforeMs` ahead, at most a
 * quarter of its remaining life), again after a failure while it still lives; a refusal or the expiry
 * reached ends the session through `onFailed`.
 */
export class TokenKeeper {
  #timer: NodeJS.Timeout | undefined
  #stopped = false

  constructor(
    private current: SessionToken,
    private readonly validate: (token: string) => Promise<SessionToken>,
    private readonly renewBeforeMs: number,
    private readonly onFailed: (reason: string) => void,
  ) {}

  get token(): string {
    return this.current.token
  }

  start(): void {
    const remaining = this.current.expiresAt - Date.now()
    this.#schedule(Math.max(0, remaining - Math.min(this.renewBeforeMs, remaining / 4)))
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => void this.#run(), delayMs)
  }

  async #run(): Promise<void> {
    try {
      this.current = await this.validate(this.current.token)
      this.start()
    } catch (error) {
      if (this.#stopped) return
      const refused = error instanceof BrokerError && (error.kind === 'credentials_refused' || error.kind === 'rejected')
      const waitMs = error instanceof BrokerError && error.retryAfterMs !== null ? error.retryAfterMs : RETRY_MS
      if (!refused && Date.now() + waitMs < this.current.expiresAt) return this.#schedule(waitMs)
      this.stop()
      this.onFailed(`ProjectX session token not renewed: ${error instanceof Error ? error.message : 'unknown error'}`)
    }
  }

  stop(): void {
    this.#stopped = true
    clearTimeout(this.#timer)
  }
}
