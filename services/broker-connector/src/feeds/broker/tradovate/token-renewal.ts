import type { AccessTokenResponse } from '@signals/tradovate-wire'
import { BrokerError } from '../broker-adapter.ts'

/** When to renew a token expiring at `expiresAt`: `renewBeforeMs` ahead, or a quarter of its life for short tokens. */
export function renewalDelayMs(expiresAt: number, now: number, renewBeforeMs: number): number {
  const remaining = expiresAt - now
  return Math.max(0, remaining - Math.min(renewBeforeMs, remaining / 4))
}

/** Pause before trying again after a failed renewal that named no wait (network blip). */
const RETRY_MS = 1_000

/**
 * Keeps a session's access token renewed before its `expirationTime` for as long as the session is open. A
 * failed renewal is tried again (after the broker's wait) while the token still lives; a refusal, or a wait
 * past the expiry, ends the session through `onFailed`.
 */
export class TokenRenewal {
  #timer: NodeJS.Timeout | undefined
  #stopped = false
  #current: AccessTokenResponse | null = null

  constructor(
    private readonly renew: (token: string) => Promise<AccessTokenResponse>,
    private readonly renewBeforeMs: number,
    private readonly onFailed: (reason: string) => void,
  ) {}

  /** The latest token: the one started with, then each renewal's. */
  get current(): AccessTokenResponse | null {
    return this.#current
  }

  start(token: AccessTokenResponse): void {
    this.#current = token
    this.#schedule(token, renewalDelayMs(Date.parse(token.expirationTime), Date.now(), this.renewBeforeMs))
  }

  #schedule(current: AccessTokenResponse, delayMs: number): void {
    if (this.#stopped) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => void this.#run(current), delayMs)
  }

  async #run(current: AccessTokenResponse): Promise<void> {
    try {
      const renewed = await this.renew(current.accessToken)
      this.start(renewed)
    } catch (error) {
      if (this.#stopped) return
      const refused = error instanceof BrokerError && (error.kind === 'credentials_refused' || error.kind === 'captcha')
      const waitMs = error instanceof BrokerError && error.retryAfterMs !== null ? error.retryAfterMs : RETRY_MS
      if (!refused && Date.now() + waitMs < Date.parse(current.expirationTime)) return this.#schedule(current, waitMs)
      this.stop()
      this.onFailed(`access token not renewed: ${error instanceof Error ? error.message : 'unknown error'}`)
    }
  }

  stop(): void {
    this.#stopped = true
    clearTimeout(this.#timer)
  }
}
