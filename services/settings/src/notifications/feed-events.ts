import type { FeedStatus, NotificationEvent } from '@signals/contracts'
import { userIdToken } from '@signals/contracts'

/** The connector's wording of a failure it tries again by itself (feeds/feed-manager.ts); any other error is final. */
const RETRIED = /; (reconnecting|retrying in \d+ s)$/

/**
 * Turns a user's feed status changes into notices: `feed_down` when a connected feed is lost (once per
 * outage, not once per reconnect attempt), `broker_login_failed` when the connector gives up on the login
 * (refused credentials, an account the login does not hold, credentials missing or unreadable); it tries
 * again only after new credentials or a restart, so each such error is news. An expired session the broker
 * ends shows as a lost feed.
 */
export class FeedEventTracker {
  readonly #connected = new Map<string, boolean>()

  /** Remembers a status read at start (no notice: it may have been told before). */
  seed(status: FeedStatus): void {
    this.#connected.set(status.userId, status.state === 'connected')
  }

  /** The notice a new status calls for, or null. `revision` (the bucket's) makes the event id, shared by every instance. */
  next(status: FeedStatus, revision: number): NotificationEvent | null {
    const wasConnected = this.#connected.get(status.userId) ?? false
    if (status.state === 'connected') this.#connected.set(status.userId, true)
    if (status.state === 'stopped') this.#connected.set(status.userId, false)
    if (status.state !== 'error') return null
    const detail = status.detail ?? ''
    const base = { version: 1 as const, userId: status.userId, occurredAt: status.updatedAt, eventId: `feed:${userIdToken(status.userId)}:${revision}` }
    if (!RETRIED.test(detail)) {
      this.#connected.set(status.userId, false)
      return { ...base, kind: 'broker_login_failed', title: 'Broker login failed', text: `${detail || 'The broker refused the login'}. Trading waits for new credentials.` }
    }
    if (!wasConnected) return null
    this.#connected.set(status.userId, false)
    return { ...base, kind: 'feed_down', title: 'Broker feed down', text: `${detail.replace(RETRIED, '')}; the platform is reconnecting.` }
  }
}
